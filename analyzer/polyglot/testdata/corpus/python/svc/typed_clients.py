# A StripeClient handed in as a parameter declared of the SDK's type: the
# call on it is the SDK's, whether the caller built the client or not.
from celery import shared_task
from stripe import StripeClient

from .models import Ledger


# case: sink/typed-sdk-parameter finding
def retry_transfer(client: StripeClient, cents: int, account: str):
    client.transfers.create(params={"amount": cents, "currency": "usd", "destination": account})  # want IDEM002


# case: sink/typed-sdk-parameter silent
def retry_transfer_keyed(client: StripeClient, transfer_id: str, cents: int, account: str):
    client.transfers.create(
        params={"amount": cents, "currency": "usd", "destination": account},
        options={"idempotency_key": f"transfer-{transfer_id}"},
    )


# case: sink/typed-sdk-parameter silent
def record_transfer(ledger: Ledger, cents: int, account: str):
    # A project class: not the SDK, whatever its methods are named.
    ledger.save(cents, account)


@shared_task
def retry_pending(transfer_id, cents, account):
    client = StripeClient("sk_test")
    retry_transfer(client, cents, account)
    retry_transfer_keyed(client, transfer_id, cents, account)
    record_transfer(Ledger(), cents, account)
