"""Headers that keep what a page can load, and who can frame it, to the app's own origin.

Text from users, links and files is written literally wherever it meets markup (see
text/markup.py); this is the second line. Gradio's Markdown keeps `<img>` with any source and
`style` attributes, so a slip there could load a remote image (which logs every visitor's
address) or draw over the page. Under this policy images, media, fonts, style sheets and frames
come only from the app itself (Plotly's PNG export and Gradio's previews use data: and blob:
URLs; inline styles stay allowed, Gradio and Plotly use them), plugins are off, and only the
app, Hugging Face's Space page and its *.hf.space frames may show the app in a frame;
$PLAYGROUND_FRAME_ANCESTORS adds origins (a course site that embeds the app), separated by
spaces. Scripts and connections are left to Gradio, whose page runs inline scripts and event
code.
"""
from __future__ import annotations

import os

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SPACES_ANCESTORS = ("https://huggingface.co", "https://*.hf.space")
FRAME_ANCESTORS_ENV = "PLAYGROUND_FRAME_ANCESTORS"


def content_security_policy(extra_ancestors: str = "") -> str:
    """The page's policy; `extra_ancestors`: more origins that may frame it, separated by spaces."""
    ancestors = " ".join(["'self'", *SPACES_ANCESTORS, *extra_ancestors.split()])
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


def security_headers(extra_ancestors: str = "") -> list[tuple[bytes, bytes]]:
    """The headers every response carries."""
    return [
        (b"content-security-policy", content_security_policy(extra_ancestors).encode("latin-1")),
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
