"""The lessons' worked screens in a real browser at 1280x720, in English and in Chinese: lesson 4's
softmax box and lesson 7's LayerNorm box open on the tutorial's numbers, work the learner's own and
refuse what is not a number in the page's language. Screenshots go to tests/e2e/screenshots/."""
import math

import pytest

from .pages import WAIT_SECONDS, OnePage, error_toast, markdown, screenshot, wait_until

def link(app, lesson: str, lang: str) -> str:
    return f"{app.url}?view=lessons&lesson={lesson}&lang={lang}"


def type_numbers(page, value: str) -> None:
    page.locator("#lesson-by-hand-numbers input, #lesson-by-hand-numbers textarea").first.fill(value)


def work(page) -> None:
    page.locator("#lesson-by-hand-run").first.click()


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_softmax_and_layer_norm_boxes(app, linked, screenshots, lang):
    page = linked.at(link(app, "attention", lang))
    page.wait_for_selector("#tab-lessons:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    wait_until(lambda: "268,337" in markdown(page, "lesson-by-hand-result"), "lesson 4's worked example")
    page.locator("#lesson-by-hand").first.screenshot(path=str(screenshots / f"{lang}-lesson-04-softmax-box.png"))
    type_numbers(page, "1, 2, 3")
    page.locator("#lesson-by-hand-dk input").first.fill("1")
    work(page)
    total = sum(math.exp(v) for v in (1, 2, 3))
    wait_until(lambda: f"{math.exp(3) / total:.4g}" in markdown(page, "lesson-by-hand-result"),
               "the learner's own scores worked")
    type_numbers(page, "1, two")
    work(page)
    assert ("not a number" if lang == "en" else "不是数字") in error_toast(page)

    page.goto(link(app, "block", lang))
    wait_until(lambda: "6.16" in markdown(page, "lesson-by-hand-result"), "lesson 7's worked example")
    assert not page.locator("#lesson-by-hand-dk").first.is_visible()                 # LayerNorm has no d_k
    screenshot(page, screenshots, f"{lang}-lesson-07-page")
    page.locator("#lesson-by-hand").first.screenshot(path=str(screenshots / f"{lang}-lesson-07-layernorm-box.png"))
    type_numbers(page, "1, 3")
    work(page)
    wait_until(lambda: "6.16" not in markdown(page, "lesson-by-hand-result")
               and "-1" in markdown(page, "lesson-by-hand-result").replace("−", "-"), "LayerNorm of 1, 3")
