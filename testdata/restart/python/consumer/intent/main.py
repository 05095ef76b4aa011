"""A correct RabbitMQ consumer in Python (pika, psycopg): it freezes the
payment's intent (tenant, action, the payment normalized, as canonical
JSON), derives the key from it with an HMAC, records it (insert ... on
conflict do nothing) and reads its status back before charging, and acks
by hand after the charge is recorded. Every delivery of the message, a
broker's redelivery after a crash or the same payment published again
under a new message id or spelled another way, asks for the same charge
with the same body."""
import decimal
import hashlib
import hmac
import json
import os
import re
import urllib.request

import pika
import psycopg


def main():
    secret = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()
    db = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    conn = pika.BlockingConnection(pika.URLParameters(os.environ["AMQP_URL"]))
    ch = conn.channel()
    ch.basic_qos(prefetch_count=1)

    def on_message(channel, method, properties, body):
        msg = json.loads(body)
        # mutant:normalize
        payment = normalized(msg["payment"])
        # mutant> payment = msg["payment"]  # as spelled
        # mutant:end
        # mutant:tenant-scope
        tenant = msg["tenant"]
        # mutant> tenant = ""  # the key leaves the tenant out: another tenant's same payment gets this one's key
        # mutant:end
        intent = json.dumps(
            {"tenant": tenant, "action": "pix.cobranca", "payment": payment},
            sort_keys=True,
            separators=(",", ":"),
        )
        key = hmac.new(secret, intent.encode(), hashlib.sha256).hexdigest()
        record = "insert into payments (idem_key, message_id, status) values (%s, %s, 'started')"
        # mutant:on-conflict
        record += " on conflict (idem_key) do nothing"
        # mutant:end
        db.execute(record, (key, msg["message_id"]))
        status = db.execute("select status from payments where idem_key = %s", (key,)).fetchone()[0]
        if status != "done":
            charge = post_charge(key, json.dumps(payment, sort_keys=True, separators=(",", ":")).encode())
            db.execute("update payments set status = 'done', charge_id = %s, updated_at = now() where idem_key = %s", (charge, key))
        channel.basic_ack(delivery_tag=method.delivery_tag)

    # An exception in on_message ends the process unacknowledged: the
    # broker redelivers to the next consumer.
    ch.basic_consume(queue=os.environ["AMQP_QUEUE"], on_message_callback=on_message)
    ch.start_consuming()


def normalized(payment):
    """The payment as one spelling: the amount as a decimal with two places,
    a CPF or CNPJ Pix key without punctuation, so the same payment written
    another way (123.456.789-09 or 12345678909, 150 or "150.00") is the same
    key and the same body."""
    out = dict(payment)
    out["valor"] = str(decimal.Decimal(str(payment["valor"])).quantize(decimal.Decimal("0.01")))
    chave = payment.get("chave_pix_destino")
    if isinstance(chave, str) and re.fullmatch(r"[0-9./ -]+", chave):
        out["chave_pix_destino"] = re.sub(r"[^0-9]", "", chave)
    return out


def post_charge(key, payment):
    req = urllib.request.Request(
        os.environ["PROVIDER_URL"] + "/v1/charges",
        data=payment,
        headers={
            # mutant:provider-key
            "Idempotency-Key": key,
            # mutant:end
            "Content-Type": "application/json",
        },
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)["id"]


if __name__ == "__main__":
    main()
