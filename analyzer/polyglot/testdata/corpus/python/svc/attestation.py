# Service code whose name holds "test" and that imports no test framework:
# linted.
import uuid

import requests


# case: walk/test-support finding
def attest_charge(order):
    requests.post("https://p.example/attest", headers={"Idempotency-Key": str(uuid.uuid4())})  # want IDEM001
