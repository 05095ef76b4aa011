"""A method that calls another method of its class on self: the value flows
through the call as through any project function."""
import uuid

import requests
from celery import shared_task


class ProviderAPI:
    def __init__(self, base_url):
        self.base_url = base_url

    def auth_headers(self):
        # Reported here, where the key is written into the headers sent.
        return {"Idempotence-Key": str(uuid.uuid4()), "Authorization": "Basic x"}  # want IDEM001

    def keyed_headers(self, invoice_id):
        return {"Idempotence-Key": f"invoice-{invoice_id}", "Authorization": "Basic x"}

    # case: flow/self-method finding
    def charge_saved_card(self, invoice_id, method_id):
        headers = self.auth_headers()
        requests.post(self.base_url + "/payments", json={"payment_method_id": method_id}, headers=headers)

    # case: flow/self-method silent
    def charge_saved_card_keyed(self, invoice_id, method_id):
        headers = self.keyed_headers(invoice_id)
        requests.post(self.base_url + "/payments", json={"payment_method_id": method_id}, headers=headers)


@shared_task
def renew(invoice_id, method_id):
    api = ProviderAPI("https://api.provider.example")
    api.charge_saved_card(invoice_id, method_id)
    api.charge_saved_card_keyed(invoice_id, method_id)
