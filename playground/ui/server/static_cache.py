"""What every student's browser asks for alike is built and compressed once per process.

Gradio's scripts and styles, whose file names carry a hash of their content, come with an ETag
and no Cache-Control, so a browser asks again for each one on a reload; and Gradio's compression
middleware compresses every response again, in the server's event loop: ~6.8 MB for one fresh
page, ~0.5 s of the server's CPU on a 2-core machine, during which the page's other requests
wait. The page itself (~1 MB, most of it the configuration of ~500 blocks) is rebuilt for every
request as well, the same each time for the same address.

Here the first request for a hashed file, or for the page at one address, is answered by Gradio,
compressed in a worker thread and kept (bounded in bytes); every later page load of every
student is sent those bytes. A hashed file is also kept by the browser for a year: a file of
another content has another name, so it is never stale. The page is still asked for each time
(the app never changes its blocks once launched, and has no login, so the page depends only on
the address it is asked at). Gradio's middleware passes on a response that already says its
encoding as it is.
"""
from __future__ import annotations

import gzip
import re
from urllib.parse import parse_qs

import anyio.to_thread
import brotli
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .bytes_lru import BytesLRU

HASHED_FILE = re.compile(r"/assets/[^/]+-[A-Za-z0-9_-]{8,}\.(?:js|css)$")
PAGE = "/"
# what Gradio's page depends on besides its path: the address it is asked at (see
# gradio.route_utils.get_request_origin) and query parameters Gradio reads on the server
ADDRESS_HEADERS = ("host", "x-forwarded-host", "x-forwarded-proto", "x-gradio-server")
SERVER_READ_QUERY = {"page", "deep_link", "all_endpoints"}
KEPT_FOR_A_YEAR = (b"cache-control", b"public, max-age=31536000, immutable")
KEPT_BYTES = 32 * 2**20              # all of Gradio's frontend (17 MB of scripts and styles) is ~5 MB compressed
BROTLI_QUALITY = 5                   # Gradio's middleware uses 4 on every request; once, a little more


def accepted_encoding(accept_encoding: str) -> str | None:
    """"br" or "gzip" (in that order of preference) when the request accepts it, else None."""
    offered = {part.split(";")[0].strip().lower() for part in accept_encoding.split(",")}
    return next((encoding for encoding in ("br", "gzip") if encoding in offered), None)


def compressed(body: bytes, encoding: str) -> bytes:
    """`body` compressed as `encoding` ("br" or "gzip")."""
    if encoding == "br":
        return brotli.compress(body, mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=6)


def kept_for(scope: Scope) -> str | None:
    """What a request asks for that is kept ("file" for a hashed file, "page" for the page), or None."""
    path = scope.get("path", "")
    if HASHED_FILE.search(path):
        return "file"
    if path == PAGE and not SERVER_READ_QUERY & set(parse_qs(scope.get("query_string", b"").decode("latin-1"))):
        return "page"
    return None


class KeptResponses:
    """ASGI middleware: a successful response for a hashed file or for the page is compressed once
    and kept; a hashed file also says the browser may keep it."""

    def __init__(self, app: ASGIApp, max_bytes: int = KEPT_BYTES):
        self.app = app
        self.kept = BytesLRU(max_bytes, "compressed file cache")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        kind = kept_for(scope)
        if kind is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        encoding = accepted_encoding(headers.get("accept-encoding", ""))
        if encoding is None or "range" in headers or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, self.kept_for_a_year(send) if kind == "file" else send)
            return
        key = (kind, scope.get("root_path", ""), scope.get("path", ""), encoding)
        if kind == "page":
            key += (scope.get("scheme"), *(headers.get(name) for name in ADDRESS_HEADERS))
        kept = self.kept.get(key)
        if kept is None:
            kept = await self.compress_response(scope, receive, send, encoding, kind == "file")
            if kept is None:
                return                                  # not a 200: already sent as it came
            if not any(name.lower() == b"set-cookie" for name, _ in kept[0]):    # nothing of one browser's own
                self.kept.put(key, kept, len(kept[1]))
        await self.send_kept(kept, scope.get("method") == "HEAD", send)

    @staticmethod
    def kept_for_a_year(send: Send) -> Send:
        """`send` adding the one-year Cache-Control to a 200 response."""
        async def send_kept(message: Message) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 200:
                message = {**message, "headers": [*message.get("headers", []), KEPT_FOR_A_YEAR]}
            await send(message)
        return send_kept

    async def compress_response(self, scope: Scope, receive: Receive, send: Send, encoding: str,
                                browser_keeps: bool) -> tuple[list, bytes] | None:
        """(headers, compressed body) of the app's 200 response (with the one-year Cache-Control when
        `browser_keeps`), or None after passing any other response (a 404, a 304) on to `send`."""
        start: Message | None = None
        chunks: list[bytes] = []
        passed_on = False

        async def capture(message: Message) -> None:
            nonlocal start, passed_on
            if message["type"] == "http.response.start":
                start = message
                passed_on = message.get("status") != 200
                if passed_on:
                    await send(message)
            elif passed_on:
                await send(message)
            else:
                chunks.append(message.get("body", b""))

        await self.app({**scope, "method": "GET"}, receive, capture)
        if passed_on or start is None:
            return None
        body = await anyio.to_thread.run_sync(compressed, b"".join(chunks), encoding)
        dropped = {b"content-length", b"content-encoding", b"vary", b"cache-control"}
        headers = [(name, value) for name, value in start.get("headers", []) if name.lower() not in dropped]
        headers += [(b"content-encoding", encoding.encode()), (b"vary", b"Accept-Encoding")]
        return headers + [KEPT_FOR_A_YEAR] if browser_keeps else headers, body

    @staticmethod
    async def send_kept(kept: tuple[list, bytes], head_only: bool, send: Send) -> None:
        headers, body = kept
        await send({"type": "http.response.start", "status": 200,
                    "headers": [*headers, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": b"" if head_only else body})
