class Intent:
    pass


class Payment:
    pass


class Ledger:
    """The project's own ledger, in this process's database."""

    def save(self, cents, account):
        return (cents, account)
