"""A script the page runs before any of Gradio's.

Gradio adds launch's `head` to the page from its own script, after its modules have run, so a
script there comes too late to change what those modules read when they load (the page's
requestAnimationFrame, see page/idle_frames.py). FirstScript writes one script into the HTML of
the app's pages (the app's own and its routes', the class room's) at the top of their <head>, before
Gradio's module scripts.
"""
from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEAD = b"<head>"


def with_first_script(page: bytes, script: bytes) -> bytes:
    """`page` (HTML) with `script` right after its first <head>; as it was when it has none."""
    at = page.find(HEAD)
    return page if at < 0 else page[:at + len(HEAD)] + script + page[at + len(HEAD):]


class FirstScript:
    """ASGI middleware: the uncompressed HTML of a page at one of `pages` (paths, a trailing slash
    aside) gets `script` (JavaScript) first in its <head>. Placed inside static_cache.KeptResponses,
    which then keeps the page with it."""

    def __init__(self, app: ASGIApp, script: str, pages: tuple[str, ...] = ("/",)):
        self.app = app
        self.script = f"<script>{script}</script>".encode("utf-8")
        self.pages = {page.rstrip("/") for page in pages}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path", "").rstrip("/") not in self.pages:
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def insert(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = Headers(raw=list(message.get("headers", [])))
                html = headers.get("content-type", "").startswith("text/html")
                if message.get("status") == 200 and html and "content-encoding" not in headers:
                    start = message                        # sent with the whole body
                    return
            elif start is not None and message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                body = with_first_script(b"".join(chunks), self.script)
                headers = MutableHeaders(raw=list(start.get("headers", [])))
                headers["content-length"] = str(len(body))
                await send({**start, "headers": headers.raw})
                message = {"type": "http.response.body", "body": body}
            await send(message)

        await self.app(scope, receive, insert)
