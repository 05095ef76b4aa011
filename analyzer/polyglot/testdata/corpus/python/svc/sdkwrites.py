# IDEM002: a Stripe call that moves money without an idempotency key, on a
# path that can run it again (a consumer, a webhook, callers out of view),
# vs the same call with a key, one that moves no money, or one only an
# HTTP route or a script reaches.
import os

import stripe
import gocardless_pro
from aioyookassa import YooKassa
from celery import shared_task
from django.core.management.base import BaseCommand
from flask import Flask, request

app = Flask(__name__)
client = stripe.StripeClient("sk_test")


# case: rule/IDEM002 finding
@shared_task
def refund_order(charge_id, cents):
    stripe.Refund.create(charge=charge_id, amount=cents)  # want IDEM002


# case: rule/IDEM002 silent
@shared_task
def refund_order_keyed(charge_id, cents, intent_key):
    stripe.Refund.create(charge=charge_id, amount=cents, idempotency_key=f"refund-{intent_key}")


# case: rule/IDEM002 finding
def pay_out(account, cents):
    # Nothing here calls it: its callers are out of view.
    return stripe.Payout.create(amount=cents, currency="brl", stripe_account=account)  # want IDEM002


# case: rule/IDEM002 finding
@shared_task
def charge_with_client(order):
    client.v1.payment_intents.create(params={"amount": order["cents"], "currency": "brl", "confirm": True})  # want IDEM002


# case: rule/IDEM002 silent
@shared_task
def charge_with_client_keyed(order):
    client.v1.payment_intents.create(
        params={"amount": order["cents"], "currency": "brl", "confirm": True},
        options={"idempotency_key": f"order-{order['id']}"},
    )


def refund_invoice(invoice_id):
    stripe.Refund.create(payment_intent=invoice_id, amount=500)  # want IDEM002


# case: rule/IDEM002 finding
@app.route("/stripe/webhook", methods=["POST"])
def stripe_webhook():
    # The route verifies Stripe's signature: Stripe retries it until 2xx.
    event = stripe.Webhook.construct_event(request.data, request.headers["Stripe-Signature"], "whsec")
    refund_invoice(event["data"]["object"]["payment_intent"])
    return "", 200


def charge_card(order):
    stripe.PaymentIntent.create(amount=order["cents"], currency="brl", confirm=True)


# case: rule/IDEM002 silent
@app.route("/checkout", methods=["POST"])
def checkout():
    # Only a route reaches it: nothing redelivers the request, and the
    # SDK's own key covers its network retries.
    charge_card(request.json)
    return "", 201


# case: rule/IDEM002 silent
@shared_task
def capture_later(intent_id):
    stripe.PaymentIntent.capture(intent_id)  # Stripe captures an intent at most once: a repeat fails


# case: rule/IDEM002 silent
@shared_task
def sign_up(email):
    stripe.Customer.create(email=email)  # moves no money: a repeat leaves a spare customer


# case: rule/IDEM002 silent
@shared_task
def charge_with_options(order, options):
    client.payment_intents.create(params={"amount": order["cents"]}, options=options)  # options handed in


# case: rule/IDEM002 silent
@shared_task
def transfer_spread(params):
    stripe.Transfer.create(**params)  # params it cannot see into


def charge_all(orders):
    for order in orders:
        stripe.Charge.create(amount=order["cents"], currency="brl")


# case: rule/IDEM002 silent
class Command(BaseCommand):
    # A management command: run by hand (manage.py migrate_to_stripe).
    def handle(self, *args, **options):
        for org in options["orgs"]:
            subscribe(org)


def subscribe(org):
    stripe.Subscription.create(customer=org["customer"], items=[{"price": org["price"]}])


# case: rule/IDEM002 silent
if __name__ == "__main__":
    charge_all([{"cents": 100}])  # a script: run by hand, not redelivered


# case: rule/IDEM002 finding
class StripeService:
    # Called through the instance below from code out of view.
    async def refund(self, *, charge_id: str, cents: int):
        return await stripe.Refund.create_async(  # want IDEM002
            charge=charge_id,
            amount=cents,
        )


stripe_service = StripeService()


def refund_charge(charge_id, cents, idempotency_key=None):
    # The key is the caller's to give.
    return stripe.Refund.create(charge=charge_id, amount=cents, idempotency_key=idempotency_key)


# case: rule/IDEM002 finding
@shared_task
def refund_without_key(charge_id, cents):
    refund_charge(charge_id, cents)  # want IDEM002


# case: rule/IDEM002 silent
@shared_task
def refund_with_key(charge_id, cents, intent_key):
    refund_charge(charge_id, cents, idempotency_key=f"refund-{intent_key}")


