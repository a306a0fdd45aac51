"""deep_link_view_s: from navigating to a link of the Attention tab to its linked view drawn.

A fresh browser context (no cache of the page) opens the link in Debian's chromium at 1280x720;
the clock stops when the enlarged head shows the linked layer and head. Median of the repeats,
after one unmeasured opening: the server's first page fills its caches (compressed scripts, the
linked view) once for every later student.

Measured in the same run:
- deep_link_floor_s: the same clock for the smallest Gradio page that draws a figure from its
  load event (one gr.Plot, one heatmap, served by this process): what Gradio's page and Plotly
  cost by themselves in this browser on this machine; deep_link_ratio_to_floor sets the two side
  by side.
- page_open_server_cpu_s: the app's CPU per fresh page opened on the link (the page, its ~100
  files, the load event and the view), median.
"""
from __future__ import annotations

import socket
import statistics
import time
from pathlib import Path
from typing import Callable

from playground.bench.common import result

SUITE = "app"
GOAL_S = 3.0
REPEATS = {False: 5, True: 5}
WARM_UPS = 1
LINK = "?view=attention&model=copy&text=abcdefghij&kind=cross&layer=1&head=2&score=diagonal&lang=en"
DRAWN_TITLE = "layer 1, head 2"
HEAD_PLOT_ID = "attention-head-plot"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
LIMIT_MS = 120_000

_HEAD_TITLE_JS = """
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

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            link = url.rstrip("/") + "/" + LINK
            opened(browser, link, WARM_UPS, None)
            times, cpu = opened(browser, link, REPEATS[quick], server_cpu)
            floor = floor_app()
            try:
                opened(browser, floor.local_url, WARM_UPS, None)
                floor_times, _ = opened(browser, floor.local_url, REPEATS[quick], None)
            finally:
                floor.close()
        finally:
            browser.close()
    view, floor_s = statistics.median(times), statistics.median(floor_times)
    lines = [result(SUITE, "deep_link_view_s", view, "s", GOAL_S, "lower", times_s=[round(t, 2) for t in times],
                    link=LINK),
             result(SUITE, "deep_link_floor_s", floor_s, "s", None, "lower",
                    times_s=[round(t, 2) for t in floor_times],
                    page="one gr.Plot drawn by the page's load event: Gradio's page and Plotly alone"),
             result(SUITE, "deep_link_ratio_to_floor", view / floor_s, "x", None, "lower")]
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
        page.wait_for_function(f"() => ({_HEAD_TITLE_JS})().includes('{DRAWN_TITLE}')", timeout=LIMIT_MS)
        times.append(time.perf_counter() - start)
        after = server_cpu() if server_cpu else None
        if before is not None and after is not None:
            cpu.append(after - before)
        context.close()
    return times, cpu


def floor_app():
    """The smallest Gradio page that draws a figure from its load event, launched on a free
    localhost port: one gr.Plot (the head plot's element id) whose heatmap has the linked title."""
    import gradio as gr
    import plotly.graph_objects as go

    def drawn():
        figure = go.Figure(go.Heatmap(z=[[(row * 7 + column * 3) % 10 for column in range(10)] for row in range(10)]))
        return figure.update_layout(title=DRAWN_TITLE)

    with gr.Blocks() as demo:
        plot = gr.Plot(elem_id=HEAD_PLOT_ID)
        demo.load(drawn, None, plot)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo.queue().launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True,
                        ssr_mode=False)
    return demo
