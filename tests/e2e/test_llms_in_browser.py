"""Browser test: lesson 16 (from the 2017 Transformer to today's LLMs) opened by its link in both
languages, its six figures drawn with titles that fit, its experiment run; and the lab of the 2017
block against the 2024 block run to its end, its findings naming the target loss (screenshots)."""
import pytest

from playground.labs import get_lab
from playground.ui.course import LESSONS

from .pages import (CJK, WAIT_SECONDS, OnePage, drawn, markdown, no_error_toast, page_at, screenshot,
                    title_overflow, wait_until)

LESSON = LESSONS[-1]
LAB = get_lab("llm-block")
LAB_SECONDS = 240                     # the lab's two models at its size, on a busy 2-core machine


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links to the lesson."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_llm_lesson_draws_its_figures_and_runs_its_experiment(app, linked, screenshots, lang):
    page = linked.at(f"{app.url}?view=lessons&lesson={LESSON.id}&lang={lang}")
    wait_until(lambda: markdown(page, "lesson-title") == LESSON.title(lang), "the lesson's title",
               seconds=4 * WAIT_SECONDS)
    for k in range(len(LESSON.views) + 1):                              # two treemaps, then one per view
        elem_id = f"lesson-figure-{k}"
        drawn(page, elem_id)
        assert title_overflow(page, elem_id) <= 1, f"the title of figure {k} is clipped"
        page.locator(f"#{elem_id}").screenshot(path=str(screenshots / f"{lang}-lesson-16-llms-figure-{k}.png"))
    notes = markdown(page, "lesson-notes")
    assert "494,032,768" in notes and ("7 times less" in notes if lang == "en" else "少 7 倍" in notes)
    if lang == "zh-CN":
        assert CJK.search(markdown(page, "lesson-explanation"))
    page.locator("#lesson-prediction label").nth(LESSON.experiment.predict.answer).click()
    wait_until(lambda: page.locator("#lesson-run").is_enabled(), "Run enabled by the prediction")
    page.click("#lesson-run")
    for k in range(3):                                                 # two tokenizations and the attention
        drawn(page, f"lesson-outcome-{k}")
    wait_until(lambda: markdown(page, "lesson-reveal"), "the reveal")
    no_error_toast(page)
    page.locator("#lesson-outcome-0").scroll_into_view_if_needed()
    screenshot(page, screenshots, f"{lang}-lesson-16-llms")


def test_the_block_lab_runs_both_blocks_and_states_the_steps_to_its_target(app, browser, screenshots):
    page = page_at(browser, f"{app.url}?view=labs&lab={LAB.id}&lang=en")
    try:
        wait_until(lambda: LAB.question.en[:40] in markdown(page, "labs-card"), "the lab's card",
                   seconds=4 * WAIT_SECONDS)
        page.click("#labs-run")
        wait_until(lambda: markdown(page, "labs-status").startswith(("Finished", "Stopped", "Paused")),
                   "the end of the lab", seconds=LAB_SECONDS)
        names = [variant.name.en for variant in LAB.variants]
        curves = drawn(page, "labs-curves", lambda fig: all(any(t["name"].startswith(n) for t in fig["traces"])
                                                            for n in names))
        assert curves["traces"]
        summary = markdown(page, "labs-summary")
        assert "Target: validation loss" in summary and "Parameters" in summary
        screenshot(page, screenshots, "en-labs-llm-block")
        page.click("#language label:has-text('简体中文')")
        wait_until(lambda: "目标：验证损失" in markdown(page, "labs-summary"), "the findings in Chinese")
        no_error_toast(page)
        screenshot(page, screenshots, "zh-labs-llm-block")
    finally:
        page.context.close()
