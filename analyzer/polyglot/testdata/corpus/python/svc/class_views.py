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
