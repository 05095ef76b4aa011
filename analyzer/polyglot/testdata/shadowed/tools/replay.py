import json

import pika
import stripe  # no stripe distribution declared here: the project's stripe package


def on_refund(ch, method, properties, body):
    req = json.loads(body)
    stripe.Refund.create(payment_intent=req["payment_intent_id"], amount=req["amount"])
    ch.basic_ack(delivery_tag=method.delivery_tag)


def consume(channel):
    channel.basic_consume(queue="refund.request", on_message_callback=on_refund)
    channel.start_consuming()
