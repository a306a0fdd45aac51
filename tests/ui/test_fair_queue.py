"""The fair queue: one session, one client or one kind of work cannot fill Gradio's queue for everyone.

Events are pushed into the real app's queue with no server running, so they stay waiting. A session's
first event costs Gradio a copy of the page's state (about 0.1 s), so floods come from a few sessions."""
import asyncio

import fastapi
import pytest
from gradio.data_classes import PredictBodyInternal

from playground.ui import create_app
from playground.ui.server import fair_queue
from playground.ui.server.fair_queue import FairQueue

SCHOOL, FLOODER, HOME = "203.0.113.7", "198.51.100.9", "192.0.2.44"


@pytest.fixture(scope="module")
def built(pretrained_dir):
    return create_app(pretrained_dir)


@pytest.fixture()
def app(built):
    built.fair_queue.trust_forwarded = True             # as on a Space, behind the platform's proxy
    yield built
    for waiting in built._queue.event_queue_per_concurrency_id.values():
        waiting.queue.clear()
    for store in (built._queue.pending_event_ids_session, built._queue.event_ids_to_events,
                  built._queue.pending_messages_per_session):
        store.clear()


def request(address: str, proxy: str = "10.0.0.2", lang: str = "en") -> fastapi.Request:
    return fastapi.Request({"type": "http", "method": "POST", "path": "/gradio_api/queue/join", "query_string": b"",
                            "client": (proxy, 5000), "headers": [(b"x-forwarded-for", f"6.6.6.6, {address}".encode()),
                                                                (b"accept-language", lang.encode())]})


def fn_index(app, api_name: str) -> int:
    return next(i for i, fn in app.fns.items() if fn.api_name == api_name)


def join(app, session: str, address: str, api_name: str = "echo", lang: str = "en"):
    """Push one event; its event id, or the HTTPException that refused it."""
    incoming = request(address, lang=lang)
    body = PredictBodyInternal(session_hash=session, fn_index=fn_index(app, api_name), data=["x"], request=incoming)
    try:
        success, event_id, _ = asyncio.run(app._queue.push(body=body, request=incoming, username=None))
    except fastapi.HTTPException as refused:
        return refused
    assert success
    return event_id


def line(app, group: str = "light") -> list:
    return app._queue.event_queue_per_concurrency_id[group].queue


def test_one_session_waits_for_its_own_events_and_is_told_why(app):
    for _ in range(fair_queue.MAX_WAITING_PER_SESSION):
        assert isinstance(join(app, "eager", SCHOOL), str)
    refused = join(app, "eager", SCHOOL)
    assert refused.status_code == 429 and f"{fair_queue.MAX_WAITING_PER_SESSION} actions waiting" in refused.detail
    assert "排队" in join(app, "eager", SCHOOL, lang="zh-CN").detail        # in the session's language
    assert isinstance(join(app, "classmate", SCHOOL), str)                 # the rest of the class is not


def test_replies_a_script_never_reads_count_until_it_reads_them(app):
    for _ in range(fair_queue.MAX_WAITING_PER_SESSION):
        join(app, "fire-and-forget", SCHOOL)
    line(app).clear()                                      # all run and done; their replies wait unread
    assert join(app, "fire-and-forget", SCHOOL).status_code == 429
    app._queue.pending_event_ids_session["fire-and-forget"].clear()     # read at last
    assert isinstance(join(app, "fire-and-forget", SCHOOL), str)


def test_a_flooding_client_is_capped_and_a_student_goes_ahead_of_its_backlog(app):
    per_session = fair_queue.MAX_WAITING_PER_SESSION - 1                 # bots that each stay under their own cap
    joined = [join(app, f"bot-{i // per_session}", FLOODER) for i in range(fair_queue.MAX_WAITING_PER_CLIENT + 20)]
    refused = [r for r in joined if not isinstance(r, str)]
    assert len(refused) == 20 and all(r.status_code == 429 and "network" in r.detail for r in refused)
    student = join(app, "student", HOME)
    assert isinstance(student, str)
    waiting = [event._id for event in line(app)]
    assert waiting.index(student) <= 1                     # behind the flooder's first event only


def test_a_free_worker_takes_the_first_event_of_a_client_with_none_running(app):
    flood = [join(app, f"bot-{i}", FLOODER) for i in range(3)]
    student = join(app, "student", HOME)
    running, waiting = app._queue.event_ids_to_events[flood[0]], app._queue.event_ids_to_events[student]
    line(app).remove(running)
    line(app).remove(waiting)
    line(app).append(waiting)                              # last in line, behind the flooder's backlog
    app._queue.active_jobs = [[running], None]              # the flooder holds a worker
    try:
        events, _, group = app._queue.get_events()
    finally:
        app._queue.active_jobs = []
    assert group == "light" and [e._id for e in events] == [student]


def test_heavy_work_that_fills_its_line_never_refuses_a_light_event(app):
    limit = fair_queue.GROUP_LIMITS["heavy"]
    per_client = fair_queue.MAX_WAITING_PER_SESSION
    results = [join(app, f"runner-{i // per_client}", f"192.0.2.{i // per_client}", api_name="generate_run")
               for i in range(limit + 1)]
    assert all(isinstance(r, str) for r in results[:limit])
    assert results[-1].status_code == 429 and "of this kind" in results[-1].detail
    assert isinstance(join(app, "reader", HOME, api_name="echo"), str)


def test_a_forwarded_address_is_trusted_only_behind_a_proxy(app):
    app.fair_queue.trust_forwarded = False                 # off a Space: the connection's address
    assert fair_queue.client_address(request(FLOODER), False) == "10.0.0.2"
    assert fair_queue.client_address(request(FLOODER), True) == FLOODER   # the proxy's entry, not the client's
    assert fair_queue.trusts_forwarded_for() is False
