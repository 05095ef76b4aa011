from celery import shared_task

from settle import transfer_share
from orders.views import BookingViewSet  # noqa: F401 (a root-relative package import)


@shared_task(bind=True, max_retries=3)
def settle_deposit_failure(self, booking_id):
    transfer_share(load_booking(booking_id))
