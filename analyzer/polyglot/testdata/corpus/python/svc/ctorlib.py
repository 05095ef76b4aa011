# A constructor's argument of a library's declared type stays the
# receiver's field, bound by each call: the key the caller hands in is
# the one sent. A deep chain of bases without constructors of their own
# inherits the first one's.
import uuid
from uuid import UUID

import stripe
from celery import shared_task


class Charger:
    def __init__(self, key: UUID):
        self.key = key

    def charge(self, cents):
        return stripe.PaymentIntent.create(amount=cents, currency="usd", confirm=True, idempotency_key=str(self.key))  # want IDEM001


# case: flow/constructor-argument finding
@shared_task
def charge_fresh(cents):
    return Charger(uuid.uuid4()).charge(cents)


# case: flow/constructor-argument silent
@shared_task
def charge_stable(order_id, cents):
    return Charger(uuid.uuid5(uuid.NAMESPACE_URL, order_id)).charge(cents)


class Base0:
    def __init__(self, key):
        self.key = key


class Base1(Base0):
    pass


class Base2(Base1):
    pass


class Base3(Base2):
    pass


class Base4(Base3):
    pass


class Base5(Base4):
    pass


class Base6(Base5):
    pass


class Base7(Base6):
    pass


class Base8(Base7):
    pass


class Base9(Base8):
    pass


class Base10(Base9):
    pass


def deep_chain(order_id):
    return Base10(order_id)
