import stripe


# case: reach/django-urlpatterns silent
def refund_view(request, charge_id):
    # Routed by urls.py's path(): a staff member's form POST, which nothing
    # redelivers.
    stripe.Refund.create(charge=charge_id)
    return None


# case: reach/django-urlpatterns finding
def refund_later(charge_id):
    # Not routed: its callers are out of view.
    stripe.Refund.create(charge=charge_id, amount=500)  # want IDEM002
