"""Nothing a learner did is lost when the server restarts (a Space restarts on every sleep, rebuild
and update): the browser keeps the lesson and its answers, and a small trained model, under the app's
fixed secret, and a new server process at the same address reads them back; a page left open across
the restart says why its model is gone and that a reload brings it back; a class session on a machine
without a network (an example of another model, lesson 1's game with no tiny Shakespeare) works again
after it.

Each test's page is prepared first, all of them on the offline server the browser tests share
(`offline_app`), which then restarts once for all of them (a boot is a browser test's costliest step);
each test then checks its own page. The server is left serving."""
import pytest

from playground.ui.session.kept_models import STORAGE_KEY as KEPT_MODEL_KEY
from playground.ui.tabs.lessons.layout import STORAGE_KEY as LESSON_KEY

from .pages import address, choose_model, drawn, markdown, no_error_toast, open_page, open_tab, screenshot, wait_until
from .test_examples_in_browser import click_example, example_labels

LESSON = "?view=lessons&lesson=masks&lang=en"
CLASS_LINK = "?view=attention&model=copy&text=abcdefghij&kind=cross&layer=0&head=0&lang=en"
LINK_TO_ANOTHER_MODEL = "?view=attention&model=reverse&text=abcdefghij&kind=cross&layer=1&head=2&lang=en"
MODEL_PAGES = [("en-US", "en", "Reload the page"), ("zh-CN", "zh-CN", "请刷新页面")]
HELD_OUT = {"en": "Held-out loss", "zh-CN": "留出集损失"}       # the summary of a model whose training was measured


def stored(page, key: str) -> str | None:
    """What the browser keeps under `key` (encrypted: only a change can be read from it)."""
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def kept(page, key: str, before: str | None, what: str) -> None:
    """Wait until the browser has written `key` anew since it held `before`."""
    wait_until(lambda: stored(page, key) not in (None, before), f"the browser keeping {what}")


def class_session_before(browser, url: str, screenshots) -> dict:
    """The teacher clicks an example of another model and plays a round of lesson 1's game."""
    page = open_page(browser, url + CLASS_LINK, "en-US")
    drawn(page, "attention-grid")
    label = next(label for label in example_labels(page, "attention-examples") if not label.startswith("copy"))
    model = label.split(" · ")[0]
    click_example(page, "attention-examples", label)
    wait_until(lambda: markdown(page, "attention-summary").startswith(model), "another model's example drawn")
    drawn(page, "attention-grid")
    no_error_toast(page)
    screenshot(page, screenshots, "class-offline-1-example")

    open_tab(page, "lessons")
    page.click("#lesson-gg-new")
    wait_until(lambda: "Round 1 of 10" in markdown(page, "lesson-gg-context"), "lesson 1's game started offline",
               seconds=20)
    page.fill("#lesson-gg-guess input", "e")
    page.press("#lesson-gg-guess input", "Enter")
    wait_until(lambda: markdown(page, "lesson-gg-result"), "a round scored")
    no_error_toast(page)
    title = markdown(page, "lesson-title")
    wait_until(lambda: stored(page, LESSON_KEY), "the browser keeping the lesson")   # written as its title is drawn
    return {"page": page, "label": label, "model": model, "title": title}


def lesson_answered_before(browser, url: str) -> dict:
    page = open_page(browser, url + LESSON, "en-US")
    title = wait_until(lambda: markdown(page, "lesson-title"), "the linked lesson")
    before = stored(page, LESSON_KEY)
    page.locator("#lesson-answer label").nth(1).click()
    feedback = wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
    kept(page, LESSON_KEY, before, "the lesson's answer")
    return {"page": page, "title": title, "feedback": feedback}


def training_started(browser, url: str, locale: str, lang: str) -> dict:
    page = open_page(browser, url + f"?view=train&lang={lang}", locale)
    before = stored(page, KEPT_MODEL_KEY)
    page.click("#train-step")
    return {"page": page, "before": before}


def trained_model_shown(started: dict) -> None:
    page = started["page"]
    wait_until(lambda: page.is_enabled("#train-download"), "a few steps published", seconds=120)
    open_tab(page, "attention")
    wait_until(lambda: page.input_value("#attention-model input") == "trained-copy", "the trained model shown")
    kept(page, KEPT_MODEL_KEY, started["before"], "the trained model")


