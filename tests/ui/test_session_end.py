"""A session's entries in every per-session store, Gradio's and the app's, are gone once it ends: its
tab closed (Gradio's heartbeat ends, as when a browser tab closes) or it expired (a script's session,
which never held a heartbeat)."""
import datetime
import logging
import time

import httpx
import pytest
from gradio_client import Client

from playground.ui import create_app
from playground.ui.server.session_end import sweep

from .serving import serve

WAIT_S = 20.0
HEARTBEAT_S = "1"     # Gradio notices a closed tab at its next heartbeat (every 15 s unless told)


@pytest.fixture(scope="module")
def app(pretrained_dir):
    return create_app(pretrained_dir)


@pytest.fixture(scope="module")
def server(app):
    yield from serve(app)


@pytest.fixture(autouse=True)
def quick_heartbeat(monkeypatch):
    """Heartbeats every HEARTBEAT_S: a closed tab is noticed within a second instead of fifteen."""
    monkeypatch.setenv("GRADIO_HEARTBEAT_INTERVAL", HEARTBEAT_S)


def stores(app) -> dict:
    """Every store keyed by session hash: the app's workspaces, Gradio's states and queue and streams."""
    holder, queue = app.server_app.state_holder, app._queue
    return {"workspaces": app.workspaces, "gradio states": holder.session_data,
            "gradio states' last use": holder.time_last_used, "queue messages": queue.pending_messages_per_session,
            "queue event ids": queue.pending_event_ids_session, "media streams": app.pending_streams,
            "diff streams": app.pending_diff_streams}


class ServerLog(logging.Handler):
    """The errors the server logs (uvicorn's logger), with their exceptions."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.append(f"{record.getMessage()} {record.exc_info[1]!r}" if record.exc_info else record.getMessage())


def holding(app, session: str) -> list[str]:
    return [name for name, store in stores(app).items() if session in store]


def wait_until_forgotten(app, session: str) -> list[str]:
    deadline = time.monotonic() + WAIT_S
    while (left := holding(app, session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_a_closed_tab_leaves_nothing_behind_in_any_store(app, server):
    client = Client(server, verbose=False)
    session = client.session_hash
    client.predict("copy", "abc", "", "cross", 0, 0, False, "diagonal", "en", api_name="/attention")
    client.predict("echo me", api_name="/echo")
    assert {"workspaces", "gradio states", "gradio states' last use", "queue messages",
            "queue event ids"} <= set(holding(app, session))
    other = Client(server, verbose=False)                  # another session is left as it is
    other.predict("copy", "abc", "", "cross", 0, 0, False, "diagonal", "en", api_name="/attention")
    client.close()                                         # its heartbeat ends: Gradio runs the unload event
    assert wait_until_forgotten(app, session) == []
    assert other.session_hash in app.workspaces and other.session_hash in app.server_app.state_holder
    other.close()


def test_a_script_session_without_a_heartbeat_is_forgotten_once_it_expires(app, server):
    session = "script-session"
    api = f"{server}gradio_api/"
    fn_index = next(i for i, fn in app.fns.items() if fn.api_name == "echo")
    with httpx.Client(timeout=30) as http:
        joined = http.post(api + "queue/join", json={"data": ["hi"], "fn_index": fn_index, "session_hash": session})
        joined.raise_for_status()
        with http.stream("GET", api + "queue/data", params={"session_hash": session}) as stream:
            for line in stream.iter_lines():
                if "process_completed" in line:
                    break
    assert "queue event ids" in holding(app, session) and "gradio states" in holding(app, session)
    sweep(app, app.workspaces)                              # still in use: kept
    assert "gradio states" in holding(app, session)
    later = datetime.datetime.now() + datetime.timedelta(seconds=app.workspaces.idle_seconds + 1)
    deadline = time.monotonic() + WAIT_S
    while holding(app, session) and time.monotonic() < deadline:    # the queue lets go of its finished
        sweep(app, app.workspaces, now=later)               # event just after the reply; unused since
        time.sleep(0.1)
    assert holding(app, session) == []


def test_a_tab_closed_with_its_message_stream_open_lets_go_of_it_after_the_stream_and_logs_no_error(
        app, server):
    """A closed tab ends its heartbeat and its `/queue/data` stream in either order: when the heartbeat
    ends first, the session's message box stays until its stream has closed (Gradio's stream deletes it
    itself then, and failed with KeyError when it was gone), and nothing of the session stays after."""
    client = Client(server, verbose=False)
    session = client.session_hash
    client.predict("echo me", api_name="/echo")
    api = f"{server}gradio_api/"
    server_log = ServerLog()
    logging.getLogger("uvicorn.error").addHandler(server_log)
    with httpx.Client(timeout=30) as http:
        with http.stream("GET", api + "queue/data", params={"session_hash": session}):
            deadline = time.monotonic() + WAIT_S
            while app.queue_streams.open_for(session) == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert app.queue_streams.open_for(session) == 1
            client.close()                                  # the heartbeat ends first: the unload runs
            deadline = time.monotonic() + WAIT_S
            while "gradio states" in holding(app, session) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert "gradio states" not in holding(app, session)
            assert "queue messages" in holding(app, session)        # its stream still reads it
    deadline = time.monotonic() + WAIT_S                   # the connection closed: so does its stream
    while app.queue_streams.open_for(session) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert wait_until_forgotten(app, session) == []                # and the rest is let go of
    time.sleep(0.5)                                        # a failed stream's log follows its end
    logging.getLogger("uvicorn.error").removeHandler(server_log)
    assert server_log.errors == []
