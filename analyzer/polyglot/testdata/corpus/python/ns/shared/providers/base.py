# A namespace package (shared/ has no __init__.py), imported by its full
# name from a source root the service puts on its path.
class BaseProvider:
    def charge_plan(self, amount):
        raise NotImplementedError
