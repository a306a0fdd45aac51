"""Calling an ASGI app (a middleware) directly, as the server would, and keeping what it sends."""


async def sent_for(app, scope: dict) -> list[dict]:
    """The ASGI messages `app` sends for `scope`, a request with an empty body."""
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    await app(scope, receive, send)
    return sent
