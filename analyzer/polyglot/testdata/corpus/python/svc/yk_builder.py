# YooKassa's request builder: what the payment asks is set field by
# field. The service is reached through an object of unknown type (a
# registry's), by the method's name, and runs the SDK in an executor.
import asyncio
import uuid

from celery import shared_task
from yookassa import Payment
from yookassa.domain.request import PaymentRequestBuilder


class CheckoutService:
    async def create_link(self, amount):
        builder = PaymentRequestBuilder()
        builder.set_amount({"value": amount, "currency": "RUB"})
        builder.set_confirmation({"type": "redirect", "return_url": "https://shop.example/paid"})
        request = builder.build()
        key = str(uuid.uuid4())
        # case: sink/request-builder silent
        return Payment.create(request, key)

    async def charge_stored_method(self, amount, method_id, idempotence_key=None):
        builder = PaymentRequestBuilder()
        builder.set_amount({"value": amount, "currency": "RUB"}).set_payment_method_id(method_id)
        request = builder.build()
        if not idempotence_key:
            idempotence_key = str(uuid.uuid4())
        loop = asyncio.get_running_loop()
        # case: fallback/caller-by-name silent
        return await loop.run_in_executor(None, lambda: Payment.create(request, idempotence_key))

    async def charge_stored_again(self, amount, method_id, idempotence_key=None):
        builder = PaymentRequestBuilder()
        builder.set_amount({"value": amount, "currency": "RUB"})
        builder.set_payment_method_id(method_id)
        if not idempotence_key:
            idempotence_key = str(uuid.uuid4())
        loop = asyncio.get_running_loop()
        # case: fallback/caller-by-name finding
        return await loop.run_in_executor(None, lambda: Payment.create(builder.build(), idempotence_key))  # want IDEM001


SERVICES = {}


@shared_task
def renew(sub_id, period, amount, method_id):
    service = SERVICES["yookassa"]
    asyncio.run(service.charge_stored_method(amount, method_id, idempotence_key=f"renew-{sub_id}-{period}"))
    # case: sink/request-builder finding
    asyncio.run(service.charge_stored_again(amount, method_id))


@shared_task
def link(amount):
    asyncio.run(SERVICES["yookassa"].create_link(amount))
