# Barriers: keys read back from the database, written before the effect,
# passed through from the client, or replay-stable (silent), next to the
# same code without the barrier (findings).
import uuid

import asyncpg
import psycopg
import requests
import stripe
from flask import Flask, request
from sqlalchemy import text
from temporalio import workflow

from .models import Intent, Payment

API = "https://api.provider.example/charges"
app = Flask(__name__)


# case: barrier/psycopg silent
def psycopg_read_back(conn, order_id):
    with conn.cursor() as cur:
        cur.execute(
            "INSERT INTO intents (order_id, idem_key) VALUES (%s, %s) ON CONFLICT (order_id) DO NOTHING",
            (order_id, str(uuid.uuid4())),
        )
        cur.execute("SELECT idem_key FROM intents WHERE order_id = %s", (order_id,))
        key = cur.fetchone()[0]
    requests.post(API, headers={"Idempotency-Key": key})


# case: barrier/psycopg finding
def psycopg_fresh_row(conn, order):
    with conn.cursor() as cur:
        cur.execute("INSERT INTO payments (order_id, cents) VALUES (%s, %s) RETURNING id", (order["id"], order["cents"]))
        payment_id = cur.fetchone()[0]
    requests.post(API, headers={"Idempotency-Key": f"pay-{payment_id}"})  # want IDEM001


# case: barrier/asyncpg silent
async def asyncpg_read_back(pool, order_id):
    key = await pool.fetchval("SELECT idem_key FROM intents WHERE order_id = $1", order_id)
    requests.post(API, headers={"Idempotency-Key": key})


# case: barrier/asyncpg finding
async def asyncpg_fresh_row(pool, order):
    row = await pool.fetchrow("INSERT INTO payments (order_id) VALUES ($1) RETURNING id", order["id"])
    requests.post(API, headers={"Idempotency-Key": str(row["id"])})  # want IDEM001


# case: barrier/sqlalchemy silent
def sqlalchemy_read_back(session, order_id):
    key = session.execute(text("SELECT idem_key FROM intents WHERE order_id = :o"), {"o": order_id}).scalar_one()
    requests.post(API, headers={"Idempotency-Key": key})


# case: barrier/sqlalchemy finding
def sqlalchemy_not_read(session, order_id):
    key = str(uuid.uuid4())
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001
    session.execute(text("UPDATE orders SET idem_key = :k WHERE id = :o"), {"k": key, "o": order_id})


# case: barrier/django silent
def django_get_or_create(order):
    intent, _ = Intent.objects.get_or_create(order_id=order.id, defaults={"key": str(uuid.uuid4())})
    stripe.PaymentIntent.create(amount=order.cents, idempotency_key=intent.key)


# case: barrier/django finding
def django_fresh_row(order):
    payment = Payment.objects.create(order_id=order.id, cents=order.cents)
    stripe.PaymentIntent.create(amount=order.cents, idempotency_key=f"payment-{payment.id}")  # want IDEM001


# case: pair/stored-read-back silent
# case: barrier/dominating-write silent
def stored_then_sent(conn, order):
    key = str(uuid.uuid4())
    conn.execute("INSERT INTO intents (order_id, idem_key) VALUES (%s, %s) ON CONFLICT DO NOTHING", (order["id"], key))
    requests.post(API, headers={"Idempotency-Key": key})


# case: pair/stored-after-effect finding
def sent_then_stored(conn, order):
    key = str(uuid.uuid4())
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001
    conn.execute("INSERT INTO intents (order_id, idem_key) VALUES (%s, %s) ON CONFLICT DO NOTHING", (order["id"], key))


# case: barrier/dominating-write finding
def stored_on_one_path(conn, order):
    key = str(uuid.uuid4())
    if order.get("persist"):
        conn.execute("INSERT INTO intents (order_id, idem_key) VALUES (%s, %s)", (order["id"], key))
    requests.post(API, headers={"Idempotency-Key": key})  # want IDEM001


# case: barrier/client-key silent
@app.post("/charges")
def passthrough():
    key = request.headers.get("Idempotency-Key")
    requests.post(API, json=request.get_json(), headers={"Idempotency-Key": key})


# case: barrier/client-key finding
@app.post("/charges2")
def own_key_per_request():
    requests.post(API, json=request.get_json(), headers={"Idempotency-Key": str(uuid.uuid4())})  # want IDEM001


# case: barrier/temporal silent
@workflow.defn
class ChargeWorkflow:
    @workflow.run
    async def run(self, order):
        key = str(workflow.uuid4())
        stamp = workflow.now().isoformat()
        await workflow.execute_activity(charge_activity, {"order": order, "idempotency_key": f"{key}-{stamp}"})


# case: barrier/temporal finding
async def charge_activity(args):
    stripe.PaymentIntent.create(amount=args["order"]["cents"], idempotency_key=str(uuid.uuid4()))  # want IDEM001


# case: barrier/sqlalchemy-select silent
async def reconcile_stale(session, cutoff_minutes):
    from datetime import datetime, timedelta
    from sqlalchemy import select
    cutoff = datetime.now() - timedelta(minutes=cutoff_minutes)
    rows = (await session.execute(select(Payment.id).where(Payment.updated_at < cutoff))).all()
    for (payment_id,) in rows:
        requests.post(API, headers={"Idempotency-Key": f"pay-{payment_id}"})


# case: barrier/fsm-state silent
async def confirm_step_one(message, state):
    # A dialog's first step draws the key and stores it in the FSM state;
    # the confirm step reads it back.
    await state.update_data(reason=message.text, idempotency_key=f"tg:{uuid.uuid4()}")


# case: barrier/fsm-state finding
async def confirm_in_one_step(message, client):
    await client.adjust(reason=message.text, idempotency_key=f"tg:{uuid.uuid4()}")  # want IDEM001


# case: barrier/sqlalchemy-select finding
async def sweep_stale(session):
    from datetime import datetime
    from sqlalchemy import select
    cutoff = datetime.now()
    rows = (await session.execute(select(Payment.id).where(Payment.updated_at < cutoff))).all()
    requests.post(API, json={"count": len(rows)}, headers={"Idempotency-Key": f"sweep-{cutoff}"})  # want IDEM001


# case: barrier/firestore silent
def release_due(fs_client):
    from datetime import datetime
    from google.cloud import firestore
    db = firestore.Client()
    now = datetime.now()
    for doc in db.collection("escrows").where("release_at", "<=", now).stream():
        stripe.Transfer.create(amount=doc.get("cents"), currency="usd", destination=doc.get("account"), idempotency_key=f"transfer-{doc.id}")


# case: barrier/firestore finding
def release_due_stamped(fs_client):
    from datetime import datetime
    from google.cloud import firestore
    db = firestore.Client()
    now = datetime.now()
    for doc in db.collection("escrows").where("release_at", "<=", now).stream():
        stripe.Transfer.create(amount=doc.get("cents"), currency="usd", destination=doc.get("account"), idempotency_key=f"transfer-{doc.id}-{now:%Y%m%d%H%M}")  # want IDEM001
