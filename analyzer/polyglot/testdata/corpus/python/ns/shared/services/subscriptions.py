# The route holds the service by its abstract type, and the service a
# provider from a registry: each call names only a method, which the
# implementations in the class hierarchy answer.
from celery import shared_task

from shared.providers.stripe_provider import PROVIDERS


class SubscriptionServiceABC:
    async def buy(self, amount):
        raise NotImplementedError


class SubscriptionService(SubscriptionServiceABC):
    async def buy(self, amount):
        provider = PROVIDERS[self.provider_name]
        return provider.charge_plan(amount)


@shared_task
def renew_task(name, amount):
    PROVIDERS[name].renew(amount)
