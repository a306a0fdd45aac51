"""Nothing a learner did is lost when the server restarts (a Space restarts on every sleep, rebuild
and update): the browser keeps the lesson and its answers, and a small trained model, under the app's
fixed secret, and a new server process at the same address reads them back; a page left open across
the restart says why its model is gone and that a reload brings it back. Each test restarts the
offline server the browser tests share (`offline_app`) and leaves it serving."""
import pytest

from .pages import choose_model, drawn, markdown, no_error_toast, open_page, open_tab, screenshot, wait_until

LESSON = "?view=lessons&lesson=masks&lang=en"


def test_a_restarted_server_finds_the_lesson_and_the_answers_the_browser_kept(offline_app, browser):
    server = offline_app
    page = open_page(browser, server.url + LESSON, "en-US")
    try:
        title = wait_until(lambda: markdown(page, "lesson-title"), "the linked lesson")
        page.locator("#lesson-answer label").nth(1).click()
        feedback = wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
        page.wait_for_timeout(1000)                           # the browser writes its record after the event
        server.restart()
        page.goto(server.url)                                  # the plain address: the browser's own lesson
        wait_until(lambda: markdown(page, "lesson-title") == title, "the kept lesson after the restart")
        wait_until(lambda: markdown(page, "lesson-feedback") == feedback, "the kept answer's feedback")
        assert page.locator("#lesson-answer input").nth(1).is_checked()
    finally:
        page.context.close()


@pytest.mark.parametrize("locale, lang, reload_words", [("en-US", "en", "Reload the page"), ("zh-CN", "zh-CN", "请刷新页面")])
def test_a_model_trained_before_a_restart_comes_back_from_the_browser(offline_app, browser, screenshots, locale, lang,
                                                                      reload_words):
    server = offline_app
    page = open_page(browser, server.url + f"?view=train&lang={lang}", locale)
    try:
        page.click("#train-step")
        wait_until(lambda: page.is_enabled("#train-download"), "a few steps published", seconds=120)
        open_tab(page, "attention")
        wait_until(lambda: page.input_value("#attention-model input") == "trained-copy", "the trained model shown")
        page.wait_for_timeout(1500)                           # the browser writes its copy after the event
        server.restart()
        server.url                                            # serving again; the open page has not reloaded
        page.click("#attention-run")                          # the open page asks for a model the server lost
        wait_until(lambda: reload_words in " ".join(page.locator(".toast-body.error").all_inner_texts()),
                   "the reason and what to do")
        screenshot(page, screenshots, f"restart-{lang}-1-open-page-says-reload")
        page.reload()
        open_tab(page, "attention")
        choose_model(page, "attention-model", "trained-copy")
        wait_until(lambda: markdown(page, "attention-summary").startswith("trained-copy"), "the kept model back")
        drawn(page, "attention-grid")
        no_error_toast(page)
        screenshot(page, screenshots, f"restart-{lang}-2-model-back")
    finally:
        page.context.close()
