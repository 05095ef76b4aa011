# Objects: a key made by a class another module defines, and an SDK the
# constructor stores on the instance (self.stripe = stripe), which the
# methods then call.
import uuid

import stripe
from celery import shared_task

from .keyclass import DocKey


# case: sink/constructed-class finding
@shared_task
def create_intent(doc):
    stripe.PaymentIntent.create(amount=doc["cents"], currency="brl", idempotency_key=DocKey("payment_intent", doc["name"]).bare())  # want IDEM005


# case: sink/constructed-class silent
@shared_task
def create_intent_keyed(doc):
    stripe.PaymentIntent.create(amount=doc["cents"], currency="brl", idempotency_key=DocKey("payment_intent", doc["name"]).keyed())


class Payer:
    def __init__(self, api_key):
        self.stripe = stripe
        self.stripe.api_key = api_key

    # case: sink/instance-field finding
    def refund(self, charge):
        return self.stripe.Refund.create(charge=charge, idempotency_key=str(uuid.uuid4()))  # want IDEM001

    # case: sink/instance-field silent
    def refund_keyed(self, charge):
        return self.stripe.Refund.create(charge=charge, idempotency_key=f"refund-{charge}")


class Refunder:
    def __init__(self, ctx):
        self.ctx = ctx

    # case: sink/log-field silent
    def log_refund(self, charge):
        self.ctx.log.info("refunding", idempotency_key=str(uuid.uuid4()), charge=charge)

    # case: sink/log-field finding
    def refund(self, charge):
        self.ctx.payments.refund(
            charge=charge,
            idempotency_key=str(uuid.uuid4()),  # want IDEM001
        )
