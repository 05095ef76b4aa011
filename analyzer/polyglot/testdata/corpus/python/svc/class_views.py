# A class-based view is a route by where its base comes from: the framework
# routes each request to one of its methods, and nothing redelivers the
# request. The same method on a class of the project's own has its callers
# out of view.
import stripe
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.response import Response


class Service:
    """The project's own base class."""


# case: reach/class-based-view silent
class CartViewSet(viewsets.ModelViewSet):
    @action(detail=True, methods=["POST"])
    def pay(self, request, pk=None):
        item = stripe.InvoiceItem.create(customer=request.data["customer"], price=request.data["price"])
        return Response({"id": item.id})


# case: reach/class-based-view finding
class CartService(Service):
    def pay(self, customer, price):
        return stripe.InvoiceItem.create(customer=customer, price=price)  # want IDEM002


class BaseView(viewsets.ViewSet):
    """The project's own view base, on the framework's."""


# case: reach/class-based-view silent
class DonationViewSet(BaseView):
    def create(self, request):
        charge = stripe.Charge.create(customer=request.data["customer"], amount=request.data["amount"], currency="usd")
        return Response({"id": charge.id})


# Django's admin runs an action for a staff member's request (the changelist
# form posts the action's name): a route, by the decorator the admin module
# gives, or by the registration of the class, whatever its base (a
# third-party ModelAdmin the analysis cannot see).
from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin


# case: reach/admin-action silent
class InvoiceAdmin(admin.ModelAdmin):
    actions = ["draft_invoice"]

    def draft_invoice(self, request, queryset):
        for advertiser in queryset:
            stripe.Invoice.create(customer=advertiser.customer_id, auto_advance=False)


# case: reach/admin-action silent
@admin.register(Service)
class AdvertiserAdmin(SimpleHistoryAdmin):
    @admin.action(description="Create a draft invoice")
    def draft_invoice(self, request, queryset):
        for advertiser in queryset:
            stripe.InvoiceItem.create(customer=advertiser.customer_id, quantity=200, unit_amount=300, currency="usd")


# case: reach/admin-action finding
class AdvertiserBilling(Service):
    def draft_invoice(self, queryset):
        for advertiser in queryset:
            stripe.InvoiceItem.create(customer=advertiser.customer_id, quantity=200, unit_amount=300, currency="usd")  # want IDEM002
