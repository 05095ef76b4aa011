"""A consumer that polls its broker itself: what it handles comes again
when a message is redelivered, though nothing registers it."""
import boto3
import stripe

sqs = boto3.client("sqs")


# case: reach/polling-consumer finding
def charge_order(order):
    stripe.Charge.create(amount=order["cents"], currency="usd", source=order["source"])  # want IDEM002


def poll_orders():
    while True:
        resp = sqs.receive_message(QueueUrl="orders", WaitTimeSeconds=10)
        for m in resp.get("Messages", []):
            charge_order(m["Body"])


# case: reach/polling-consumer silent
def charge_once(order):
    stripe.Charge.create(amount=order["cents"], currency="usd", source=order["source"])  # run by hand from main


def main():
    charge_once({"cents": 100, "source": "tok_visa"})
    poll_orders()


if __name__ == "__main__":
    main()
