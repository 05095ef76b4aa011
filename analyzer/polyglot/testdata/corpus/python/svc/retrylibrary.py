# A retry library runs the function it decorates again with the same
# arguments: a key drawn inside it is drawn per try (reported); one drawn by
# the route that calls it is sent by every try, as above a retry loop
# (silent).
import uuid

import requests
from flask import Flask, request
from tenacity import retry, stop_after_attempt
import backoff

app = Flask(__name__)
API = "https://api.provider.example/charges"


@retry(stop=stop_after_attempt(3))
def post_charge(cents, key):
    return requests.post(API, json={"cents": cents}, headers={"Idempotency-Key": key})


# case: pair/retry-library silent
@app.route("/library/pay", methods=["POST"])
def library_pay():
    key = str(uuid.uuid4())
    post_charge(request.json["cents"], key)
    return "", 201


@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)
def post_charge_each_try(cents):
    key = str(uuid.uuid4())
    # case: pair/retry-library finding
    return requests.post(API, json={"cents": cents}, headers={"Idempotency-Key": key})  # want IDEM001


@app.route("/library/pay-each-try", methods=["POST"])
def library_pay_each_try():
    post_charge_each_try(request.json["cents"])
    return "", 201
