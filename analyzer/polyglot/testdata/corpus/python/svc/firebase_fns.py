# Cloud Functions for Firebase in Python: a callable answers a request; a
# scheduled or Firestore trigger is delivered at least once and retried.
import stripe
from firebase_functions import https_fn, scheduler_fn


# case: entry/firebase silent
@https_fn.on_call()
def refund_booking(req: https_fn.CallableRequest):
    return stripe.Refund.create(payment_intent=req.data["payment_intent"], amount=req.data["cents"])


# case: entry/firebase finding
@scheduler_fn.on_schedule(schedule="every monday 09:00")
def weekly_payouts(event):
    stripe.Transfer.create(amount=5000, currency="usd", destination="acct_1")  # want IDEM002
