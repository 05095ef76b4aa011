# Test support outside tests/: a base class of integration tests, which
# imports pytest. Skipped unless --tests, as a test file is.
import uuid

import pytest
import requests


class ChargeTestBase:
    @pytest.fixture
    def order(self):
        return {"id": "o1"}

    # case: walk/test-support silent
    def replay_charge(self, order):
        requests.post("https://p.example/charge", headers={"Idempotency-Key": str(uuid.uuid4())})
