"""An SDK whose idempotency key is an argument by position (YooKassa's
Payment.create(params, idempotency_key)); Square's card on file moves no
money, its payment does."""
import hashlib
import hmac
import uuid

from square import Square
from yookassa import Payment, Webhook

square = Square(token="t")


# case: sink/positional-key finding
def renew(subscription):
    key = str(uuid.uuid4())
    Payment.create({"amount": {"value": subscription["price"], "currency": "RUB"}, "capture": True,
                    "payment_method_id": subscription["method"]}, key)  # want IDEM001


# case: sink/positional-key silent
def renew_for_period(subscription, period):
    key = f"renew:{subscription['id']}:{period}"
    Payment.create({"amount": {"value": subscription["price"], "currency": "RUB"}, "capture": True,
                    "payment_method_id": subscription["method"]}, key)


# case: sink/inert-operation finding
def charge_card(order):
    square.payments.create(source_id=order["card"], amount_money={"amount": order["cents"], "currency": "USD"},
                           idempotency_key=str(uuid.uuid4()))  # want IDEM001


# case: sink/inert-operation silent
def save_card(customer):
    square.cards.create(source_id=customer["nonce"], card={"customer_id": customer["id"]},
                        idempotency_key=str(uuid.uuid4()))


# case: sink/customer-confirmed silent
def bind_card(user_id, return_url):
    # The customer confirms on YooKassa's page: a retried request leaves a
    # spare pending payment, no second charge.
    key = str(uuid.uuid4())
    Payment.create({"amount": {"value": "1.00", "currency": "RUB"}, "capture": False, "save_payment_method": True,
                    "confirmation": {"type": "redirect", "return_url": return_url}}, key)


# case: sink/customer-confirmed finding
def charge_saved_card(user_id, method_id):
    key = str(uuid.uuid4())
    Payment.create({"amount": {"value": "990.00", "currency": "RUB"}, "capture": True, "payment_method_id": method_id,
                    "confirmation": {"type": "redirect", "return_url": "https://shop.example/paid"}}, key)  # want IDEM001


# case: rule/IDEM005-positional finding
def register_webhooks(url):
    for event in ("payment.succeeded", "payment.canceled"):
        key = hashlib.md5((event + url).encode()).hexdigest()
        Webhook.add({"event": event, "url": url}, key)  # want IDEM005


# case: rule/IDEM005-positional silent
def register_webhooks_keyed(url, secret):
    for event in ("payment.succeeded", "payment.canceled"):
        key = hmac.new(secret, (event + url).encode(), hashlib.sha256).hexdigest()
        Webhook.add({"event": event, "url": url}, key)
