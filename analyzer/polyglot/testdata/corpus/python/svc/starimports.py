"""Key helpers taken whole from a module (from … import *), in a package
analyzed after this file."""
import stripe

from .zz_ids import *


# case: reach/star-import finding
def charge_fresh(order):
    stripe.PaymentIntent.create(amount=order["cents"], currency="usd", idempotency_key=fresh_key())  # want IDEM001


# case: reach/star-import silent
def charge_stable(order):
    stripe.PaymentIntent.create(amount=order["cents"], currency="usd", idempotency_key=order_key(order["id"]))
