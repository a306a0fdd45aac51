"""deep_link_view_s: from navigating to a link of the Attention tab to its linked view drawn.

A fresh browser context (no cache of the page) opens the link in Debian's chromium at 1280x720;
the clock stops when the enlarged head shows the linked layer and head. Median of the repeats,
after one unmeasured opening: the server's first page fills its caches (compressed scripts, the
linked view) once for every later student. The link and the floors below take turns, one opening
of each per round, so that a slower spell of a shared machine weighs on all of them alike.

Measured in the same run:
- deep_link_floor_s: the same clock for the smallest Gradio page that draws a figure from its
  load event (one gr.Plot, one heatmap, served by this process): what Gradio's page and Plotly
  cost by themselves in this browser on this machine; deep_link_ratio_to_floor sets the two side
  by side.
- deep_link_size_floor_s: the same clock for a Gradio page of the app's size that draws one figure:
  as many blocks and events (chained ones among them) as the app's page, the figure in the first
  tab and every other block in a second one. What Gradio's page costs at this size, before the app
  draws anything: Gradio's page code builds its tree of blocks twice and, for each block, looks
  through every event.
- page_open_server_cpu_s: the app's CPU per fresh page opened on the link (the page, its ~100
  files, the load event and the view), median.
"""
from __future__ import annotations

import json
import socket
import statistics
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from playground.bench.common import result

SUITE = "app"
GOAL_S = 3.0
RATIO_GOAL = 1.3          # a link opened in at most 1.3 x the time of Gradio's one-figure page
EVENTS_GOAL = 100         # events on the page: each costs every student's browser time when the page opens
REPEATS = {False: 5, True: 5}
WARM_UPS = 1
LINK = "?view=attention&model=copy&text=abcdefghij&kind=cross&layer=1&head=2&score=diagonal&lang=en"
DRAWN_TITLE = "layer 1, head 2"
HEAD_PLOT_ID = "attention-head-plot"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
LIMIT_MS = 120_000


@dataclass(frozen=True)
class PageSize:
    """How big a Gradio page is for its own page code: its blocks and its events."""
    blocks: int       # components and layout blocks
    events: int       # dependencies, the page's load among them
    chained: int      # of which run after another event (then, success, failure)


HEAD_TITLE_JS = """
() => {
  const g = document.querySelector('#%s .js-plotly-plot');
  return (g && g._fullLayout && g._fullLayout.title && g._fullLayout.title.text) || '';
}
""" % HEAD_PLOT_ID


def deep_link_lines(url: str, quick: bool, server_cpu: Callable[[], float | None] | None = None) -> list[dict]:
    """deep_link_view_s against the app at `url` (its copy model), with the floor of the same run
    and, given `server_cpu` (the app's CPU seconds so far), page_open_server_cpu_s."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run tests/install_chromium.sh to measure deep_link_view_s")
    from playwright.sync_api import sync_playwright

    size = page_size(url)
    floors = [floor_app(), floor_app(size)]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                link = url.rstrip("/") + "/" + LINK
                addresses = [link, *(floor.local_url for floor in floors)]
                for address in addresses:
                    opened(browser, address, WARM_UPS, None)
                times, cpu, floor_times, size_floor_times = [], [], [], []
                for _ in range(REPEATS[quick]):           # one opening of each page per round
                    seconds, cpu_seconds = opened(browser, link, 1, server_cpu)
                    times += seconds
                    cpu += cpu_seconds
                    floor_times += opened(browser, addresses[1], 1, None)[0]
                    size_floor_times += opened(browser, addresses[2], 1, None)[0]
            finally:
                browser.close()
    finally:
        for floor in floors:
            floor.close()
    view, floor_s = statistics.median(times), statistics.median(floor_times)
    lines = [result(SUITE, "deep_link_view_s", view, "s", GOAL_S, "lower", times_s=[round(t, 2) for t in times],
                    link=LINK),
             result(SUITE, "deep_link_floor_s", floor_s, "s", None, "lower",
                    times_s=[round(t, 2) for t in floor_times],
                    page="one gr.Plot drawn by the page's load event: Gradio's page and Plotly alone"),
             result(SUITE, "deep_link_ratio_to_floor", view / floor_s, "x", RATIO_GOAL, "lower"),
             result(SUITE, "page_events", size.events, "events", EVENTS_GOAL, "lower", blocks=size.blocks,
                    chained_events=size.chained),
             result(SUITE, "deep_link_size_floor_s", statistics.median(size_floor_times), "s", None, "lower",
                    times_s=[round(t, 2) for t in size_floor_times], blocks=size.blocks, events=size.events,
                    chained_events=size.chained,
                    page="a page of the app's size drawing one gr.Plot from its load event: Gradio's page alone")]
    if cpu:
        lines.append(result(SUITE, "page_open_server_cpu_s", statistics.median(cpu), "s", None, "lower",
                            cpu_s=[round(c, 2) for c in cpu]))
    return lines


def opened(browser, address: str, repeats: int,
           server_cpu: Callable[[], float | None] | None) -> tuple[list[float], list[float]]:
    """Seconds from navigating to `address` in a fresh context to the head plot's title drawn, per
    repeat, and the server's CPU seconds over each (when `server_cpu` reads them)."""
    times, cpu = [], []
    for _ in range(repeats):
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        before = server_cpu() if server_cpu else None
        start = time.perf_counter()
        page.goto(address)
        page.wait_for_function(f"() => ({HEAD_TITLE_JS})().includes('{DRAWN_TITLE}')", timeout=LIMIT_MS)
        times.append(time.perf_counter() - start)
        after = server_cpu() if server_cpu else None
        if before is not None and after is not None:
            cpu.append(after - before)
        context.close()
    return times, cpu