# case: rule/IDEM002 finding
async def renew_saved_card(sub):
    # aioyookassa takes no key and draws one per call: the next run of the
    # job charges the saved card again.
    async with YooKassa(api_key="k", shop_id=1) as client:
        await client.payments.create_payment({"amount": {"value": sub.price, "currency": "RUB"}, "capture": True,  # want IDEM002
                                              "payment_method_id": sub.method_id})


# case: rule/IDEM002 silent
async def checkout_link(sub):
    async with YooKassa(api_key="k", shop_id=1) as client:
        await client.payments.create_payment({"amount": {"value": sub.price, "currency": "RUB"},
                                              "confirmation": {"type": "redirect", "return_url": "https://x.example"}})


def start_jobs(scheduler):
    scheduler.add_job(renew_saved_card, "interval", hours=1)
    scheduler.add_job(checkout_link, "interval", hours=1)


# case: rule/IDEM002 finding
@shared_task
def collect_mandate(mandate_id, cents):
    # gocardless_pro draws a key per call when none is given.
    gc = gocardless_pro.Client(access_token="t", environment="sandbox")
    gc.payments.create(params={"amount": cents, "currency": "GBP", "links": {"mandate": mandate_id}})  # want IDEM002


# case: rule/IDEM002 silent
@shared_task
def collect_mandate_keyed(invoice_id, mandate_id, cents):
    gc = gocardless_pro.Client(access_token="t", environment="sandbox")
    gc.payments.create(params={"amount": cents, "currency": "GBP", "links": {"mandate": mandate_id}},
                       headers={"Idempotency-Key": f"invoice-{invoice_id}"})


# case: sdk/kwargs-dict finding
@shared_task
def invoice_booking(customer, po_number):
    # A dict built here and spread into the call is seen into: no key in it.
    invoice_kwargs = {"customer": customer, "collection_method": "charge_automatically", "custom_fields": []}
    if po_number:
        invoice_kwargs["custom_fields"].append({"name": "PO", "value": po_number})
    stripe.Invoice.create(**invoice_kwargs)  # want IDEM002


# case: sdk/kwargs-dict silent
@shared_task
def invoice_booking_keyed(booking_id, customer):
    invoice_kwargs = {"customer": customer, "idempotency_key": f"invoice-{booking_id}"}
    stripe.Invoice.create(**invoice_kwargs)


# case: sdk/kwargs-dict silent
@shared_task
def invoice_with_options(customer, **options):
    # Options handed in: the caller may have put the key there.
    stripe.Invoice.create(customer=customer, **options)


# A refund without an amount refunds what remains: a repeat finds nothing
# left and is refused. One with an amount refunds it again.
# case: sdk/refund-remainder silent
@shared_task(autoretry_for=(Exception,))
def refund_remainder(intent_id):
    stripe.Refund.create(payment_intent=intent_id, reason="duplicate")


# case: sdk/refund-remainder finding
@shared_task(autoretry_for=(Exception,))
def refund_part(intent_id, amount):
    stripe.Refund.create(payment_intent=intent_id, amount=amount)  # want IDEM002


def verified_event(req):
    return stripe.Webhook.construct_event(req.data, req.headers["Stripe-Signature"], os.environ["WHSEC"])


# case: entry/webhook-verified-in-helper finding
@app.route("/billing/webhook", methods=["POST"])
def billing_webhook():
    # The signature is checked in a helper: the route still receives
    # Stripe's webhook, which Stripe retries until it answers 2xx.
    event = verified_event(request)
    stripe.Refund.create(payment_intent=event["data"]["object"]["id"], amount=300)  # want IDEM002
    return "", 200


def parsed_order(req):
    return req.get_json()


# case: entry/webhook-verified-in-helper silent
@app.route("/billing/refund", methods=["POST"])
def billing_refund():
    # A helper that only parses the request: a plain route, not a webhook.
    order = parsed_order(request)
    stripe.Refund.create(payment_intent=order["intent_id"], amount=300)
    return "", 200


# A PaymentIntent moves money when it is confirmed: created with
# confirm=True it charges at once, so a redelivery charges again; created
# unconfirmed, the customer (or one later confirm) charges it, and a
# repeat leaves an orphan intent that charges nothing.
# case: sdk/unconfirmed-intent finding
@shared_task
def charge_saved_card(customer, method, cents):
    stripe.PaymentIntent.create(customer=customer, payment_method=method, amount=cents, currency="usd", confirm=True, off_session=True)  # want IDEM002


# case: sdk/unconfirmed-intent silent
@shared_task
def open_intent(customer, cents):
    stripe.PaymentIntent.create(customer=customer, amount=cents, currency="usd")


# case: sdk/unconfirmed-intent silent
@shared_task
def open_intent_explicitly(customer, cents):
    client.v1.payment_intents.create(params={"customer": customer, "amount": cents, "currency": "usd", "confirm": False})
