"""A session's events on a tab apply in the learner's order, and a page whose draw was lost recovers.

- A click during a tab's first draw (the draw made slow on the server: `busy_space_app`) is not dropped, and the
  draw, ending after it, does not replace what it drew.
- A tab picked while a link's opening is on its way stays on screen when the opening's answer comes.
- A link whose opening never reaches the server (the browser loses the request) is asked for again
  and drawn.
- Screenshots: a link in presenter mode, a language switch on Attention, a tab switch.
"""
import json
import urllib.request

import pytest

from .pages import (OPENED_JS, VIEWPORT, WAIT_SECONDS, drawn, markdown, open_page, open_tab, page_at, screenshot,
                    wait_until)

# Before the page opens: the page's watch asks again after 3 s, and the first request of each event
# id in window.lostEvents (an array of fn_index) never reaches the server, nor does any for the ids in
# window.lostAlways.
LOSING_JS = """
window.playgroundRetryMs = 3000;
window.lost = {};
const realFetch = window.fetch;
window.fetch = function (resource, options) {
  const url = typeof resource === 'string' ? resource : resource.url;
  if (url.includes('/queue/join') && options && typeof options.body === 'string') {
    const id = JSON.parse(options.body).fn_index;
    if ((window.lostAlways || []).includes(id) || ((window.lostEvents || []).includes(id) && !window.lost[id])) {
      window.lost[id] = (window.lost[id] || 0) + 1;
      return new Promise(() => {});
    }
  }
  return realFetch.apply(this, arguments);
};
"""


def event_ids(url: str) -> dict:
    """The Attention tab's draw event (a link to Attention opens through it), by name."""
    config = json.loads(urllib.request.urlopen(url + "config", timeout=30).read())
    ids = {c["props"].get("elem_id"): c["id"] for c in config["components"] if c.get("props", {}).get("elem_id")}
    found = {}
    for event in config["dependencies"]:
        targets = [tuple(target) for target in event["targets"]]
        if (ids["attention-redraw"], "click") in targets:
            found["attention"] = event["id"]
    return found


def test_a_tab_picked_while_a_link_opens_stays_picked(busy_space_app, browser, screenshots):
    """The answer to a link's opening selects the tab the link names (Attention, its draw made slow on
    the server); the Train tab, picked while that answer was on its way, stays on screen and is drawn."""
    page = page_at(browser, busy_space_app.url + "?view=attention&lang=en", "en-US")
    try:
        page.wait_for_function("() => { const d = window.playgroundDraws;"
                               " return !!(d && d.openingDrawn === 'attention' && !d.opened); }",
                               timeout=2 * WAIT_SECONDS * 1000)        # the opening asked for, not answered
        page.click("#tab-train-button")
        page.wait_for_function(OPENED_JS, timeout=4 * WAIT_SECONDS * 1000)
        page.wait_for_selector("#tab-train:not([aria-busy])", state="visible")
        wait_until(lambda: markdown(page, "train-estimate"), "the Train tab's estimate")
        page.wait_for_timeout(1000)                                        # anything still on its way has landed
        assert page.is_visible("#tab-train") and not page.is_visible("#tab-attention")
        screenshot(page, screenshots, "tab-picked-while-link-opens")
    finally:
        page.context.close()


def test_a_click_during_a_tabs_first_draw_is_kept(busy_space_app, browser, screenshots):
    page = open_page(browser, busy_space_app.url + "?view=lessons&lang=en", "en-US")
    try:
        page.click("#tab-attention-button")
        page.wait_for_selector("#tab-attention[aria-busy=true]")           # its draw is on its way: a cue
        page.wait_for_timeout(300)
        page.fill("#attention-text textarea", "abcabc", timeout=2000)
        page.press("#attention-text textarea", "Enter", timeout=2000)
        page.wait_for_selector("#tab-attention:not([aria-busy])", timeout=4 * WAIT_SECONDS * 1000)
        page.wait_for_timeout(1000)                                        # anything still on its way has landed
        grid = drawn(page, "attention-grid")
        assert page.input_value("#attention-text textarea") == "abcabc"
        assert [label.split(": ", 1)[-1] for label in grid["traces"][0]["x"]] == list("abcabc"), grid["traces"][0]["x"]
        assert "abcdefghij" not in page.evaluate("location.search")
        screenshot(page, screenshots, "order-click-during-first-draw")
    finally:
        page.context.close()


RECOVERED_MS = 10_000     # a drawn page is no longer busy by then (LIMIT_MS is 30 s)


def losing_page(browser, url: str, lost: list[int], always: list[int] = ()):
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    context.set_default_timeout(WAIT_SECONDS * 1000)
    context.add_init_script(f"window.lostEvents = {json.dumps(lost)}; window.lostAlways = {json.dumps(list(always))};"
                            + LOSING_JS)
    page = context.new_page()
    page.goto(url)
    return page


def test_a_link_whose_opening_was_lost_is_drawn_all_the_same(app, browser, screenshots):
    # The class walk's half-drawn page: the Lessons skeleton, the link's tab never selected nor drawn.
    ids = event_ids(app.url)
    link = app.url + "?view=attention&model=induction&layer=1&head=0&present=1&lang=en"
    page = losing_page(browser, link, [ids["attention"]])          # the opening is the linked tab's first draw
    try:
        drawn(page, "attention-head-plot", lambda fig: "layer 1, head 0" in fig["title"])
        losses = page.evaluate("window.lost")
        assert losses == {str(ids["attention"]): 1}, losses
        assert not page.is_visible("#page-stuck")
        # the panels come back at once, not when the busy mark's 30 s limit (drawing.LIMIT_MS) lets go of it
        page.wait_for_selector("#tab-attention:not([aria-busy])", timeout=RECOVERED_MS)
        screenshot(page, screenshots, "order-link-recovered-presenter")
    finally:
        page.context.close()


def test_screenshots_of_a_presenter_link_a_language_switch_and_a_tab_switch(app, browser, screenshots):
    page = open_page(browser, app.url + "?view=attention&model=reverse&layer=1&head=1&present=1&lang=en", "en-US")
    try:
        drawn(page, "attention-head-plot", lambda fig: "layer 1, head 1" in fig["title"])
        assert not page.is_visible("#attention-text textarea")               # presenter mode folds the controls
        screenshot(page, screenshots, "order-presenter-link")
        page.click("#language label:has-text('简体中文')")
        drawn(page, "attention-head-plot", lambda fig: "第 1 层" in fig["title"])
        page.wait_for_selector("#tab-attention:not([aria-busy])")
        screenshot(page, screenshots, "order-language-switch-attention")
        open_tab(page, "positional")
        drawn(page, "pos-heatmap")
        wait_until(lambda: "view=positional" in page.evaluate("location.search"), "the address of the tab")
        screenshot(page, screenshots, "order-tab-switch-positional")
    finally:
        page.context.close()
