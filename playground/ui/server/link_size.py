"""Links longer than the app reads, refused with the app's own message.

An address of 64 KiB or more made Gradio's page route fail inside httpx ("URL too long"), answering
HTTP 500 with a traceback in the log. No link the app writes comes near MAX_LINK_BYTES (a view's form
holds short values; typed text is capped at a few hundred characters), so a longer one was cut,
pasted twice or crafted: it gets HTTP 414 and a short page in the browser's language saying so, with
a link to the app without it. (Far longer request lines are refused by the HTTP server itself, 400.)
"""
from __future__ import annotations

import html

from starlette.types import ASGIApp, Receive, Scope, Send

from ..text.i18n import language_from_accept, text

MAX_LINK_BYTES = 32 * 1024          # path and query together
TOO_LONG = 414                      # URI Too Long


def refusal_page(size: int, lang: str) -> bytes:
    """The page shown for a link of `size` bytes (the message's values are numbers: nothing to escape)."""
    message = text(lang, "link_too_long", size=size // 1024, limit=MAX_LINK_BYTES // 1024)
    return (f'<!doctype html><html lang="{html.escape(lang)}"><meta charset="utf-8">'
            "<title>Transformer Playground</title>"
            f'<p>{html.escape(message)}</p><p><a href="/">{html.escape(text(lang, "link_too_long_open"))}</a></p>'
            "</html>").encode("utf-8")


class LinkSize:
    """ASGI middleware: an HTTP request whose path and query exceed MAX_LINK_BYTES gets refusal_page."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        size = len(scope.get("raw_path") or scope.get("path", "").encode()) + len(scope.get("query_string", b""))
        if scope["type"] != "http" or size <= MAX_LINK_BYTES:
            await self.app(scope, receive, send)
            return
        accept = next((value.decode("latin-1") for name, value in scope.get("headers", [])
                       if name.lower() == b"accept-language"), None)
        body = refusal_page(size, language_from_accept(accept))
        await send({"type": "http.response.start", "status": TOO_LONG,
                    "headers": [(b"content-type", b"text/html; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
