"""A key generator that tests the job type: a task that names its type
gets only that branch's key."""
import time
import uuid

import stripe
from celery import shared_task


def job_key(job_type, data):
    if job_type == "refund":
        return f"refund-{data['transaction_id']}"
    elif job_type in ("email", "sms"):
        return f"notify-{data['to']}-{int(time.time())}"
    return f"job-{uuid.uuid4()}"


# case: cases/if silent
@shared_task
def refund_task(data):
    stripe.Refund.create(payment_intent=data["pi"], idempotency_key=job_key("refund", data))


# case: cases/if finding
@shared_task
def payout_task(data):
    stripe.Transfer.create(amount=data["cents"], currency="usd", destination=data["acct"], idempotency_key=job_key("payout", data))  # want IDEM001
