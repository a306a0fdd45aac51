"""idle_page_browser_cores: what an open page of the app costs the browser while nobody touches it.

A class leaves the app open on every laptop and on the projector for a whole lesson. The app's
link to the Attention tab is opened in a fresh context of Debian's chromium (1280x720) and drawn;
after a second to settle, the CPU of every chromium process this benchmark started is read over
IDLE_S seconds with that page the only one open. In the same run, the same for Gradio's one-figure
page (deep_link's floor), which has no script of the app's: idle_page_ratio_to_floor sets them side
by side. Gradio's page-wide loading tracker keeps asking for frames on the floor page (see
playground.ui.page.idle_frames).

Also runnable on its own, against a fresh `python app.py`: `python -m playground.bench.idle_page`.
"""
from __future__ import annotations

import json
import os
import time

from playground.bench.common import result
from playground.bench.deep_link import CHROMIUM, CHROMIUM_ARGS, DRAWN_TITLE, LINK, LIMIT_MS, HEAD_TITLE_JS, floor_app

SUITE = "app"
IDLE_S = 10.0
SETTLE_MS = 1000


def chromium_processes(root: int) -> list[int]:
    """The chromium processes below `root` (its browser, renderers, GPU and utility processes)."""
    from playground.bench.zerogpu_class import children

    found, below = [], children(root)
    while below:
        pid = below.pop()
        below += children(pid)
        try:
            with open(f"/proc/{pid}/comm") as name:
                if "chrom" in name.read():
                    found.append(pid)
        except OSError:
            continue                                  # ended while being read
    return found


def idle_cores(browser, address: str) -> float:
    """Cores of chromium spent over IDLE_S with the page at `address`, drawn, the only page open."""
    from playground.bench.app import ProcessCPU                 # which builds on this module

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(address)
        page.wait_for_function(f"() => ({HEAD_TITLE_JS})().includes('{DRAWN_TITLE}')", timeout=LIMIT_MS)
        page.wait_for_timeout(SETTLE_MS)
        meters = [ProcessCPU(pid) for pid in chromium_processes(os.getpid())]
        before, start = sum(meter.seconds() or 0.0 for meter in meters), time.perf_counter()
        page.wait_for_timeout(IDLE_S * 1000)
        return (sum(meter.seconds() or 0.0 for meter in meters) - before) / (time.perf_counter() - start)
    finally:
        context.close()


def idle_page_lines(url: str) -> list[dict]:
    """idle_page_browser_cores for the app at `url`, with Gradio's one-figure page in the same run."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run tests/install_chromium.sh to measure idle_page_browser_cores")
    from playwright.sync_api import sync_playwright

    floor = floor_app()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                app = idle_cores(browser, url.rstrip("/") + "/" + LINK)
                floor_cores = idle_cores(browser, floor.local_url)
            finally:
                browser.close()
    finally:
        floor.close()
    return [result(SUITE, "idle_page_browser_cores", app, "cores", None, "lower", idle_s=IDLE_S, link=LINK,
                   floor_cores=round(floor_cores, 4)),
            result(SUITE, "idle_page_ratio_to_floor", app / floor_cores, "x", None, "lower",
                   page="one gr.Plot drawn by the page's load event: Gradio's page and Plotly alone")]


def run(quick: bool) -> list[dict]:
    from playground.bench.app import AppProcess

    app = AppProcess()
    try:
        return idle_page_lines(app.url)
    finally:
        app.stop()


if __name__ == "__main__":
    for line in run(True):
        print(json.dumps(line))
