import hashlib
import hmac
import json
import os
import uuid

import requests

API = "https://api.provider.example/charges"


def random_key(order):
    return f"{order['id']}-{uuid.uuid4()}"


def intent_key(order):
    return f"intent-{order['id']}"


def send_charge(order, key):
    requests.post(API, json={"amount": order["cents"]}, headers={"Idempotency-Key": key})  # want IDEM001


def deliver(d):
    requests.post(API, json={"id": d["uid"]}, headers={"Idempotency-Key": d["idempotency_key"]})  # want IDEM001
