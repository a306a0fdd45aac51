"""A lesson's live run beside a run of the Train tab, in a real browser at 1280x720: the model trained in
Train (trained-copy) stays in the session next to the lesson's own (lesson-copy), both offered by the model
pickers and each drawn when picked; in English and in Chinese. Screenshots go to tests/e2e/screenshots/."""
import re

import pytest

from .pages import choose_model, markdown, no_error_toast, open_page, open_tab, screenshot, wait_until

LESSON = "copy-training"          # lesson 9: trains the Train tab's copy preset live
RUN_SECONDS = 180                 # a few steps published on a loaded machine
STEP_SHOWN = re.compile(r"\d\.\d{3}")  # the run's status once it has trained a step: its loss, to 3 places


def offered(page, elem_id: str) -> list[str]:
    """The names a model picker offers (it is opened, read and closed)."""
    page.click(f"#{elem_id} input")
    names = page.eval_on_selector_all("[role=option]", "options => options.map(o => o.getAttribute('aria-label'))")
    page.click(f"#{elem_id} input")                                     # closed again
    return names


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("zh-CN", "zh-CN")])
def test_a_lessons_live_run_keeps_the_model_trained_in_train_beside_its_own(app, browser, screenshots, locale, lang):
    page = open_page(browser, app.url + f"?view=lessons&lesson={LESSON}&lang={lang}", locale)
    try:
        open_tab(page, "train")
        wait_until(lambda: markdown(page, "train-estimate"), "the Train tab's estimate")
        page.click("#train-step")                                          # a few steps of the copy preset
        wait_until(lambda: page.is_enabled("#train-download"), "the Train tab's model published", seconds=RUN_SECONDS)

        open_tab(page, "lessons")
        page.locator("#lesson-prediction label").first.click()
        page.click("#lesson-run-live")
        # Stopped before its first step, the run would publish no model (the stop button shows from the start).
        wait_until(lambda: STEP_SHOWN.search(markdown(page, "lesson-live-status")), "the lesson's first step",
                   seconds=RUN_SECONDS)
        page.click("#lesson-stop")
        wait_until(lambda: markdown(page, "lesson-verdict"), "the lesson's verdict", seconds=RUN_SECONDS)
        no_error_toast(page)
        screenshot(page, screenshots, f"lesson-beside-train-{lang}-1-lesson")

        open_tab(page, "attention")
        wait_until(lambda: page.input_value("#attention-model input") == "lesson-copy", "the lesson's model shown")
        choose_model(page, "attention-model", "trained-copy")                  # offered beside it, and drawn
        wait_until(lambda: markdown(page, "attention-summary").startswith("trained-copy"), "the Train tab's model drawn")
        no_error_toast(page)
        screenshot(page, screenshots, f"lesson-beside-train-{lang}-2-attention")

        open_tab(page, "generate")
        names = offered(page, "generate-model")
        assert "trained-copy" in names and "lesson-copy" in names, names
    finally:
        page.context.close()
