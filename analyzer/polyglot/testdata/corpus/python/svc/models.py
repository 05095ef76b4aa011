class Intent:
    pass


class Payment:
    pass
