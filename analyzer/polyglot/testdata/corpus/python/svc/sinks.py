# Every sink family: the key leaves the process (findings), or a key-named
# value does not (silent).
import logging
import urllib3
import uuid

import aiohttp
import boto3
import httpx
import requests
import square
import stripe

log = logging.getLogger(__name__)
sqs = boto3.client("sqs")
http = urllib3.PoolManager()


# case: sink/requests finding
def with_requests(order):
    s = requests.Session()
    s.headers["Idempotency-Key"] = str(uuid.uuid4())  # want IDEM001
    s.post("https://p.example/charge", json={"amount": order["cents"]})


# case: sink/requests silent
def requests_logged(order):
    k = str(uuid.uuid4())
    log.info("idempotency_key=%s", k)
    requests.post("https://p.example/charge", headers={"Idempotency-Key": order["id"]})


# case: sink/httpx finding
async def with_httpx(order):
    async with httpx.AsyncClient() as client:
        await client.post("https://p.example/charge", headers={"X-Idempotency-Key": uuid.uuid4().hex})  # want IDEM001


# case: sink/httpx silent
async def httpx_trace(order):
    async with httpx.AsyncClient() as client:
        await client.post("https://p.example/charge", headers={"X-Request-Id": uuid.uuid4().hex, "X-Idempotency-Key": order["id"]})


# case: sink/aiohttp finding
async def with_aiohttp(order):
    async with aiohttp.ClientSession() as session:
        headers = {}
        headers["Idempotency-Key"] = str(uuid.uuid1())
        await session.post("https://p.example/charge", headers=headers)  # want IDEM001


# case: sink/aiohttp silent
async def aiohttp_stable(order):
    async with aiohttp.ClientSession() as session:
        headers = {"Idempotency-Key": f"order:{order['id']}"}
        await session.post("https://p.example/charge", headers=headers)


# case: sink/urllib3 finding
def with_urllib3(order):
    http.request("POST", "https://p.example/charge", headers={"PayPal-Request-Id": str(uuid.uuid4())})  # want IDEM001


# case: sink/urllib3 silent
def urllib3_stable(order):
    http.request("POST", "https://p.example/charge", headers={"PayPal-Request-Id": order["intent_id"]})


# case: sink/stripe finding
def with_stripe(order):
    stripe.PaymentIntent.create(amount=order["cents"], currency="brl", idempotency_key=str(uuid.uuid4()))  # want IDEM001


# case: sink/stripe silent
def stripe_stable(order):
    stripe.PaymentIntent.create(amount=order["cents"], currency="brl", idempotency_key=f"pi-{order['id']}", metadata={"trace": str(uuid.uuid4())})


# case: sink/sdk_body finding
def with_square(client, order):
    client.payments.create_payment(body={"source_id": order["nonce"], "idempotency_key": str(uuid.uuid4())})  # want IDEM001


# case: sink/sdk_body silent
def square_stable(client, order):
    client.payments.create_payment(body={"source_id": order["nonce"], "idempotency_key": order["id"], "reference_id": str(uuid.uuid4())})


# case: sink/sqs_dedup finding
def with_sqs(order):
    sqs.send_message(QueueUrl="q.fifo", MessageBody=order["json"], MessageGroupId="g", MessageDeduplicationId=str(uuid.uuid4()))  # want IDEM001


# case: sink/sqs_dedup silent
def sqs_stable(order):
    sqs.send_message(QueueUrl="q.fifo", MessageBody=order["json"], MessageGroupId=str(uuid.uuid4()), MessageDeduplicationId=order["id"])


# case: sink/configured finding
def with_configured_name(client, order):
    client.transfer(amount=order["cents"], op_ref=str(uuid.uuid4()))  # want IDEM001


# case: sink/configured silent
def configured_name_stable(client, order):
    client.transfer(amount=order["cents"], op_ref=order["id"], note=str(uuid.uuid4()))
