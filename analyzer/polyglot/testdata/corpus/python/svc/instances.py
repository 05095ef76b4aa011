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


class Gateway:
    """An integration whose SDK sits on another object (frappe's
    self.gateway.stripe = stripe) and whose API client's create sends an
    idempotency header."""

    def __init__(self, gateway):
        self.gateway = gateway
        self.client = gateway.client

    # case: sink/sdk-on-object finding
    def create_customer(self, customer_id):
        return self.gateway.stripe.Customer.create(name=customer_id, idempotency_key=DocKey("customer", customer_id).bare())  # want IDEM005

    # case: sink/sdk-on-object silent
    def create_customer_keyed(self, customer_id):
        return self.gateway.stripe.Customer.create(name=customer_id, idempotency_key=DocKey("customer", customer_id).keyed())

    # case: sink/api-client-create finding
    def create_payment(self, request_name, **kwargs):
        return self.client.payments.create(params=kwargs, headers={"Idempotency-Key": DocKey("payments", request_name).bare()})  # want IDEM005

    # case: sink/api-client-create silent
    def record_payment(self, request_name):
        return self.client.payments.create(name=request_name, reference=DocKey("payments", request_name).bare())


@shared_task
def refund_through_wrapper(charge):
    from .keyclass import billing

    return billing.refund(charge=charge, idempotency_key=str(uuid.uuid4()))


# case: flow/kwargs-spread silent
@shared_task
def refund_through_wrapper_keyed(charge):
    from .keyclass import billing

    return billing.refund(charge=charge, idempotency_key=f"refund-{charge}")


# case: sink/inert-operation silent
@shared_task
def create_customer(user):
    # A customer moves no money: a retry's new key leaves a spare customer.
    return stripe.Customer.create(email=user["email"], idempotency_key=str(uuid.uuid4()))


# case: sink/inert-operation finding
@shared_task
def create_refund(charge):
    return stripe.Refund.create(charge=charge, idempotency_key=str(uuid.uuid4()))  # want IDEM001


class Payouts:
    """A class of the project's own, on no library's base."""

    # case: reach/unmentioned-method finding
    # pay_all below calls it on a parameter of unknown type: its callers
    # are out of view.
    def payout_keyless(self, account, cents):
        return stripe.Payout.create(amount=cents, currency="usd", stripe_account=account)  # want IDEM002

    # case: reach/unmentioned-method silent
    # No file mentions this method: dead code, which nothing runs again.
    def payout_never_called(self, account, cents):
        return stripe.Payout.create(amount=cents, currency="usd", stripe_account=account)

    # case: reach/unmentioned-method silent
    # Only comments name payout_later: a comment calls nothing.
    # TODO: payout_later from the nightly job.
    def payout_later(self, account, cents):
        return stripe.Payout.create(amount=cents, currency="usd", stripe_account=account)


def pay_all(payouts, accounts):
    for account in accounts:
        payouts.payout_keyless(account, 100)
