"""The queue woken by its events (server.queue_wakeup), on a real Gradio server: events start when they
join and when a worker frees, not when a clock says, and an idle queue looks only now and then."""
import threading
import time

import gradio as gr
import pytest
from gradio_client import Client

from playground.ui.server import queue_wakeup
from playground.ui.server.queue_wakeup import QueueWakeup

RELEASE_SECONDS = 30              # no wait of these tests comes near: a missed wake-up shows as a timeout
IDLE_SECONDS = 1.0


class CountedWaits(QueueWakeup):
    """QueueWakeup counting the waits of its queue loop."""

    def __init__(self, queue):
        super().__init__(queue)
        self.waits = 0

    async def _wait(self, signal):
        if signal is self._work:
            self.waits += 1
        await super()._wait(signal)


@pytest.fixture
def server(monkeypatch):
    """A launched page with a quick event and one that holds its only worker until released; its queue
    loop falls back to looking only after RELEASE_SECONDS, so every start must come from a signal."""
    monkeypatch.setattr(queue_wakeup, "FALLBACK_SECONDS", RELEASE_SECONDS)
    started, release = threading.Event(), threading.Event()

    def held(value: str) -> str:
        started.set()
        release.wait(RELEASE_SECONDS)
        return value

    def echo(value: str) -> str:
        return value

    with gr.Blocks() as demo:
        gr.api(echo, api_name="echo", concurrency_limit=1, concurrency_id="one")
        gr.api(held, api_name="held", concurrency_limit=1, concurrency_id="one")
    demo.queue()
    wakeup = CountedWaits(demo._queue)
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", quiet=True, ssr_mode=False)
    try:
        yield demo.local_url, wakeup, started, release
    finally:
        release.set()
        demo.close()


def test_an_event_starts_when_it_joins_and_the_next_when_a_worker_frees(server):
    url, _, started, release = server
    client = Client(url, verbose=False, download_files=False, analytics_enabled=False)
    assert client.submit("a", api_name="/echo").result(timeout=RELEASE_SECONDS - 5) == "a"   # joined an idle queue
    holding = client.submit("b", api_name="/held")
    assert started.wait(RELEASE_SECONDS - 5)
    waiting = client.submit("c", api_name="/echo")                        # its group's one slot is taken
    time.sleep(0.5)
    assert not waiting.done()
    release.set()                                                         # the held event ends: the next starts
    assert holding.result(timeout=RELEASE_SECONDS - 5) == "b"
    assert waiting.result(timeout=RELEASE_SECONDS - 5) == "c"


def test_an_idle_queue_does_not_poll(server):
    url, wakeup, _, _ = server
    Client(url, verbose=False, download_files=False, analytics_enabled=False).predict("a", api_name="/echo")
    before = wakeup.waits
    time.sleep(IDLE_SECONDS)
    assert wakeup.waits - before <= 2                # Gradio's own loop looks 1,000 times a second


def test_a_page_launched_again_still_starts_its_events(monkeypatch):
    """A relaunch serves from another event loop: the loops' signals are made again in it."""
    monkeypatch.setattr(queue_wakeup, "FALLBACK_SECONDS", RELEASE_SECONDS)

    def echo(value: str) -> str:
        return value

    with gr.Blocks() as demo:
        gr.api(echo, api_name="echo")
    demo.queue()
    QueueWakeup(demo._queue)
    for launch in ("first", "second"):
        demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", quiet=True, ssr_mode=False)
        try:
            client = Client(demo.local_url, verbose=False, download_files=False, analytics_enabled=False)
            assert client.submit(launch, api_name="/echo").result(timeout=RELEASE_SECONDS - 5) == launch
        finally:
            demo.close()