@pytest.fixture(scope="module")
def restarted(offline_app, browser, screenshots) -> dict:
    """Every test's page prepared, then the server restarted once (and serving again); the pages
    are still open, not reloaded."""
    prepared = {}
    try:
        prepared["class"] = class_session_before(browser, offline_app.url, screenshots)
        prepared["lesson"] = lesson_answered_before(browser, offline_app.url)
        for locale, lang, _ in MODEL_PAGES:                  # both trainings run at once
            prepared[lang] = training_started(browser, offline_app.url, locale, lang)
        for locale, lang, _ in MODEL_PAGES:
            trained_model_shown(prepared[lang])
        offline_app.restart()
        offline_app.url
        yield prepared
    finally:
        for entry in prepared.values():
            entry["page"].context.close()


def test_a_restarted_server_finds_the_lesson_and_the_answers_the_browser_kept(offline_app, restarted):
    page, title, feedback = (restarted["lesson"][key] for key in ("page", "title", "feedback"))
    page.goto(offline_app.url)                                # the plain address: the browser's own lesson
    wait_until(lambda: markdown(page, "lesson-title") == title, "the kept lesson after the restart")
    wait_until(lambda: markdown(page, "lesson-feedback") == feedback, "the kept answer's feedback")
    assert page.locator("#lesson-answer input").nth(1).is_checked()


@pytest.mark.parametrize("locale, lang, reload_words", MODEL_PAGES)
def test_a_model_trained_before_a_restart_comes_back_from_the_browser(restarted, screenshots, locale, lang,
                                                                      reload_words):
    page = restarted[lang]["page"]
    page.click("#attention-run")                              # the open page asks for a model the server lost
    wait_until(lambda: reload_words in " ".join(page.locator(".toast-body.error").all_inner_texts()),
               "the reason and what to do")
    screenshot(page, screenshots, f"restart-{lang}-1-open-page-says-reload")
    page.reload()
    open_tab(page, "attention")
    choose_model(page, "attention-model", "trained-copy")
    wait_until(lambda: markdown(page, "attention-summary").startswith("trained-copy"), "the kept model back")
    assert HELD_OUT[lang] in markdown(page, "attention-summary")     # what its training measured came back too
    drawn(page, "attention-grid")
    no_error_toast(page)
    screenshot(page, screenshots, f"restart-{lang}-2-model-back")


def test_a_link_opened_in_a_browser_that_keeps_a_trained_model_shows_what_it_names(offline_app, restarted,
                                                                                  screenshots):
    """The kept model joins the link's session, and the link's model, text and head stay on show."""
    page = restarted["en"]["page"].context.new_page()        # the same browser storage: the kept model
    try:
        page.goto(offline_app.url + LINK_TO_ANOTHER_MODEL)
        page.wait_for_selector("#attention-grid .js-plotly-plot")
        wait_until(lambda: markdown(page, "attention-summary").startswith("reverse"), "the linked model drawn")
        assert page.input_value("#attention-text textarea") == "abcdefghij"
        assert "model=reverse" in address(page) and "head=2" in address(page)
        screenshot(page, screenshots, "restart-link-beside-kept-model")
        choose_model(page, "attention-model", "trained-copy")      # and the kept model is the session's too
        wait_until(lambda: markdown(page, "attention-summary").startswith("trained-copy"), "the kept model")
        no_error_toast(page)
    finally:
        page.close()


def test_a_class_session_on_a_machine_without_a_network_survives_a_restart(offline_app, restarted, screenshots):
    """The reloaded page has the lesson back, and the example and the game still work."""
    page, label, model, title = (restarted["class"][key] for key in ("page", "label", "model", "title"))
    page.goto(offline_app.url)
    wait_until(lambda: markdown(page, "lesson-title") == title, "the kept lesson after the restart", seconds=60)
    page.click("#lesson-gg-new")
    wait_until(lambda: "shakespeare-char" in markdown(page, "lesson-gg-context"), "the game after the restart",
               seconds=20)
    open_tab(page, "attention")
    click_example(page, "attention-examples", label)
    wait_until(lambda: markdown(page, "attention-summary").startswith(model), "the example after the restart")
    no_error_toast(page)
    screenshot(page, screenshots, "class-offline-2-after-restart")
