# Transport identity read from a delivery's envelope (findings), and the
# same names read from the message body (silent).
import json

import boto3
import pika
import requests
from celery import Celery

API = "https://api.provider.example/payouts"
app = Celery("svc")
sqs = boto3.client("sqs")


# case: transport/pika finding
def on_payout(channel, method, properties, body):
    requests.post(API, headers={"Idempotency-Key": properties.message_id})  # want IDEM001


# case: transport/pika finding
def on_refund(channel, method, properties, body):
    requests.post(API, headers={"Idempotency-Key": f"refund-{method.delivery_tag}"})  # want IDEM001


# case: transport/pika silent
def on_payout_body(channel, method, properties, body):
    msg = json.loads(body)
    requests.post(API, headers={"Idempotency-Key": msg["message_id"]})


def consume():
    conn = pika.BlockingConnection(pika.ConnectionParameters("localhost"))
    ch = conn.channel()
    ch.basic_consume(queue="payouts", on_message_callback=on_payout)
    ch.basic_consume(queue="refunds", on_message_callback=on_refund)
    ch.basic_consume(queue="payouts2", on_message_callback=on_payout_body)
    ch.basic_consume(queue="aio", on_message_callback=on_aio_message)
    ch.basic_consume(queue="aio2", on_message_callback=on_aio_body)


# case: transport/aio-pika finding
async def on_aio_message(message):
    async with message.process():
        requests.post(API, headers={"Idempotency-Key": message.message_id})  # want IDEM001


# case: transport/aio-pika silent
async def on_aio_body(message):
    async with message.process():
        payload = json.loads(message.body)
        requests.post(API, headers={"Idempotency-Key": payload["intent_id"]})


# case: transport/celery finding
@app.task(bind=True)
def charge_task(self, order_id):
    requests.post(API, headers={"Idempotency-Key": f"{order_id}-{self.request.retries}"})  # want IDEM001


# case: transport/celery silent
@app.task(bind=True)
def charge_task_stable(self, order_id, attempt):
    # attempt is a task argument: the same on every retry of this message.
    requests.post(API, headers={"Idempotency-Key": f"{order_id}-{attempt}"})


# case: transport/sqs finding
def poll_sqs():
    resp = sqs.receive_message(QueueUrl="q")
    for m in resp["Messages"]:
        requests.post(API, headers={"Idempotency-Key": m["MessageId"]})  # want IDEM001


# case: transport/sqs silent
def poll_sqs_body():
    resp = sqs.receive_message(QueueUrl="q")
    for m in resp["Messages"]:
        intent = json.loads(m["Body"])
        requests.post(API, headers={"Idempotency-Key": intent["payout_id"]})


# case: transport/kafka finding
def on_record(record):
    requests.post(API, headers={"Idempotency-Key": f"{record.topic}-{record.offset}"})  # want IDEM001


# case: transport/kafka silent
def on_record_body(record):
    event = json.loads(record.value)
    requests.post(API, headers={"Idempotency-Key": event["event_id"]})


def kafka_loop(consumer):
    consumer.subscribe(["payouts"], on_record)
    consumer.subscribe(["payouts"], on_record_body)


# case: transport/nats finding
async def on_js_msg(msg):
    n = msg.metadata.num_delivered
    requests.post(API, headers={"Idempotency-Key": f"{msg.subject}-{n}"})  # want IDEM001


# case: transport/nats silent
async def on_js_body(msg):
    data = json.loads(msg.data)
    requests.post(API, headers={"Idempotency-Key": f"{data['subject']}-{data['seq']}"})


# case: transport/whatsapp finding
def whatsapp_webhook(request):
    body = json.loads(request.body)
    wamid = body["entry"][0]["changes"][0]["value"]["messages"][0]["id"]
    requests.post(API, headers={"Idempotency-Key": wamid})  # want IDEM001


# case: transport/whatsapp silent
def whatsapp_reply(request):
    body = json.loads(request.body)
    order = body["entry"][0]["changes"][0]["value"]["order"]["id"]
    requests.post(API, headers={"Idempotency-Key": order})
