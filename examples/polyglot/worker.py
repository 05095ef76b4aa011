"""A payment worker in Python: it draws the idempotency key inside the
attempt, so a redelivered message charges again."""
import json
import uuid

import pika
import requests


def on_message(channel, method, properties, body):
    payment = json.loads(body)
    key = str(uuid.uuid4())  # a new key on every delivery
    requests.post(
        "https://api.provider.example/v1/charges",
        json=payment,
        headers={"Idempotency-Key": key},
        timeout=10,
    )
    channel.basic_ack(method.delivery_tag)


def main():
    conn = pika.BlockingConnection(pika.ConnectionParameters("localhost"))
    channel = conn.channel()
    channel.basic_consume(queue="payments", on_message_callback=on_message)
    channel.start_consuming()
