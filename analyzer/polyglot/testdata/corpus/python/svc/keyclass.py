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


class Billing:
    """A wrapper that passes its keyword arguments on to the SDK
    (**params): the key is whichever the caller names."""

    # case: flow/kwargs-spread finding
    def refund(self, **params):
        import stripe

        # instances.refund_through_wrapper passes a uuid4 key: reported
        # here, where it is sent, with the caller's line among the hops.
        return stripe.Refund.create(**params)  # want IDEM001


billing = Billing()
