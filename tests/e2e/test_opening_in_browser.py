"""A page whose opening has not arrived says so: one open in about thirty on a loaded machine left the
Lessons skeleton empty for minutes with no word (its opening waiting in the queue, whose place was shown
on a hidden note). The note says the page is opening, with Gradio's progress on it, until the opening
replaces it; here the opening's event is held back by the browser, as a lost connection does.

A link is drawn in one round trip: the page's opening (its language, the link, what the browser keeps)
travels with the draw of the tab the link names. Until that answer has come back, it is the one call to
the server with anything in it: a tab pick the page makes itself meanwhile sends nothing and is left
to the opening. Gradio's Plotly chunk is asked for before the opening leaves, and once (its code runs
while the server draws; page/early_plotly.py)."""
import json

import pytest

from .pages import drawn, markdown, page_at, screenshot, wait_until

LINK = "?view=attention&model=induction&layer=1&head=0&present=1&lang={lang}"


@pytest.mark.parametrize("locale, lang, opening", [("en-US", "en", "Opening the page"), ("zh-CN", "zh-CN", "正在打开页面")])
def test_a_page_says_it_is_opening_until_its_opening_arrives(app, browser, screenshots, locale, lang, opening):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
    context.set_default_timeout(60_000)
    page = context.new_page()
    try:
        # The opening held back, never answered. (An aborted request would be a network error: Gradio's
        # page then says the connection is lost and reloads itself once the server answers again.)
        page.route("**/queue/join*", lambda route: None)
        page.goto(app.url + LINK.format(lang=lang))
        wait_until(lambda: opening in markdown(page, "link-note"), "the page saying it is opening")
        page.wait_for_timeout(3000)
        assert opening in markdown(page, "link-note") and page.is_visible("#link-note")
        screenshot(page, screenshots, f"opening-{lang}-waiting")
        page.unroute("**/queue/join*")
        page.reload()
        drawn(page, "attention-grid")
        wait_until(lambda: not page.is_visible("#link-note"), "the note gone once opened")
    finally:
        context.close()


# Records each call to the server's queue: its input values, whether the page had opened when it left,
# and when it left (ms since the page's start, as performance's resource entries count).
RECORD_CALLS = """(() => {
    window.queueCalls = [];
    const send = window.fetch;
    window.fetch = function (input, init) {
        const url = typeof input === 'string' ? input : input.url;
        if (url.includes('/queue/join') && init && init.body) {
            const opened = !!(window.playgroundDraws && window.playgroundDraws.opened);
            window.queueCalls.push({opened, data: JSON.parse(init.body).data, at: performance.now()});
        }
        return send.apply(this, arguments);
    };
})()"""


# When the page asked for Gradio's Plotly chunk, per request (ms since the page's start).
PLOTLY_REQUESTS = """() => performance.getEntriesByType('resource')
    .filter((entry) => /\\/assets\\/PlotlyPlot-[^/]*\\.js$/.test(new URL(entry.name).pathname))
    .map((entry) => entry.startTime)"""


@pytest.mark.parametrize("locale, lang, title", [("en-US", "en", "layer 1, head 0"), ("zh-CN", "zh-CN", "第 1 层，第 0 个头")])
def test_a_link_is_drawn_in_one_round_trip(app, browser, screenshots, locale, lang, title):
    page = page_at(browser, "about:blank", locale)
    try:
        page.context.add_init_script(RECORD_CALLS)
        page.goto(app.url + LINK.format(lang=lang))
        drawn(page, "attention-head-plot", lambda fig: title in fig["title"])
        wait_until(lambda: not page.is_visible("#link-note"), "the note gone once opened")
        calls = page.evaluate("window.queueCalls")
        before = [call["data"] for call in calls if not call["opened"]]
        assert before, calls
        with_work = [data for data in before if data[:1] != [None]]
        assert len(with_work) == 1 and with_work[0][:2] == [lang, LINK.format(lang=lang)], before
        # Plotly's code is asked for once, before the opening leaves (see page/early_plotly.py), not once
        # the answer's first figure is mounted
        plotly = page.evaluate(PLOTLY_REQUESTS)
        opening_left = next(call["at"] for call in calls if call["data"][:1] != [None])
        assert len(plotly) == 1 and plotly[0] < opening_left, (plotly, opening_left)
        screenshot(page, screenshots, f"opening-{lang}-one-round-trip")
    finally:
        page.context.close()
