import stripe

from shared.providers.base import BaseProvider


class StripeProvider(BaseProvider):
    def charge_plan(self, amount):
        # case: reach/abstract-dispatch silent
        return stripe.PaymentIntent.create(amount=amount, currency="usd", confirm=True)

    def renew(self, amount):
        # case: reach/abstract-dispatch finding
        return stripe.PaymentIntent.create(amount=amount, currency="usd", confirm=True)  # want IDEM002


class MockProvider(BaseProvider):
    def charge_plan(self, amount):
        return None


PROVIDERS = {"stripe": StripeProvider(), "mock": MockProvider()}
