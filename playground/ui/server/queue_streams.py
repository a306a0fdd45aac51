"""The queue's message streams each session holds open, so that an ended session's message box is let
go only once no stream reads it.

A page reads its events' messages from Gradio's `/queue/data` stream, which looks its session's
message box up by session hash while it runs; a stream cut off by its client (a tab closed or moved
on) deletes that entry itself and fails with `KeyError` in the server's log when the entry is already
gone. A closed tab ends both the stream and the heartbeat, in either order, and the heartbeat's end
runs the unload that forgets the session (session_end), so the session's queue entries are removed
after its last stream has closed (`after_last`).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

STREAM_PATH = "/queue/data"


class QueueStreams:
    """How many `/queue/data` streams each session has open, and what to do once the last one closes.
    Used on the server's event loop only."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._after_last: dict[str, Callable[[], None]] = {}

    def opened(self, session_hash: str) -> None:
        self._open[session_hash] += 1

    def closed(self, session_hash: str) -> None:
        self._open[session_hash] -= 1
        if self._open[session_hash] <= 0:
            del self._open[session_hash]
            action = self._after_last.pop(session_hash, None)
            if action is not None:
                action()

    def open_for(self, session_hash: str) -> int:
        """How many streams of the session are open."""
        return self._open.get(session_hash, 0)

    def after_last(self, session_hash: str, action: Callable[[], None]) -> None:
        """Run `action` now when the session has no stream open, else once its last one closes
        (replacing an action asked for before)."""
        if self.open_for(session_hash):
            self._after_last[session_hash] = action
        else:
            self._after_last.pop(session_hash, None)
            action()


def _session_of(scope: Scope) -> str | None:
    """The session hash a `/queue/data` request names, else None."""
    if scope["type"] != "http" or not scope.get("path", "").endswith(STREAM_PATH):
        return None
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("session_hash")
    return values[0] if values else None


class CountedQueueStreams:
    """ASGI middleware: each `/queue/data` stream is counted in the app's QueueStreams (the Gradio
    app's blocks' `queue_streams`) from its request until its response has ended, however it ends."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session_hash = _session_of(scope)
        get_blocks = getattr(scope.get("app"), "get_blocks", None) if session_hash else None
        streams = getattr(get_blocks(), "queue_streams", None) if get_blocks else None
        if streams is None:
            await self.app(scope, receive, send)
            return
        streams.opened(session_hash)
        try:
            await self.app(scope, receive, send)
        finally:
            streams.closed(session_hash)
