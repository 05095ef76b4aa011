# A DRF serializer's create and update run when a view saves it
# (serializer.save() in the view's perform_create), inside the request:
# nothing redelivers them, through the project's own serializer base too.
# The same charge in a Celery task is reported.
import stripe
from celery import shared_task
from rest_framework import serializers


class BaseSerializer(serializers.Serializer):
    """The project's own serializer base."""


# case: reach/serializer-save silent
class DonationSerializer(BaseSerializer):
    amount = serializers.IntegerField()

    def create(self, validated_data):
        charge = stripe.Charge.create(customer=validated_data["customer"], amount=validated_data["amount"], currency="usd")
        validated_data["charge_id"] = charge.id
        return validated_data


# case: reach/serializer-save finding
@shared_task
def charge_donation(customer, amount):
    stripe.Charge.create(customer=customer, amount=amount, currency="usd")  # want IDEM002
