# A helper imported inside the route, with a fallback when the module is
# missing: on the path where the import succeeds the name is the helper.
import time

from fastapi import FastAPI

app = FastAPI()


# case: flow/optional-import finding
@app.post("/charge-due")
async def charge_due(sub_id: int, method_id: str):
    try:
        from svc.yk_relative import charge_saved
    except ImportError:
        charge_saved = None
    if charge_saved is None:
        return
    await charge_saved(100, method_id, idempotency_key=f"sub-{sub_id}-{int(time.time())}")


# case: flow/optional-import silent
@app.post("/charge-due-stable")
async def charge_due_stable(sub_id: int, period: str, method_id: str):
    try:
        from svc.yk_relative import charge_saved
    except ImportError:
        charge_saved = None
    if charge_saved is None:
        return
    await charge_saved(100, method_id, idempotency_key=f"sub-{sub_id}-{period}")


@app.post("/link")
async def link(amount: int):
    from svc.yk_relative import create_link
    await create_link(amount)
