# Scheduled jobs (APScheduler): the next run does again what a crashed one
# left half done; the same call from a one-off script's top level is not
# reported.
import stripe
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()


def sweep_payouts():
    # case: entry/scheduled finding
    stripe.Transfer.create(amount=100, currency="usd", destination="acct_1")  # want IDEM002


@scheduler.scheduled_job("interval", minutes=5)
def retry_refunds():
    # case: entry/scheduled finding
    stripe.Refund.create(charge="ch_1", amount=500)  # want IDEM002


def warm_up():
    # case: entry/scheduled silent
    stripe.Transfer.create(amount=1, currency="usd", destination="acct_2")


scheduler.add_job(sweep_payouts, "cron", hour="*")
warm_up()
scheduler.start()