def page_size(url: str) -> PageSize:
    """The size of the Gradio page served at `url`, read from its config."""
    with urllib.request.urlopen(url.rstrip("/") + "/config", timeout=30) as response:
        return size_of(json.loads(response.read()))


def floor_app(size: PageSize | None = None):
    """floor_blocks(size), launched on a free localhost port. Its queue looks for work as often as the
    app's does: an idle Gradio server polls its queue every millisecond, a tenth of a core taken from
    the page being measured beside it."""
    from playground.ui.app import PROGRESS_POLL_SECONDS, QUEUE_POLL_SECONDS

    demo = floor_blocks(size)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo.queue().launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True,
                        ssr_mode=False)
    demo._queue.sleep_when_free = QUEUE_POLL_SECONDS
    demo._queue.progress_update_sleep_when_free = PROGRESS_POLL_SECONDS
    return demo


def floor_blocks(size: PageSize | None = None):
    """A Gradio page that draws a figure from its load event: one gr.Plot (the head plot's element
    id) whose heatmap has the linked title. Given `size`, the page has that many blocks and events:
    the figure in a first tab, rows of buttons in a second one, each event a click of one of them
    (or chained after one) that does nothing."""
    import gradio as gr
    import plotly.graph_objects as go

    def drawn():
        figure = go.Figure(go.Heatmap(z=[[(row * 7 + column * 3) % 10 for column in range(10)] for row in range(10)]))
        return figure.update_layout(title=DRAWN_TITLE)

    def nothing() -> None:
        return None

    with gr.Blocks() as demo:
        if size is None:
            plot = gr.Plot(elem_id=HEAD_PLOT_ID)
        else:
            with gr.Tabs():
                with gr.Tab("figure"):
                    plot = gr.Plot(elem_id=HEAD_PLOT_ID)
                with gr.Tab("blocks"):
                    buttons, left = [], size.blocks - 4        # the tabs, their two tabs and the plot
                    while left >= 2:
                        with gr.Row():
                            buttons.append(gr.Button("button"))
                        left -= 2
                    buttons += [gr.Button("button") for _ in range(left)]
            triggered = size.events - size.chained - 1          # the page's load is the last event
            events = [buttons[index % len(buttons)].click(nothing) for index in range(triggered)]
            for index in range(size.chained):
                events[index % triggered] = events[index % triggered].then(nothing)
        demo.load(drawn, None, plot)
    return demo


def size_of(config: dict) -> PageSize:
    """The size of the main page of a Gradio app with this config, as Gradio serves it: a page of its
    own (`demo.route`, such as the class room's) is sent only its own blocks and events."""
    main = config.get("page", {}).get("")
    components = main["components"] if main else config["components"]
    ids = set(main["dependencies"]) if main else None
    events = [event for event in config["dependencies"] if ids is None or event["id"] in ids]
    return PageSize(len(components), len(events),
                    sum(1 for event in events if event.get("trigger_after") is not None))
