# Paystack over HTTP: initializing a transaction opens a checkout page the
# payer completes (nothing is charged); charging a saved authorization
# moves money.
import uuid

import httpx


class Paystack:
    BASE_URL = "https://api.paystack.co"

    # case: sink/provider-endpoint silent
    async def initialize(self, email, cents):
        async with httpx.AsyncClient() as client:
            return await client.post(
                f"{self.BASE_URL}/transaction/initialize",
                json={"email": email, "amount": cents},
                headers={"Idempotency-Key": f"txn_{uuid.uuid4().hex}"},
            )

    # case: sink/provider-endpoint finding
    async def charge_authorization(self, email, cents, authorization_code):
        async with httpx.AsyncClient() as client:
            return await client.post(
                f"{self.BASE_URL}/transaction/charge_authorization",
                json={"email": email, "amount": cents, "authorization_code": authorization_code},
                headers={"Idempotency-Key": f"txn_{uuid.uuid4().hex}"},  # want IDEM001
            )


async def renew(paystack: Paystack, email, cents, code):
    await paystack.initialize(email, cents)
    await paystack.charge_authorization(email, cents, code)
