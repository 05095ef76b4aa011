# The pairs: a retry loop in a route vs in a consumer; a persisted
# counter vs a per-attempt counter; a key built in a helper in another
# module (imports resolved inside the project).
import json
import time
import uuid

import requests
import stripe
from celery import shared_task
from django.db import models
from flask import Flask

from svc.keys import intent_key, random_key
from . import keys

API = "https://api.provider.example/charges"
app = Flask(__name__)


# case: pair/retry-route silent
@app.route("/pay", methods=["POST"])
def pay_route():
    key = str(uuid.uuid4())
    for attempt in range(3):
        r = requests.post(API, headers={"Idempotency-Key": key})
        if r.ok:
            return "ok"
        time.sleep(2 ** attempt)
    return "failed", 502


# case: pair/retry-consumer finding
def pay_consumer(channel, method, properties, body):
    key = str(uuid.uuid4())
    for attempt in range(3):
        r = requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001
        if r.ok:
            channel.basic_ack(method.delivery_tag)
            return
        time.sleep(2 ** attempt)


def consume(ch):
    ch.basic_consume(queue="pay", on_message_callback=pay_consumer)


# case: pair/persisted-counter silent
def persisted_counter(conn, sub_id):
    # The renewal's cycle number, persisted on the row and advanced only
    # after the charge went through: every attempt at one cycle reads the
    # same number.
    cur = conn.execute("SELECT cycle, order_id FROM subscriptions WHERE id = %s", (sub_id,))
    cycle, order_id = cur.fetchone()
    requests.post(API, headers={"Idempotency-Key": f"{order_id}-{cycle}"})
    conn.execute("UPDATE subscriptions SET cycle = cycle + 1 WHERE id = %s", (sub_id,))


# case: pair/persisted-counter finding
def claimed_attempt(conn, job_id):
    # Each attempt claims the job by advancing its counter, then keys the
    # charge on it: a retry after a timeout reads the next number.
    cur = conn.execute("UPDATE jobs SET attempts = attempts + 1 WHERE id = %s RETURNING attempts, order_id", (job_id,))
    attempts, order_id = cur.fetchone()
    requests.post(API, headers={"Idempotency-Key": f"{order_id}-{attempts}"})  # want IDEM001


# case: pair/claimed-row silent
def claimed_row(conn, job_id):
    # The claim advances the counter but hands back only the order.
    cur = conn.execute("UPDATE jobs SET attempts = attempts + 1 WHERE id = %s RETURNING order_id", (job_id,))
    (order_id,) = cur.fetchone()
    requests.post(API, headers={"Idempotency-Key": f"order-{order_id}"})


# case: pair/persisted-transport-id finding
def pay_recorded(channel, method, properties, body):
    # Written before acting, but under the transport's id: the message
    # published again brings another id, and finds no row.
    key = properties.message_id
    db.execute("insert into payments (idem_key) values (%s) on conflict do nothing", (key,))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


# case: pair/persisted-random finding
def pay_recorded_fresh(channel, method, properties, body):
    # Written before acting, but drawn by this delivery: the next one
    # draws another key and writes another row.
    key = str(uuid.uuid4())
    db.execute("insert into payments (idem_key) values (%s) on conflict do nothing", (key,))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


# case: pair/persisted-random silent
@app.route("/pay-recorded", methods=["POST"])
def pay_recorded_route():
    # The row records the request: nothing delivers it again.
    key = str(uuid.uuid4())
    db.execute("insert into payments (idem_key) values (%s)", (key,))
    requests.post(API, headers={"Idempotency-Key": key})


# case: pair/claimed-intent silent
def pay_claimed_fresh(channel, method, properties, body):
    # Claimed under the order's own id: a redelivery's insert meets the
    # first row and returns nothing.
    order = json.loads(body)
    key = str(uuid.uuid4())
    cur = conn.cursor()
    cur.execute("insert into intents (order_id, idem_key) values (%s, %s) on conflict (order_id) do nothing returning idem_key", (order["id"], key))
    if cur.fetchone() is None:
        return
    requests.post(API, headers={"Idempotency-Key": key})


# case: pair/claimed-intent finding
def pay_claimed_by_fresh_key(channel, method, properties, body):
    # The conflict is on the fresh key itself: it never meets a row.
    order = json.loads(body)
    key = str(uuid.uuid4())
    cur = conn.cursor()
    cur.execute("insert into payments (order_id, provider_ref) values (%s, %s) on conflict (provider_ref) do nothing", (order["id"], key))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


