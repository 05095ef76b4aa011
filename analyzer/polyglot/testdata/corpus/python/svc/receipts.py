# Key-named fields that stay in the process (silent) and their look-alikes
# that leave it (findings): a sink is where the key leaves as a key.
import uuid

import requests
import stripe
from django.http import JsonResponse

from svc.models import Payment


# case: sink/response-body silent
def receipt_view(request):
    return JsonResponse({"idempotency_key": str(uuid.uuid4()), "ok": True})


# case: sink/response-body finding
def forward_view(request):
    requests.post("https://p.example/charge", json={"idempotency_key": str(uuid.uuid4())})  # want IDEM001
    return JsonResponse({"ok": True})


# case: sink/orm-write silent
def request_refund(transaction, amount):
    return transaction.events.create(amount=amount, idempotency_key=str(uuid.uuid4()))


# case: sink/orm-write finding
def refund(charge_id, amount):
    return stripe.Refund.create(charge=charge_id, amount=amount, idempotency_key=str(uuid.uuid4()))  # want IDEM001


# case: sink/in-memory silent
def cancel_requests(items):
    pending = []
    for item in items:
        event = Payment(amount=item.amount, idempotency_key=str(uuid.uuid4()))
        pending.append((item, event))
    return pending


# case: sink/in-memory finding
def send_cancel_requests(items):
    for item in items:
        requests.post("https://p.example/cancel", json={"item": item.id, "idempotency_key": str(uuid.uuid4())})  # want IDEM001


# case: walk/test-file finding
def replay_charge(order):
    requests.post("https://p.example/charge", headers={"Idempotency-Key": str(uuid.uuid4())})  # want IDEM001
