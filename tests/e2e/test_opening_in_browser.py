"""A page whose opening has not arrived says so: one open in about thirty on a loaded machine left the
Lessons skeleton empty for minutes with no word (its opening waiting in the queue, whose place was shown
on a hidden note). The note says the page is opening, with Gradio's progress on it, until the opening
replaces it; here the opening's event is held back by the browser, as a lost connection does."""
import pytest

from .pages import drawn, markdown, screenshot, wait_until

LINK = "?view=attention&model=induction&layer=1&head=0&present=1&lang={lang}"


@pytest.mark.parametrize("locale, lang, opening", [("en-US", "en", "Opening the page"), ("zh-CN", "zh-CN", "正在打开页面")])
def test_a_page_says_it_is_opening_until_its_opening_arrives(app, browser, screenshots, locale, lang, opening):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
    context.set_default_timeout(60_000)
    page = context.new_page()
    try:
        page.route("**/queue/join*", lambda route: route.abort())       # the opening lost
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
