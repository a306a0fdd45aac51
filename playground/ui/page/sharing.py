"""The address a view is shared by (Copy link, the QR code, a presenter's link).

On a Hugging Face Space (the platform sets SPACE_ID, "OWNER/NAME") it is the Space's page on
huggingface.co with the view's query: that page shows the app in a frame and passes its query on to
it, and only inside it does the browser send the app the visitor's Hugging Face identity (the
x-ip-token header a ZeroGPU call is charged by). The app's own address (OWNER-NAME.hf.space) opens
the view too, but every student opened there shares the Space's one small GPU pool.

Run locally, a view is shared by its own address; one on 127.0.0.1 or localhost is this computer's
only: its QR code says so, and where the server listens on every interface
(GRADIO_SERVER_NAME=0.0.0.0) the machine's network address stands in for it (playground.ui.page.qr).
"""
from __future__ import annotations

import ipaddress
import json
import os
import re
import socket
from urllib.parse import urlsplit, urlunsplit

SPACE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")
LOOPBACK_NAMES = ("localhost",)
EVERY_INTERFACE = ("0.0.0.0", "::")
PLATFORM_PARAMS = "__"       # the platform's own query parameters (__sign, __theme) start so: not shared


def space_page() -> str | None:
    """https://huggingface.co/spaces/OWNER/NAME on a Space, else None."""
    space = os.environ.get("SPACE_ID", "").strip()
    return f"https://huggingface.co/spaces/{space}" if SPACE_ID.fullmatch(space) else None


def share_js(js: str) -> str:
    """Event js with SHARED_ADDRESS() defined: the address the view on screen is shared by."""
    return js.replace("SHARED_ADDRESS()", f"({SHARED_ADDRESS_JS})({json.dumps(space_page() or '')})")


def shared(payload: str | None) -> tuple[str, str]:
    """(the view's link, the address it is shared by) from "<link>\\n<address>", what the share buttons' js
    sends (COPY_JS, qr.SHOW_JS)."""
    link, _, address = (payload or "").partition("\n")
    return link, address


SHARED_ADDRESS_JS = f"""(page) => {{
  if (!page) return location.href;
  const query = new URLSearchParams(location.search);
  for (const name of [...query.keys()]) if (name.startsWith('{PLATFORM_PARAMS}')) query.delete(name);
  const kept = query.toString();
  return page + (kept ? '?' + kept : '');
}}"""


def is_loopback(address: str) -> bool:
    """Whether `address` names this computer only (127.0.0.0/8, ::1, localhost)."""
    host = (urlsplit(address).hostname or "").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address(address: str) -> str | None:
    """`address` with this machine's network address for its host, when the server listens on every
    interface and the machine has one; None otherwise."""
    if os.environ.get("GRADIO_SERVER_NAME", "").strip() not in EVERY_INTERFACE:
        return None
    host = machine_ip()
    if host is None:
        return None
    parts = urlsplit(address)
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def machine_ip() -> str | None:
    """This machine's address on its network (the one its default route leaves by), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))        # no packet is sent: this only picks the route
            host = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(host).is_loopback else host
