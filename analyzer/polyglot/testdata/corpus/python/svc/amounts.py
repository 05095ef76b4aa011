# An amount made an integer inside a helper (int(amount * 100)) is not a
# float in the key, whatever the caller passed; the same amount put in the
# key as given is. A key in a JSON body (json.dumps of a dict) still leaves.
import json
import uuid

import requests
import stripe
from celery import shared_task


def to_cents(amount):
    return int(amount * 100)


# case: flow/integer-conversion silent
def refund_in_cents(charge, amount):
    stripe.Refund.create(charge=charge, amount=to_cents(amount), idempotency_key=f"refund-{to_cents(amount)}-{charge}")


# case: flow/integer-conversion finding
def refund_as_given(charge, amount):
    stripe.Refund.create(charge=charge, amount=to_cents(amount), idempotency_key=f"refund-{amount}-{charge}")  # want IDEM003


@shared_task
def halve(charge, total):
    refund_in_cents(charge, total / 2)
    refund_as_given(charge, total / 2)


# case: sink/json-body finding
@shared_task
def transfer(account, cents):
    requests.post("https://p.example/transfers", data=json.dumps({"account": account, "amount": cents, "idempotency_key": str(uuid.uuid4())}))  # want IDEM001


# case: sink/json-body silent
@shared_task
def transfer_keyed(account, cents, transfer_id):
    requests.post("https://p.example/transfers", data=json.dumps({"account": account, "amount": cents, "idempotency_key": f"transfer-{transfer_id}"}))


# A library's result is not a float because a float went in: the client's
# timeout is seconds, the payment it returns is JSON. The refund's own
# amount, a float, in the key is.
import httpx

provider = httpx.Client(base_url="https://api.example", timeout=httpx.Timeout(20.0, connect=10.0))


# case: flow/library-result-not-float silent
@shared_task
def refund_reported_payment(payment_id):
    payment = provider.get(f"/payments/{payment_id}").json()
    stripe.Refund.create(payment_intent=payment["intent"], idempotency_key=f"refund-{payment['id']}")


# case: flow/library-result-not-float finding
@shared_task
def refund_reported_share(payment_id):
    payment = provider.get(f"/payments/{payment_id}").json()
    share = float(payment["amount"]) * 0.5
    stripe.Refund.create(payment_intent=payment["intent"], idempotency_key=f"refund-{payment['id']}-{share}")  # want IDEM003


# A parameter declared Decimal holds an exact amount whatever the caller's
# arithmetic: Python's / on two Decimals gives a Decimal.
from decimal import Decimal


def issue_refund(payment_id, amount: Decimal | None, sequence):
    stripe.Refund.create(payment_intent=payment_id, amount=100, idempotency_key=f"refund:{payment_id}:{sequence}:{amount}")


def issue_float_refund(payment_id, amount, sequence):
    stripe.Refund.create(payment_intent=payment_id, amount=100, idempotency_key=f"refund:{payment_id}:{sequence}:{amount}")  # want IDEM003


# case: flow/declared-decimal silent
def cancel_ticket(payment_id, price: Decimal, percent: Decimal):
    issue_refund(payment_id, price * percent / Decimal(100), 1)


# case: flow/declared-decimal finding
def cancel_ticket_float(payment_id, price, percent):
    issue_float_refund(payment_id, price * percent / 100, 1)


def refund_if_required(payment_id, quote):
    issue_refund(payment_id, min(quote.refund_amount, quote.paid), 2)


# case: flow/declared-decimal silent
def cancel_with_quote(payment_id, price, percent):
    # The quote's division is handed on, through a helper, to a parameter
    # declared Decimal.
    refund_if_required(payment_id, Quote(refund_amount=price * percent / 100, paid=price))


class Quote:
    def __init__(self, refund_amount, paid):
        self.refund_amount = refund_amount
        self.paid = paid
