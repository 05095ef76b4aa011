# A provider behind an abstract base: the views hold the provider class in
# a mixin's attribute, so a call of its method names only the method. The
# base's declaration is what the one implementation overrides: the calls
# of that name are the implementation's callers.
import stripe
from celery import shared_task
from rest_framework import generics


class BaseRefunds:
    def refund_bill(self, charge):
        raise NotImplementedError

    def refund_late_fee(self, charge):
        raise NotImplementedError


class StripeRefunds(BaseRefunds):
    def refund_bill(self, charge):
        # case: reach/overridden-base silent
        stripe.Refund.create(charge=charge, amount=700)

    def refund_late_fee(self, charge):
        # case: reach/overridden-base finding
        stripe.Refund.create(charge=charge, amount=300)  # want IDEM002


class RefundMixin:
    refunds: BaseRefunds = StripeRefunds


class CancelView(generics.GenericAPIView, RefundMixin):
    def put(self, request, *args, **kwargs):
        self.refunds.refund_bill(self.refunds, request.data["charge"])


def refund_fees(provider, charge):
    provider.refund_late_fee(charge)


@shared_task
def late_fee_task(charge):
    refund_fees(RefundMixin.refunds, charge)
