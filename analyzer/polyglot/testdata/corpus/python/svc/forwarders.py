# A call handed to what runs it: asyncio.to_thread(fn, …) and the
# project's own wrapper around it call fn with the arguments that follow,
# so the SDK call is judged as if written here.
import asyncio
from typing import Any, Callable

import stripe
from celery import shared_task


async def _stripe_call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(fn, *args, **kwargs)


# case: flow/forwarder finding
@shared_task
async def pay_out(payout_id, account, cents):
    await asyncio.to_thread(stripe.Transfer.create, amount=cents, currency="usd", destination=account)  # want IDEM002


# case: flow/forwarder silent
@shared_task
async def pay_out_keyed(payout_id, account, cents):
    await asyncio.to_thread(stripe.Transfer.create, amount=cents, currency="usd", destination=account, idempotency_key=f"payout-{payout_id}")


# case: flow/forwarder finding
@shared_task
async def refund_through_wrapper(charge, cents):
    await _stripe_call(stripe.Refund.create, charge=charge, amount=cents)  # want IDEM002


async def charge_saved_method(*, customer_id, amount_cents, idempotency_key=None):
    # The key goes in only when the caller hands one: dict(…) is the
    # kwargs' own literal.
    create_kwargs: dict = dict(customer=customer_id, amount=amount_cents, currency="usd", confirm=True, off_session=True)
    if idempotency_key:
        create_kwargs["idempotency_key"] = idempotency_key
    return await _stripe_call(stripe.PaymentIntent.create, **create_kwargs)


# case: flow/forwarder finding
@shared_task
async def renew(org_id, customer, cents):
    await charge_saved_method(customer_id=customer, amount_cents=cents)  # want IDEM002


# case: flow/forwarder silent
@shared_task
async def renew_keyed(org_id, customer, cents):
    await charge_saved_method(customer_id=customer, amount_cents=cents, idempotency_key=f"renew-{org_id}")
