# YooKassa's API called over HTTP, without its SDK: a payment that asks for
# the payer's confirmation moves no money when it is created (a repeat
# leaves a second confirmation page); one charged on a saved method does.
import uuid

import requests

API = "https://api.yookassa.ru/v3/payments"


# case: sink/provider-endpoint silent
def redirect_payment(cents, return_url):
    headers = {"Idempotence-Key": str(uuid.uuid4())}
    payload = {
        "amount": {"value": cents / 100, "currency": "RUB"},
        "confirmation": {"type": "redirect", "return_url": return_url},
        "capture": True,
    }
    return requests.post(API, headers=headers, json=payload, auth=("shop", "key"))


# case: sink/provider-endpoint finding
def charge_saved_method(cents, method_id):
    headers = {"Idempotence-Key": str(uuid.uuid4())}  # want IDEM001
    payload = {"amount": {"value": cents / 100, "currency": "RUB"}, "payment_method_id": method_id, "capture": True}
    return requests.post(API, headers=headers, json=payload, auth=("shop", "key"))


# case: sink/provider-endpoint finding
def renew_on_saved_method(cents, method_id, return_url):
    # A saved method is charged at once, confirmation or not.
    headers = {"Idempotence-Key": str(uuid.uuid4())}  # want IDEM001
    payload = {
        "amount": {"value": cents / 100, "currency": "RUB"},
        "payment_method_id": method_id,
        "confirmation": {"type": "redirect", "return_url": return_url},
    }
    return requests.post(API, headers=headers, json=payload, auth=("shop", "key"))
