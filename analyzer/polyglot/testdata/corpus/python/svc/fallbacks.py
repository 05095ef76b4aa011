# Fallbacks: a per-attempt value drawn only when the key handed in is
# missing. The caller's argument decides; a route's request is the client's.
import uuid

import stripe
from flask import Flask, request

app = Flask(__name__)


# case: fallback/route-or-consumer silent
@app.post("/charge")
def charge_route():
    # A client that sends no key asked for no idempotency.
    key = request.headers.get("Idempotency-Key") or str(uuid.uuid4())
    stripe.PaymentIntent.create(amount=100, currency="usd", confirm=True, idempotency_key=key)
    return {}


def create_payment(amount, idempotence_key=None):
    key = idempotence_key or str(uuid.uuid4())
    stripe.PaymentIntent.create(amount=amount, currency="usd", confirm=True, idempotency_key=key)


def charge_with_default(amount, key=None):
    if not key:
        key = str(uuid.uuid4())
    stripe.PaymentIntent.create(amount=amount, currency="usd", confirm=True, idempotency_key=key)


# case: fallback/caller silent
def renew(sub):
    create_payment(sub.amount, idempotence_key=f"renew-{sub.id}-{sub.period_end}")
    charge_with_default(sub.amount, key=f"renew-{sub.id}-{sub.period_end}")


# case: fallback/caller finding
def renew_all(subs):
    for sub in subs:
        create_payment(sub.amount)  # want IDEM001
        charge_with_default(sub.amount, None)  # want IDEM001


def on_renewal(channel, method, properties, body):
    # A message without the key draws a new one per delivery.
    key = properties.headers.get("x-renewal-key") or str(uuid.uuid4())
    stripe.PaymentIntent.create(amount=100, currency="usd", confirm=True, idempotency_key=key)  # want IDEM001
    channel.basic_ack(method.delivery_tag)


# case: fallback/route-or-consumer finding
def consume(ch):
    ch.basic_consume(queue="renewals", on_message_callback=on_renewal)


def charge_for(sub, key=None):
    # Hands its own parameter on: its callers decide.
    create_payment(sub.amount, idempotence_key=key)


# case: fallback/caller silent
def charge_stored(sub):
    charge_for(sub, key=sub.renewal_key)


# case: fallback/caller finding
def charge_unkeyed(sub):
    charge_for(sub)  # want IDEM001


# case: fallback/caller finding
def refund(charge_id, key=None):
    # No caller in view: whoever calls it may leave the key out.
    stripe.Refund.create(charge=charge_id, idempotency_key=key or str(uuid.uuid4()))  # want IDEM001
