import stripe


def refund_booking(booking):
    # case: resolve/project-root silent
    stripe.Refund.create(payment_intent=booking.intent, amount=booking.refund_cents)


def transfer_share(booking):
    # case: resolve/project-root finding
    stripe.Transfer.create(amount=booking.owner_cents, currency="usd", destination=booking.owner_account)  # want IDEM002
