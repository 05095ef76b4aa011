# A key drawn by the service that creates the order, written with the
# order (a repository's session.add, then commit) before the service hands
# the order back: the caller holds a key already stored, which every
# retry of the provisioning reads back. One never written is drawn anew,
# and one a redelivered consumer writes is drawn anew by the redelivery.
import uuid

import pika
import requests
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

app = FastAPI()


def new_key():
    return uuid.uuid4().hex


class Order:
    def __init__(self, plan, idempotency_key):
        self.plan = plan
        self.idempotency_key = idempotency_key


class BaseRepository:
    def __init__(self, session: AsyncSession):
        self.session = session


class OrderRepository(BaseRepository):
    def add(self, order):
        self.session.add(order)

    def add_unless_quiet(self, order, quiet):
        # Written on one path only: the early return writes nothing.
        if quiet:
            return
        self.session.add(order)


class OrderService:
    def __init__(self, session: AsyncSession):
        self.session = session
        self.orders = OrderRepository(session)

    async def create_order(self, plan):
        order = Order(plan=plan, idempotency_key=new_key())
        self.orders.add(order)
        await self.session.commit()
        return order

    async def maybe_create_order(self, plan, quiet):
        order = Order(plan=plan, idempotency_key=new_key())
        self.orders.add_unless_quiet(order, quiet)
        await self.session.commit()
        return order

    async def draft_order(self, plan):
        return Order(plan=plan, idempotency_key=new_key())



# case: pair/stored-by-callee silent
@app.post("/orders")
async def create_paid_order(session, body):
    # A request creates its order once: the row records it, and the
    # provisioning's own retries read it back.
    service = OrderService(session)
    order = await service.create_order(body["plan"])
    requests.post("https://api.vpn.example/subs", json={"plan": order.plan}, headers={"Idempotency-Key": order.idempotency_key})


# case: pair/stored-by-callee finding
async def on_paid(session, body):
    # A delivery creates an order: a redelivery creates another, under
    # another key.
    service = OrderService(session)
    order = await service.create_order(body["plan"])
    requests.post("https://api.vpn.example/subs", json={"plan": order.plan}, headers={"Idempotency-Key": order.idempotency_key})  # want IDEM001


# case: pair/stored-by-callee finding
async def on_paid_draft(session, body):
    service = OrderService(session)
    order = await service.draft_order(body["plan"])
    requests.post("https://api.vpn.example/subs", json={"plan": order.plan}, headers={"Idempotency-Key": order.idempotency_key})  # want IDEM001


# case: pair/stored-by-callee finding
async def on_paid_maybe(session, body):
    service = OrderService(session)
    order = await service.maybe_create_order(body["plan"], body.get("quiet"))
    requests.post("https://api.vpn.example/subs", json={"plan": order.plan}, headers={"Idempotency-Key": order.idempotency_key})  # want IDEM001


def consume_paid(ch: pika.adapters.blocking_connection.BlockingChannel):
    ch.basic_consume(queue="paid", on_message_callback=on_paid)
    ch.basic_consume(queue="paid-draft", on_message_callback=on_paid_draft)
    ch.basic_consume(queue="paid-maybe", on_message_callback=on_paid_maybe)
