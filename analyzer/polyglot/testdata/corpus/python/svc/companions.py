# Companion rules: IDEM003 float, IDEM004 whole payload, IDEM005 bare
# digest, IDEM007 lookup not scoped by tenant.
import hashlib
import hmac
import json
import os

import requests

API = "https://api.provider.example/charges"
SECRET = os.environ["IDEMPOTENCY_HMAC_KEY"].encode()


# case: rule/IDEM003 finding
def float_key(order):
    total = float(order["total"])
    requests.post(API, headers={"Idempotency-Key": f"{order['id']}:{total:.2f}"})  # want IDEM003


# case: rule/IDEM003 silent
def cents_key(order):
    cents = int(round(float(order["total"]) * 100))
    requests.post(API, headers={"Idempotency-Key": f"{order['id']}:{cents}"})


# case: rule/IDEM004 finding
def payload_key(order):
    mac = hmac.new(SECRET, json.dumps(order).encode(), hashlib.sha256)
    requests.post(API, headers={"Idempotency-Key": mac.hexdigest()})  # want IDEM004


# case: rule/IDEM004 silent
def field_list_key(order):
    mac = hmac.new(SECRET, json.dumps({"v": 1, "order_id": order["id"], "cents": order["cents"]}).encode(), hashlib.sha256)
    requests.post(API, headers={"Idempotency-Key": mac.hexdigest()})


# case: rule/IDEM005 finding
def bare_digest_key(order):
    digest = hashlib.sha256(f"{order['id']}:{order['phone']}".encode()).hexdigest()
    requests.post(API, headers={"Idempotency-Key": digest})  # want IDEM005


# case: rule/IDEM005 silent
def checksum_not_key(order, blob):
    etag = hashlib.md5(blob).hexdigest()
    requests.post(API, headers={"If-None-Match": etag, "Idempotency-Key": order["id"]})


# case: rule/IDEM005 silent
def composite_key(bill):
    # The digest shortens one part of a readable composite key.
    digest = hashlib.sha256(",".join(sorted(bill["reservation_ids"])).encode()).hexdigest()[:12]
    requests.post(API, headers={"Idempotency-Key": f"{bill['owner_id']}-{bill['month']}-{digest}"})


# case: rule/IDEM007 finding
def unscoped_lookup(cur, key):
    cur.execute("SELECT response FROM idempotency_keys WHERE idempotency_key = %s", (key,))  # want IDEM007
    return cur.fetchone()


# case: rule/IDEM007 silent
def scoped_lookup(cur, tenant, key):
    cur.execute("SELECT response FROM idempotency_keys WHERE tenant_id = %s AND idempotency_key = %s", (tenant, key))
    return cur.fetchone()


# case: rule/IDEM007 finding
def claim_unscoped(cur, key):
    cur.execute("INSERT INTO idempotency_keys (key, response) VALUES (%s, NULL) ON CONFLICT (key) DO NOTHING", (key,))  # want IDEM007


# case: rule/IDEM007 silent
def claim_scoped(cur, tenant_id, key):
    cur.execute("INSERT INTO idempotency_keys (tenant_id, key, response) VALUES (%s, %s, NULL) ON CONFLICT (tenant_id, key) DO NOTHING", (tenant_id, key))


# case: rule/IDEM005-over-key silent
def credit_leg(evt):
    # A digest over the client's own key is as unguessable as that key: the
    # credit leg gets a key of its own that no one can recompute without it.
    leg_key = hashlib.sha256(f"{evt['idempotency_key']}:credit".encode()).hexdigest()
    requests.post(API, headers={"Idempotency-Key": leg_key})


# case: rule/IDEM005-over-key finding
def stored_digest(order, payment):
    # The digest is kept under a key's name and read back: still a digest of
    # guessable fields.
    payment.idempotency_key = hashlib.sha256(f"{order['id']}:{order['phone']}".encode()).hexdigest()
    requests.post(API, headers={"Idempotency-Key": payment.idempotency_key})  # want IDEM005


def run_sql(conn, sql, *params):
    """The project's wrapper of the driver: callers hand it their SQL."""
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()


# case: flow/sql-wrapper finding
def find_by_key_wrapped(conn, key):
    return run_sql(conn, "SELECT response FROM idempotency_keys WHERE idempotency_key = %s", key)  # want IDEM007


# case: flow/sql-wrapper silent
def find_scoped_wrapped(conn, tenant, key):
    return run_sql(conn, "SELECT response FROM idempotency_keys WHERE tenant_id = %s AND idempotency_key = %s", tenant, key)
