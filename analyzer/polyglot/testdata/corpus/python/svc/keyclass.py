"""A key made by a class: instances.py constructs it from another module."""
import hashlib
import hmac
import os


class DocKey:
    def __init__(self, document, name):
        self.document = document
        self.name = name

    def bare(self):
        return f"{self.document}:{hashlib.sha224(self.name.encode()).hexdigest()[:30]}"

    def keyed(self):
        return hmac.new(os.environ["IDEMPOTENCY_HMAC_KEY"].encode(), self.name.encode(), hashlib.sha256).hexdigest()
