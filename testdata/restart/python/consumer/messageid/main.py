"""A RabbitMQ consumer in Python (pika, psycopg) whose key follows the
transport: it keys the charge on the AMQP message id. RabbitMQ's
redeliveries keep that id, so a crash is survived; but the same payment
published again (a producer's retry, a user pressing twice) comes with a
new message id, and is charged again."""
import json
import os
import urllib.request

import pika
import psycopg


def main():
    db = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    conn = pika.BlockingConnection(pika.URLParameters(os.environ["AMQP_URL"]))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=1)

    def on_message(channel, method, properties, body):
        msg = json.loads(body)
        key = properties.message_id  # the bug: the transport's identity, not the payment's
        db.execute(
            "insert into payments (idem_key, message_id, status) values (%s, %s, 'started') on conflict (idem_key) do nothing",
            (key, msg["message_id"]),
        )
        status = db.execute("select status from payments where idem_key = %s", (key,)).fetchone()[0]
        if status != "done":
            req = urllib.request.Request(
                os.environ["PROVIDER_URL"] + "/v1/charges",
                data=json.dumps(msg["payment"]).encode(),
                headers={"Idempotency-Key": key, "Content-Type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(req, timeout=10) as resp:
                charge = json.load(resp)["id"]
            db.execute("update payments set status = 'done', charge_id = %s, updated_at = now() where idem_key = %s", (charge, key))
        channel.basic_ack(delivery_tag=method.delivery_tag)

    ch.basic_consume(queue=os.environ["AMQP_QUEUE"], on_message_callback=on_message)
    ch.start_consuming()


if __name__ == "__main__":
    main()