def record_then_pay(key):
    db.execute("insert into payments (idem_key) values (%s) on conflict do nothing", (key,))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


def record_then_pay_fresh(key):
    db.execute("insert into payments (idem_key) values (%s) on conflict do nothing", (key,))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


# case: pair/persisted-transport-id finding
def pay_recorded_by_helper(channel, method, properties, body):
    # The helper writes the key before acting: the caller's message id
    # is still the transport's.
    record_then_pay(properties.message_id)


# case: pair/persisted-random finding
def pay_recorded_fresh_by_helper(channel, method, properties, body):
    record_then_pay_fresh(str(uuid.uuid4()))


def consume_recorded(ch):
    ch.basic_consume(queue="pay3", on_message_callback=pay_recorded)
    ch.basic_consume(queue="pay4", on_message_callback=pay_recorded_fresh)
    ch.basic_consume(queue="pay5", on_message_callback=pay_recorded_by_helper)
    ch.basic_consume(queue="pay6", on_message_callback=pay_recorded_fresh_by_helper)
    ch.basic_consume(queue="pay7", on_message_callback=pay_claimed_fresh)
    ch.basic_consume(queue="pay8", on_message_callback=pay_claimed_by_fresh_key)


# case: pair/per-attempt-counter finding
def local_counter(order):
    attempt = 0
    while attempt < 3:
        attempt += 1
        r = requests.post(API, headers={"Idempotency-Key": f"{order['id']}-{attempt}"})  # want IDEM001
        if r.ok:
            break


# case: pair/item-counter silent
def item_counter(batch_id, lines):
    # Numbered over the batch's lines, whatever fails: every attempt counts
    # them the same.
    n = 0
    for line in lines:
        n += 1
        requests.post(API, headers={"Idempotency-Key": f"{batch_id}-{n}"}, data=line)


# case: pair/process-counter finding
class Sequencer:
    def __init__(self):
        self.seq = 0

    def send(self, order):
        # A counter of this process: it goes on across messages and starts
        # again at 0 after a restart.
        self.seq += 1
        requests.post(API, headers={"Idempotency-Key": f"{order['id']}-{self.seq}"})  # want IDEM001


def relay(order):
    Sequencer().send(order)


# case: flow/cross-module finding
def helper_key(order):
    requests.post(API, headers={"Idempotency-Key": random_key(order)})  # want IDEM001


# case: flow/cross-module silent
def helper_stable(order):
    requests.post(API, headers={"Idempotency-Key": intent_key(order)})


# case: flow/param-sink finding
def through_sender(order):
    keys.send_charge(order, str(uuid.uuid4()))


# case: flow/param-sink silent
def through_sender_stable(order):
    keys.send_charge(order, f"charge-{order['id']}")


# case: flow/field-sensitive silent
def sibling_fields(order):
    d = {"uid": str(uuid.uuid4()), "idempotency_key": order["idempotency_key"]}
    keys.deliver(d)


# case: flow/field-sensitive finding
def sibling_fields_wrong(order):
    d = {"uid": order["id"], "idempotency_key": str(uuid.uuid4())}
    keys.deliver(d)


# A key kept on the row: drawn only while the row read back has none, saved
# on it before the charge, and read back by every later attempt.
# case: pair/key-kept-on-row silent
@shared_task(bind=True)
def charge_registration(self, registration_id):
    self.registration = Registration.objects.get(id=registration_id)
    if not self.registration.payment_idempotency_key:
        self.registration.payment_idempotency_key = uuid.uuid4()
        self.registration.save()
    stripe.PaymentIntent.create(amount=100, currency="nok", confirm=True, idempotency_key=str(self.registration.payment_idempotency_key))


# case: pair/key-kept-on-row finding
@shared_task(bind=True)
def charge_registration_unsaved(self, registration_id):
    # Set on the row in memory only: a redelivery reads the row without it
    # and draws another key.
    registration = Registration.objects.get(id=registration_id)
    if not registration.payment_idempotency_key:
        registration.payment_idempotency_key = uuid.uuid4()
    stripe.PaymentIntent.create(amount=100, currency="nok", confirm=True, idempotency_key=str(registration.payment_idempotency_key))  # want IDEM001


class Registration(models.Model):
    payment_idempotency_key = models.UUIDField(null=True)
