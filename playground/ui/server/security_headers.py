"""Headers that keep what a page can load, and who can frame it, to the app's own origin.

Text from users, links and files is written literally wherever it meets markup (see
text/markup.py); this is the second line. Gradio's Markdown keeps `<img>` with any source and
`style` attributes, so a slip there could load a remote image (which logs every visitor's
address) or draw over the page. Under this policy images, media, fonts, style sheets and frames
come only from the app itself (Plotly's PNG export and Gradio's previews use data: and blob:
URLs; inline styles stay allowed, Gradio and Plotly use them), plugins are off, and only the
app itself may show the app in a frame; on a Space ($SPACE_HOST or $SPACE_ID, set by the platform)
also the Space's page on huggingface.co and the Space's own host, never another Space;
$PLAYGROUND_FRAME_ANCESTORS adds origins (a course site that embeds the app), separated by
spaces. Scripts and connections are left to Gradio, whose page runs inline scripts and event
code.
"""
from __future__ import annotations

import os
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SPACE_PAGE = "https://huggingface.co"      # a Space's page (huggingface.co/spaces/OWNER/NAME) frames its app
FRAME_ANCESTORS_ENV = "PLAYGROUND_FRAME_ANCESTORS"
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?")


def space_ancestors(environ=os.environ) -> tuple[str, ...]:
    """Who may frame the app where it runs as a Space: the Space's page and its own host (from
    $SPACE_HOST, else made from $SPACE_ID as the platform does: "owner/name" -> owner-name.hf.space);
    nothing off a Space. A CSP source cannot name a path, so the page is huggingface.co itself."""
    host = environ.get("SPACE_HOST", "").strip().lower()
    space_id = environ.get("SPACE_ID", "").strip().lower()
    if not host and space_id.count("/") == 1:
        host = re.sub(r"[^a-z0-9]+", "-", space_id.replace("/", "-")).strip("-") + ".hf.space"
    if not host or not _HOST.fullmatch(host):
        return (SPACE_PAGE,) if space_id else ()
    return SPACE_PAGE, f"https://{host}"


def content_security_policy(extra_ancestors: str = "", environ=os.environ) -> str:
    """The page's policy; `extra_ancestors`: more origins that may frame it, separated by spaces."""
    ancestors = " ".join(["'self'", *space_ancestors(environ), *extra_ancestors.split()])
    return "; ".join([
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        f"frame-ancestors {ancestors}",
    ])


def security_headers(extra_ancestors: str = "", environ=os.environ) -> list[tuple[bytes, bytes]]:
    """The headers every response carries."""
    return [
        (b"content-security-policy", content_security_policy(extra_ancestors, environ).encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),      # the address holds typed text: never sent to other sites
    ]


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets security_headers() (a header the response sets
    itself is kept)."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.headers = security_headers(os.environ.get(FRAME_ANCESTORS_ENV, ""))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                added = [(name, value) for name, value in self.headers if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
