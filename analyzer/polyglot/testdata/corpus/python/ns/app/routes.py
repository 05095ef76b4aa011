from fastapi import Depends, FastAPI

from shared.services.subscriptions import SubscriptionServiceABC

app = FastAPI()


@app.post("/buy")
async def buy(service: SubscriptionServiceABC = Depends()):
    return await service.buy(100)
