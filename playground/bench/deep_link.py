"""deep_link_view_s: from navigating to a link of the Attention tab to its linked view drawn.

A fresh browser context (no cache of the page) opens the link in Debian's chromium at 1280x720;
the clock stops when the enlarged head shows the linked layer and head. Median of the repeats.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from playground.bench.common import result

SUITE = "app"
GOAL_S = 3.0
REPEATS = {False: 5, True: 5}
LINK = "?view=attention&model=copy&text=abcdefghij&kind=cross&layer=1&head=2&score=diagonal&lang=en"
DRAWN_TITLE = "layer 1, head 2"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
LIMIT_MS = 120_000

_HEAD_TITLE_JS = """
() => {
  const g = document.querySelector('#attention-head-plot .js-plotly-plot');
  return (g && g._fullLayout && g._fullLayout.title && g._fullLayout.title.text) || '';
}
"""


def deep_link_lines(url: str, quick: bool) -> list[dict]:
    """deep_link_view_s against the app at `url` (its copy model)."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run tests/install_chromium.sh to measure deep_link_view_s")
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for _ in range(REPEATS[quick]):
                context = browser.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                start = time.perf_counter()
                page.goto(url.rstrip("/") + "/" + LINK)
                page.wait_for_function(f"() => ({_HEAD_TITLE_JS})().includes('{DRAWN_TITLE}')", timeout=LIMIT_MS)
                times.append(time.perf_counter() - start)
                context.close()
        finally:
            browser.close()
    return [result(SUITE, "deep_link_view_s", statistics.median(times), "s", GOAL_S, "lower",
                   times_s=[round(t, 2) for t in times], link=LINK)]
