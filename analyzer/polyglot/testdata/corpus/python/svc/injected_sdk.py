"""A service handed a project subclass of an SDK's client (class
YooKassa(BaseYooKassa)), declared by type: the calls it makes on it are
the SDK's, except the methods the subclass defines."""
from aioyookassa.core.client import YooKassa as BaseYooKassa
from apscheduler.schedulers.asyncio import AsyncIOScheduler


class YooKassa(BaseYooKassa):
    async def note(self, text):
        return text


class PaymentService:
    def __init__(self, payment_client: YooKassa) -> None:
        self.payment_client = payment_client

    # case: sink/injected-sdk-subclass finding
    async def charge_saved(self, amount, method_id):
        return await self.payment_client.create_payment(amount=amount, payment_method_id=method_id, capture=True)  # want IDEM002

    # case: sink/injected-sdk-subclass silent
    async def checkout(self, amount):
        await self.payment_client.note("checkout")
        return await self.payment_client.create_payment(amount=amount, confirmation={"type": "redirect", "return_url": "https://x.example"})


async def renew_all(service: PaymentService):
    await service.charge_saved(100, "pm_1")
    await service.checkout(100)


scheduler = AsyncIOScheduler()
scheduler.add_job(renew_all, "interval", hours=1)
