"""tab_switch_ms_p95: a tab picked in a browser until its figure is drawn, the 95th percentile.

A fresh browser context (Debian's chromium, 1280x720) opens the app on its first tab, Lessons,
and waits for its figure. Then it picks the tabs that open on a figure in turn, round after round:
each switch is timed from the click on the tab's name until the tab's draw has ended (its panel
no longer marked busy: see playground.ui.page.drawing) and a figure with data shows in it. The
first round draws each tab for the first time; later rounds pick a tab the session has drawn
before (the server answers that nothing changed). Both kinds are in the percentile; their medians
are reported beside it.

Also runnable on its own, against a fresh `python app.py`: `python -m playground.bench.tab_switch [--quick]`.
"""
from __future__ import annotations

import json
import statistics
import sys

import numpy as np

from playground.bench.common import result

SUITE = "app"
TABS = ("attention", "inside", "generate", "positional", "tokenizer", "architecture", "lessons")
ROUNDS = {False: 4, True: 2}
LIMIT_MS = 120_000

# Resolves with the milliseconds from the click on tab `view` until its panel's busy mark has come
# and gone and a figure with data shows in it.
_SWITCH_JS = """
(view) => new Promise((done, failed) => {
  const panel = () => document.querySelector(`#tab-${view}`);      // a tab's panel is made when first shown
  const busy = () => (panel() && panel().getAttribute('aria-busy'))
                     || (window.playgroundDraws && window.playgroundDraws.count > 0);     // draws under way
  const start = performance.now();
  let marked = false;
  const figure = () => Array.from(panel().querySelectorAll('.js-plotly-plot'))
    .some((g) => g._fullData && g._fullData.length && g.offsetParent !== null);
  const check = () => {
    if (busy()) marked = true;
    if (marked && panel() && !busy() && figure()) { done(performance.now() - start); return; }
    if (performance.now() - start > %d) { failed(new Error(`tab ${view} not drawn`)); return; }
    requestAnimationFrame(check);
  };
  new MutationObserver(() => { if (busy()) marked = true; })
    .observe(document.querySelector('#tabs'), {subtree: true, childList: true, attributes: true});
  document.querySelector(`#tab-${view}-button`).click();
  requestAnimationFrame(check);
})
""" % LIMIT_MS


def switch_times(url: str, quick: bool) -> tuple[list[float], list[float]]:
    """(first draws, later picks): milliseconds per tab switch in one browser session of the app at `url`."""
    from playwright.sync_api import sync_playwright

    from playground.bench.deep_link import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run tests/install_chromium.sh to measure tab_switch_ms_p95")
    first, later = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
            page = context.new_page()
            page.goto(url.rstrip("/") + "/?lang=en")
            page.wait_for_selector("#tab-lessons:not([aria-busy]) #lesson-figure-0 .js-plotly-plot", timeout=LIMIT_MS)
            page.wait_for_timeout(500)                # the opening's last steps (the kept state read) have ended
            for round_ in range(ROUNDS[quick]):
                for view in TABS:
                    (first if round_ == 0 and view != "lessons" else later).append(page.evaluate(_SWITCH_JS, view))
            context.close()
        finally:
            browser.close()
    return first, later


def tab_switch_lines(url: str, quick: bool) -> list[dict]:
    """tab_switch_ms_p95 against the app at `url`."""
    first, later = switch_times(url, quick)
    every = first + later
    return [result(SUITE, "tab_switch_ms_p95", float(np.percentile(every, 95)), "ms", None, "lower",
                   switches=len(every), first_draw_ms_p50=round(statistics.median(first), 1),
                   repeat_pick_ms_p50=round(statistics.median(later), 1), tabs=list(TABS),
                   times_ms=[round(t) for t in every])]


def run(quick: bool) -> list[dict]:
    from playground.bench.app import AppProcess

    app = AppProcess()
    try:
        return tab_switch_lines(app.url, quick)
    finally:
        app.stop()


if __name__ == "__main__":
    for line in run("--quick" in sys.argv[1:]):
        print(json.dumps(line))
