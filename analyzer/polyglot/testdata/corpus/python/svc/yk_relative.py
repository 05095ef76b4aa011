# YooKassa's API through a client made with its base URL: the request
# names only the path. A payment the payer confirms moves no money when
# created; one on a saved method charges at once.
import uuid

import httpx

YK_BASE = "https://api.yookassa.ru/v3"


async def create_link(amount, idempotence_key=None):
    idem = idempotence_key or str(uuid.uuid4())
    async with httpx.AsyncClient(base_url=YK_BASE) as client:
        # case: sink/provider-endpoint-relative silent
        await client.post("/payments", json={"amount": amount, "confirmation": {"type": "redirect"}}, headers={"Idempotence-Key": idem})


# case: sink/provider-endpoint-relative finding
async def charge_saved(amount, method_id, idempotency_key):
    async with httpx.AsyncClient(base_url=YK_BASE) as client:
        await client.post("/payments", json={"amount": amount, "payment_method_id": method_id}, headers={"Idempotence-Key": idempotency_key})  # want IDEM001
