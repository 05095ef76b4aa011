# Per-attempt sources (findings) and their silent look-alikes.
import os
import random
import secrets
import time
import uuid
from datetime import datetime, date

import ksuid
import nanoid
import requests
import shortuuid
import ulid
from acme.ids import next_id

API = "https://api.provider.example/charges"


def send(key, body):
    return requests.post(API, json=body, headers={"Idempotency-Key": key})  # want IDEM001


# case: source/uuid finding
def uuid_key(order):
    send(str(uuid.uuid4()), {"amount": order["cents"]})  # reported where send sends it


# case: source/uuid silent
def uuid_name_based(order):
    send(str(uuid.uuid5(uuid.NAMESPACE_URL, order["id"])), {"amount": order["cents"]})


# case: source/secrets finding
def secrets_key(order):
    requests.post(API, headers={"Idempotency-Key": secrets.token_hex(16)})  # want IDEM001


# case: source/secrets silent
def secrets_not_key(order):
    requests.post(API, headers={"X-Nonce": secrets.token_hex(16), "Idempotency-Key": "order-" + order["id"]})


# case: source/os.urandom finding
def urandom_key(order):
    requests.post(API, headers={"Idempotency-Key": os.urandom(16).hex()})  # want IDEM001


# case: source/os.urandom silent
def getenv_key(order):
    requests.post(API, headers={"Idempotency-Key": os.getenv("FIXED_KEY")})


# case: source/random finding
def random_key(order):
    requests.post(API, headers={"Idempotency-Key": f"{order['id']}-{random.randint(0, 1 << 30)}"})  # want IDEM001


# case: source/random silent
def random_jitter(order):
    time.sleep(random.random())
    requests.post(API, headers={"Idempotency-Key": f"{order['id']}"})


# case: source/time finding
def time_key(order):
    requests.post(API, headers={"Idempotency-Key": "%s-%d" % (order["id"], time.time_ns())})  # want IDEM001


# case: source/time silent
def time_in_body(order):
    requests.post(API, json={"sent_at": time.time()}, headers={"Idempotency-Key": "%s" % order["id"]})


# case: source/datetime finding
def datetime_key(order):
    stamp = datetime.now().strftime("%Y%m%d%H%M%S")
    requests.post(API, headers={"Idempotency-Key": "{}:{}".format(order["id"], stamp)})  # want IDEM001


# case: source/datetime silent
def datetime_from_order(order):
    stamp = datetime.fromisoformat(order["created_at"]).strftime("%Y%m%d")
    requests.post(API, headers={"Idempotency-Key": "{}:{}".format(order["id"], stamp)})


# case: pair/day-bucket finding
def day_bucket(sub, card):
    today = date.today().isoformat()
    requests.post(API, headers={"Idempotency-Key": f"recurrent_{sub}_{card}_{today}"})  # want IDEM001


# case: pair/day-bucket silent
def period_bucket(sub, card, invoice):
    requests.post(API, headers={"Idempotency-Key": f"recurrent_{sub}_{card}_{invoice['period_start']}"})


# case: source/ulid finding
def ulid_key(order):
    requests.post(API, headers={"Idempotency-Key": str(ulid.new())})  # want IDEM001


# case: source/ulid silent
def ulid_parsed(order):
    requests.post(API, headers={"Idempotency-Key": str(ulid.parse(order["ulid"]))})


# case: source/ksuid finding
def ksuid_key(order):
    requests.post(API, headers={"Idempotency-Key": str(ksuid.ksuid())})  # want IDEM001


# case: source/ksuid silent
def ksuid_logged(order, log):
    log.info("trace %s", ksuid.ksuid())
    requests.post(API, headers={"Idempotency-Key": order["id"]})


# case: source/nanoid finding
def nanoid_key(order):
    requests.post(API, headers={"Idempotency-Key": nanoid.generate()})  # want IDEM001


# case: source/nanoid silent
def nanoid_as_id(order):
    row_id = nanoid.generate()
    requests.post(API, json={"ref": row_id}, headers={"Idempotency-Key": order["id"]})


# case: source/shortuuid finding
def shortuuid_key(order):
    requests.post(API, headers={"Idempotency-Key": shortuuid.uuid()})  # want IDEM001


# case: source/shortuuid silent
def shortuuid_from_name(order):
    requests.post(API, headers={"Idempotency-Key": shortuuid.encode(uuid.UUID(order["uuid"]))})


# case: source/configured finding
def configured_source(order):
    requests.post(API, headers={"Idempotency-Key": f"op-{next_id()}"})  # want IDEM001


# case: source/configured silent
def configured_look_alike(order):
    requests.post(API, headers={"Idempotency-Key": f"op-{order['next_id']}"})
