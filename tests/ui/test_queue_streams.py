"""Each session's open `/queue/data` streams are counted however a stream ends, and what waits for the
last one runs once it has closed, or at once when none is open."""
import asyncio
from types import SimpleNamespace

import pytest

from playground.ui.server.queue_streams import CountedQueueStreams, QueueStreams


def stream_scope(streams: QueueStreams, path: str, query: bytes) -> dict:
    app = SimpleNamespace(get_blocks=lambda: SimpleNamespace(queue_streams=streams))
    return {"type": "http", "path": path, "query_string": query, "app": app}


def test_a_stream_is_counted_while_it_runs_and_after_it_fails_no_more():
    streams, seen, ran = QueueStreams(), [], []

    async def failing_stream(scope, receive, send):
        seen.append(streams.open_for("abc"))
        raise asyncio.CancelledError                      # its client went away

    middleware = CountedQueueStreams(failing_stream)
    streams.after_last("abc", lambda: ran.append("now"))   # nothing open: runs at once
    assert ran == ["now"]
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(middleware(stream_scope(streams, "/gradio_api/queue/data", b"session_hash=abc"), None, None))
    assert seen == [1] and streams.open_for("abc") == 0


def test_what_waits_for_the_last_stream_runs_when_it_closes_once():
    streams, ran = QueueStreams(), []
    streams.opened("abc")
    streams.opened("abc")
    streams.after_last("abc", lambda: ran.append("first"))
    streams.after_last("abc", lambda: ran.append("second"))    # replaces the one asked for before
    streams.closed("abc")
    assert ran == []
    streams.closed("abc")
    assert ran == ["second"] and streams.open_for("abc") == 0
    streams.opened("abc")
    streams.closed("abc")
    assert ran == ["second"]


def test_other_requests_pass_uncounted():
    streams, seen = QueueStreams(), []

    async def inner(scope, receive, send):
        seen.append(streams.open_for("abc"))

    middleware = CountedQueueStreams(inner)
    for path, query in (("/gradio_api/queue/join", b"session_hash=abc"), ("/gradio_api/queue/data", b""),
                        ("/", b"session_hash=abc")):
        asyncio.run(middleware(stream_scope(streams, path, query), None, None))
    assert seen == [0, 0, 0]
