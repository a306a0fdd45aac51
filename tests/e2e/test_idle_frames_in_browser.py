"""A page asks for no frames while nothing on it moves, and a shown status tracker's timer counts.

Gradio's page-wide loading tracker leaves the page while pending, and its timer's frame loop went
on for as long as the page stayed open (page/idle_frames.py). Frames a status tracker asks for are
counted from before the page's own scripts run: its loop asks again only from a frame it was given.
"""
from .pages import VIEWPORT, WAIT_SECONDS, open_tab, screenshot

COUNTING_JS = """
window.trackerFrames = 0;
const askFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => {
  if ((new Error().stack || '').includes('statustracker')) window.trackerFrames += 1;
  return askFrame(callback);
};
"""
IDLE_MS = 2000


def counting_page(browser, url: str):
    context = browser.new_context(viewport=VIEWPORT, locale="en-US")
    context.set_default_timeout(WAIT_SECONDS * 1000)
    context.add_init_script(COUNTING_JS)
    page = context.new_page()
    page.goto(url)
    return page


def tracker_frames_while_idle(page) -> int:
    before = page.evaluate("window.trackerFrames")
    page.wait_for_timeout(IDLE_MS)
    return page.evaluate("window.trackerFrames") - before


def test_an_opened_page_left_alone_asks_for_no_frames(app, browser, screenshots):
    page = counting_page(browser, app.url + "?lang=en")
    try:
        page.wait_for_selector("#tab-lessons:not([aria-busy]) #lesson-figure-0 .js-plotly-plot",
                               timeout=2 * WAIT_SECONDS * 1000)
        page.wait_for_timeout(1000)
        assert page.evaluate("window.trackerFrames") > 2        # the loading tracker's timer ran while it showed
        assert tracker_frames_while_idle(page) <= 1              # 60 a second before
        open_tab(page, "positional")
        page.wait_for_selector("#tab-positional:not([aria-busy]) #pos-heatmap .js-plotly-plot")
        page.wait_for_timeout(1000)
        assert tracker_frames_while_idle(page) <= 1
        screenshot(page, screenshots, "idle-page-positional")
    finally:
        page.context.close()
