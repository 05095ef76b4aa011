# A property's getter runs at every read: a key it draws is drawn again by
# each read, and each attempt; one it derives from the instance's fields
# holds.
import uuid

import requests
from celery import shared_task

API = "https://api.provider.example/refunds"


class DrawingRefund:
    def __init__(self, payment_id):
        self.payment_id = payment_id

    @property
    def idempotency_key(self):
        return str(uuid.uuid4())

    def send(self, cents):
        # case: flow/property-getter finding
        requests.post(API, json={"payment_id": self.payment_id, "amount": cents}, headers={"Idempotency-Key": self.idempotency_key})  # want IDEM001


class DerivedRefund:
    def __init__(self, payment_id):
        self.payment_id = payment_id

    @property
    def idempotency_key(self):
        return f"refund-{self.payment_id}"

    def send(self, cents):
        # case: flow/property-getter silent
        requests.post(API, json={"payment_id": self.payment_id, "amount": cents}, headers={"Idempotency-Key": self.idempotency_key})


@shared_task
def refund_payment(payment_id, cents):
    DrawingRefund(payment_id).send(cents)
    DerivedRefund(payment_id).send(cents)
