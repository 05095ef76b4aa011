# A client made on first use: the module's variable starts as None and a
# function declares it global and assigns the client, so the task that
# reads it calls Stripe; a task can run again.
import stripe
from celery import shared_task

_client = None
_label = None


def get_client():
    global _client
    if _client is None:
        _client = stripe.StripeClient("sk_test")
    return _client


def init_client():
    global _client
    _client = stripe.StripeClient("sk_test")


# case: sdkwrite/lazy-client finding
@shared_task
def pay_vendor(account, cents):
    init_client()
    _client.transfers.create(params={"amount": cents, "currency": "usd", "destination": account})  # want IDEM002


def set_label():
    # Not declared global: a local of this function, not the module's.
    _label = stripe.StripeClient("sk_test")
    return _label


# case: sdkwrite/lazy-client silent
@shared_task
def label_vendor(account):
    _label.transfers.create(params={"amount": 1, "currency": "usd", "destination": account})


# Two services with a method of one name that nothing calls: each name is
# mentioned twice, both times where it is defined, and both are dead code.
class VendorPayouts:
    def sweep_balance(self, account):
        # case: reach/same-name-uncalled silent
        stripe.Transfer.create(amount=100, currency="usd", destination=account)


class AffiliatePayouts:
    def sweep_balance(self, account):
        stripe.Transfer.create(amount=100, currency="usd", destination=account)


class PartnerPayouts:
    def settle_partner(self, account):
        # case: reach/same-name-uncalled finding
        stripe.Transfer.create(amount=100, currency="usd", destination=account)  # want IDEM002


def partner_job(account):
    PartnerPayouts().settle_partner(account)


@shared_task
def partner_task(account):
    partner_job(account)


# Two services with a method of one name; a task calls the first's. The
# call resolves to the first, so the second's name is mentioned only where
# it is defined: dead code.
class ShopRefunds:
    def refund_booking(self, charge):
        # case: reach/same-name-called-elsewhere finding
        stripe.Refund.create(charge=charge, amount=500)  # want IDEM002


class TeacherRefunds:
    def refund_booking(self, charge):
        # case: reach/same-name-called-elsewhere silent
        stripe.Refund.create(charge=charge)


@shared_task
def refund_task(charge):
    ShopRefunds().refund_booking(charge)
