"""What a test reads from, and does on, the app's page: opening it, the data inside a Plotly figure,
the error toast, a tab, a model picker, a screenshot."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qsl, urlsplit

from .page_pool import PagePool

VIEWPORT = {"width": 1280, "height": 720}
WAIT_SECONDS = 30
POLL_SECONDS = 0.1              # a check is one evaluate in the page, which it keeps from its own work meanwhile
FIGURES_REDRAW_MS = 600        # Plotly redraws the figures after the window is resized
QUIET_MS = 300                 # no event under way this long: the page's events have ended
CJK = re.compile(r"[\u4e00-\u9fff]")
POOL = PagePool(VIEWPORT, WAIT_SECONDS * 1000)     # the pages of `page_at`, kept between tests

# The figure as Plotly drew it (_fullData / _fullLayout): visible traces with their arrays and
# colour range, the title, the tick labels and annotations on screen, and the number of shapes.
_FIGURE_JS = """
(id) => {
  const g = document.querySelector(`#${id} .js-plotly-plot`);
  if (!g || !g._fullData || !g._fullLayout) return null;
  const box = g.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  const list = (a) => a == null ? [] : Array.from(a, (v) =>
      (v != null && typeof v === 'object' && v.length !== undefined) ? Array.from(v) : v);
  const layout = g._fullLayout;
  return {
    title: (layout.title && layout.title.text) || '',
    traces: g._fullData.filter((t) => t.visible === true).map((t) => ({
      type: t.type, name: t.name || '', x: list(t.x), y: list(t.y), z: list(t.z), values: list(t.values),
      labels: list(t.labels), text: list(t.text), cells: t.cells ? list(t.cells.values) : [],
      zmin: t.zmin ?? null, zmax: t.zmax ?? null,
    })),
    ticks: Array.from(g.querySelectorAll('.xtick text, .ytick text'), (e) => e.textContent),
    annotations: Array.from(g.querySelectorAll('.annotation-text'), (e) => e.textContent),
    shapes: (layout.shapes || []).length,
  };
}
"""

# The same, as JSON text: Playwright's own transfer of a figure's arrays costs the browser and the test ~30
# times the CPU (0.68 s against 0.02 s for an 80-token attention grid, measured). Numbers that JSON has no
# word for (NaN, Infinity) are written as Python's json reads them.
_FIGURE_AS_JSON_JS = """(id) => JSON.stringify((""" + _FIGURE_JS.strip() + """)(id),
    (key, value) => typeof value === 'number' && !Number.isFinite(value) ? `\\u0000${value}` : value)
  .replace(/"\\\\u0000(NaN|-?Infinity)"/g, '$1')"""


# The part of each title drawn outside its figure, in px (0 when the title fits): across, or above by
# more than the few px of a font's ascent (a second title line pushed out of the figure is ~25 px).
_TITLE_OVERFLOW_JS = """
(id) => {
  const g = document.querySelector(`#${id} .js-plotly-plot`);
  const svg = g && g.querySelector('.main-svg');
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  return Array.from(g.querySelectorAll('.gtitle'), (title) => {
    const r = title.getBoundingClientRect();
    return Math.max(0, box.left - r.left, r.right - box.right, box.top - r.top - 8);
  }).reduce((a, b) => Math.max(a, b), 0);
}
"""


def title_overflow(page, elem_id: str) -> float:
    """How far, in px, the title of the figure in `elem_id` is drawn outside it (0 when it fits)."""
    return page.evaluate(_TITLE_OVERFLOW_JS, elem_id)


# The page's opening (the draw of the tab its address names, with the header's answer) has ended.
OPENED_JS = "() => !!(window.playgroundDraws && window.playgroundDraws.opened)"


def page_at(browser, url: str, locale: str = "en-US"):
    """A page of a fresh session with `locale`, at 1280x720, loading `url` (not waiting for a draw): a
    page of its own browser context, kept from an earlier test when there is one (`POOL`)."""
    page = POOL.take(browser, locale)
    if hasattr(page, "gradio_events"):
        page.gradio_events.reset()
    else:
        page.gradio_events = EventsUnderWay(page)
    page.goto(url)
    return page


class OnePage:
    """One page for a module's links, each a new session of the server: the first link loads in a
    page of `page_at` with `locale`, each later one in the same page, whose browser storage stays."""

    def __init__(self, browser, locale: str = "en-US"):
        self._browser, self._locale, self._page = browser, locale, None

    def at(self, url: str):
        """The page, loading `url` (not waiting for a draw)."""
        if self._page is None:
            self._page = page_at(self._browser, url, self._locale)
        else:
            self._page.goto(url)
        return self._page

    def close(self) -> None:
        if self._page is not None:
            POOL.give_back(self._page)


def open_page(browser, url: str, locale: str, tab: str = "attention"):
    """A fresh browser context with `locale`, at 1280x720, with the app loaded (on its first tab,
    Lessons) and then `tab` opened and drawn; a link (`?view=...`) opens its own tab instead."""
    page = page_at(browser, url, locale)
    linked = dict(parse_qsl(urlsplit(url).query)).get("view")
    if linked is not None:                   # a link opens and draws its own tab
        # The tab a link names may be on screen before the opening is answered (Lessons, the first tab):
        # the answer selects the link's tab, so a tab picked before it would be left again.
        page.wait_for_function(OPENED_JS, timeout=2 * WAIT_SECONDS * 1000)
        page.wait_for_selector(f"#tab-{linked}:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
        if linked == "attention":
            page.wait_for_selector("#attention-grid .js-plotly-plot")
        return page
    page.wait_for_selector("#tab-lessons:not([aria-busy]) #lesson-figure-0 .js-plotly-plot",
                           timeout=2 * WAIT_SECONDS * 1000)                           # a cold server
    if tab == "attention":
        open_tab(page, "attention")
        page.wait_for_selector("#attention-grid .js-plotly-plot")
    elif tab != "lessons":
        open_tab(page, tab)
    return page


class EventsUnderWay:
    """The page's Gradio events under way, read from its requests: a queue/join not yet answered, or a
    queue/data stream still open (the server closes it once the session has no event left)."""

    PATHS = ("/queue/join", "/queue/data")

    def __init__(self, page):
        self._page = page
        self.reset()
        on = type(page).on                       # the page's own method: a test's `page.on` marks it altered
        on(page, "request", self._started)
        on(page, "requestfinished", self._ended)
        on(page, "requestfailed", self._ended)

    def reset(self) -> None:
        """Forget the requests seen (the page is lent to another test)."""
        self._open: set = set()
        self._changed = time.monotonic()

    def _started(self, request) -> None:
        if any(path in request.url for path in self.PATHS):
            self._open.add(request)
            self._changed = time.monotonic()

    def _ended(self, request) -> None:
        if request in self._open:
            self._open.discard(request)
            self._changed = time.monotonic()

    def wait_until_quiet(self, quiet_ms: int, seconds: float = WAIT_SECONDS) -> bool:
        """Wait until no event has been under way for `quiet_ms` (a click's event starts a moment after
        the click; an event that follows another starts as it ends); False after `seconds` without."""
        asked = time.monotonic()
        while time.monotonic() < asked + seconds:
            self._page.wait_for_timeout(POLL_SECONDS * 1000)          # Playwright reports requests meanwhile
            if not self._open and time.monotonic() - max(self._changed, asked) >= quiet_ms / 1000:
                return True
        return False


def apart(a, b) -> bool:
    """Whether two boxes on screen, (left, top, right, bottom), overlap by at most a pixel one way or the other."""
    return min(a[2], b[2]) - max(a[0], b[0]) <= 1 or min(a[3], b[3]) - max(a[1], b[1]) <= 1


def overlapping(boxes: list) -> list:
    """Pairs of boxes on screen, (left, top, right, bottom), that overlap by more than a pixel each way."""
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if not apart(a, b)]


def wait_until(condition: Callable[[], object], what: str, seconds: float = WAIT_SECONDS):
    """Poll `condition` until it returns something truthy; fail with `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")
        time.sleep(POLL_SECONDS)


def figure(page, elem_id: str) -> dict | None:
    """The figure drawn in component `elem_id` (None while it is missing or hidden)."""
    return json.loads(page.evaluate(_FIGURE_AS_JSON_JS, elem_id))


def has_data(fig: dict | None) -> bool:
    """At least one trace with values (x/y/z, treemap values or table cells) and none that is empty."""
    if not fig or not fig["traces"]:
        return False
    def filled(trace):
        arrays = [trace[k] for k in ("x", "y", "z", "values", "cells") if trace[k]]
        return bool(arrays) and all(len(a) > 0 for a in arrays)
    return all(filled(trace) for trace in fig["traces"])


def drawn(page, elem_id: str, check: Callable[[dict], object] = lambda fig: True) -> dict:
    """Wait until `elem_id` shows a figure that holds data and passes `check`; return the figure."""
    def ready():
        fig = figure(page, elem_id)
        return fig if has_data(fig) and check(fig) else None
    return wait_until(ready, f"a figure with data in #{elem_id}")


def heatmap_rows(trace: dict) -> list[list[float]]:
    """A heatmap's z as rows of numbers (None where a cell is masked)."""
    return [list(row) for row in trace["z"]]


def hover_text(page, elem_id: str, fx: float, fy: float, pattern: str) -> str:
    """The hover label Plotly shows with the mouse at (fx, fy) of the plot area of `elem_id`, once it
    matches the regular expression `pattern`."""
    page.locator(f"#{elem_id} .js-plotly-plot").scroll_into_view_if_needed()
    area = page.locator(f"#{elem_id} .nsewdrag").first.bounding_box()
    x, y = area["x"] + area["width"] * fx, area["y"] + area["height"] * fy
    page.mouse.move(x - 3, y - 3)
    page.mouse.move(x, y, steps=3)
    label = f"#{elem_id} .hoverlayer .hovertext"

    def shown():
        text = " ".join(page.locator(label).all_text_contents())
        return text if re.search(pattern, text) else None
    return wait_until(shown, f"a hover label matching {pattern!r} in #{elem_id}", seconds=5)


def drawn_tab(page, view: str, settled: bool = True) -> None:
    """Wait until tab `view` has drawn a figure and its draw has ended; `settled`: and until the page
    script has named its controls and fitted its figures (150 ms after the page changed)."""
    page.wait_for_selector(f"#tab-{view}:not([aria-busy]) .js-plotly-plot")
    if settled:
        page.wait_for_timeout(300)


def open_tab(page, key: str) -> None:
    """Pick tab `key` and wait until it is drawn (its panel no longer busy)."""
    page.click(f"#tab-{key}-button")
    page.wait_for_selector(f"#tab-{key}:not([aria-busy])", state="visible")


# Resolves two frames from now: Gradio's page draws a closed accordion's contents when it opens (once
# their components' code has loaded), then a frame later sets their first values again
# (render_previously_invisible_children in its core-*.js), replacing what was typed in between.
TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))"


def open_panel(page, elem_id: str) -> None:
    """Open the accordion `elem_id` and wait until its contents are drawn and have their first values,
    so what is typed into them next stays (on a busy machine the Hub box was drawn 150 ms after the
    click, went back to its default name a frame after the name was typed, and the load asked for the
    default)."""
    page.click(f"#{elem_id} .label-wrap")
    page.wait_for_selector(f"#{elem_id} .block", state="attached")
    page.evaluate(TWO_FRAMES_JS)


def tab_label(page, key: str) -> str:
    return page.inner_text(f"#tab-{key}-button").strip()


def choose_model(page, elem_id: str, name: str) -> None:
    """Open a model picker and click the model, as a user does."""
    page.click(f"#{elem_id} input")
    page.click(f"[role=option][aria-label='{name}']")


def type_into(page, elem_id: str, value: str) -> None:
    """Replace the text of textbox `elem_id`."""
    page.fill(f"#{elem_id} textarea", value)


SHOWN_TITLE_JS = """(span) => {
  const written = getComputedStyle(span, '::before').content;
  return getComputedStyle(span).fontSize === '0px' && written !== 'none' ? JSON.parse(written) : span.innerText.trim();
}"""


def toast_title(page) -> str:
    """The title of the error toast on screen, as a reader sees it (the page's CSS may write it in
    place of the one Gradio writes)."""
    page.wait_for_selector(".toast-body.error", state="visible")
    return page.eval_on_selector(".toast-body.error .toast-title", SHOWN_TITLE_JS)


def no_error_toast(page, settle_ms: int = 1500) -> None:
    """Assert that no error toast shows once the page's events have ended: on a page from `page_at`, once
    none has been under way for QUIET_MS (at most WAIT_SECONDS); on another page, after `settle_ms`."""
    events = getattr(page, "gradio_events", None)
    if events is None:
        page.wait_for_timeout(settle_ms)
    else:
        events.wait_until_quiet(min(settle_ms, QUIET_MS))
    shown = [text.strip() for text in page.locator(".toast-body.error").all_inner_texts()]
    assert not shown, f"the page showed an error: {shown}"


def error_toast(page) -> str:
    """The text of the error toast that appears next, which is then closed."""
    page.wait_for_selector(".toast-body.error", state="visible")
    message = page.inner_text(".toast-body.error .toast-message-text").strip()
    for close in page.locator(".toast-body.error .toast-close").all():
        close.click()
    page.wait_for_selector(".toast-body.error", state="detached")
    return message


def address(page) -> str:
    """The address as the page has it: the page rewrites it with history.replaceState, which
    Playwright's page.url does not always follow."""
    return page.evaluate("location.href")


def markdown(page, elem_id: str) -> str:
    """The text a component shows: a Markdown's prose alone, without the timer of Gradio's progress
    tracker (which an event under way writes into the same block)."""
    page.wait_for_selector(f"#{elem_id}", state="attached")
    return page.evaluate("""id => {
        const block = document.getElementById(id);
        const prose = block && block.querySelector('[data-testid="markdown"]');
        return block ? (prose || block).innerText : '';
    }""", elem_id).strip()


def screenshot(page, directory: Path, name: str) -> Path:
    """The whole page (1280 px wide) as directory/name.png.

    The window is made as tall as the page first, and the figures given time to redraw at that size:
    a full-page capture resizes the window while it captures, and Plotly's figures, which follow the
    window, are caught half redrawn (axes without their data).
    """
    page.mouse.move(0, 0)
    path = directory / f"{name}.png"
    window = page.viewport_size
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.set_viewport_size({"width": window["width"], "height": max(height, window["height"])})
    page.wait_for_timeout(FIGURES_REDRAW_MS)
    page.screenshot(path=str(path))
    page.set_viewport_size(window)
    return path


# Each colour bar's gradient on screen: the url() its fill names, and whether it resolves to an
# element of this document at its current address.
_COLOUR_BARS_JS = """
() => Array.from(document.querySelectorAll('.js-plotly-plot .colorbar .cbfill'))
  .filter((bar) => bar.getBoundingClientRect().width > 0)
  .map((bar) => {
    const fill = bar.style.fill || bar.getAttribute('fill') || '';
    const match = fill.match(/url\\(["']?([^"')]*)["']?\\)/);
    if (!match) return {fill, resolved: false};
    const target = new URL(match[1], document.baseURI);
    const here = location.href.split('#')[0];
    const element = document.getElementById(decodeURIComponent(target.hash.slice(1)));
    return {fill, resolved: target.href.split('#')[0] === here && element !== null};
  })
"""


def colour_bars(page) -> list[dict]:
    """Every visible colour bar's fill, and whether its gradient resolves in the page as it is now."""
    return page.evaluate(_COLOUR_BARS_JS)
