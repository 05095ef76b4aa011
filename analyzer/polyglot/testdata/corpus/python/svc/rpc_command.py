"""A management command that consumes a broker: its callback hands each
message to a thread, which dispatches through a table of handlers. A
handler the consumer reaches runs again on a redelivery; one only the
command's handle() runs is run by hand."""
import threading

import pika
import stripe
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.commands = {"charge_user": self.charge_user}

    def handle(self, *args, **options):
        channel = pika.BlockingConnection().channel()
        channel.basic_consume(queue="billing_rpc", on_message_callback=self.callback)
        self.backfill()

    def callback(self, channel, method, properties, body):
        threading.Thread(target=self._callback, args=(channel, method, body)).start()

    def _callback(self, channel, method, body):
        kind, msg = body.split(b":", 1)
        self.commands[kind.decode()](msg)
        channel.basic_ack(method.delivery_tag)

    # case: reach/handler-table finding
    def charge_user(self, msg):
        stripe.PaymentIntent.create(amount=int(msg), currency="gbp", confirm=True, off_session=True)  # want IDEM002

    # case: reach/handler-table silent
    def backfill(self):
        # Run by hand, once, from handle().
        stripe.PaymentIntent.create(amount=100, currency="gbp", confirm=True, off_session=True)
