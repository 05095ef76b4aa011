import uuid

PREFIX = "pay_"


def fresh_key():
    return PREFIX + uuid.uuid4().hex


def order_key(order_id):
    return PREFIX + order_id
