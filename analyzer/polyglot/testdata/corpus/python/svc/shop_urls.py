from django.urls import path

from . import shopviews

urlpatterns = [
    path("refunds/<str:charge_id>/", shopviews.refunds.refund_view, name="refund"),
]
