"""The Generate tab's repetition penalty in a real browser, in English and Chinese: the control set to
1.5 and a Step pressed, the candidates figure shows the stage after the penalty and names it in its
title, and the address carries the penalty."""
import pytest

from .pages import WAIT_SECONDS, OnePage, address, drawn, screenshot, wait_until

MODEL, PROMPT = "shakespeare-char", "the%20the%20the%20"      # greedy repeats "the state of the state"


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang, stage, named", [
    ("en", "after the repetition penalty", "repetition penalty 1.5"),
    ("zh-CN", "重复惩罚之后", "重复惩罚 1.5"),
])
def test_the_penalty_control_adds_its_stage_to_the_candidates(app, linked, screenshots, pretrained_dir, lang,
                                                               stage, named):
    if not (pretrained_dir / MODEL).is_dir():
        pytest.skip("the shipped shakespeare-char model is not installed")
    page = linked.at(f"{app.url}?view=generate&model={MODEL}&prompt={PROMPT}&lang={lang}")
    page.wait_for_selector("#tab-generate:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    control = page.locator("#generate-repetition-penalty input[type=number]")
    control.fill("1.5")
    control.press("Enter")
    page.click("#generate-step")
    candidates = drawn(page, "generate-candidates", lambda fig: named in fig["title"])
    assert stage in [trace["name"] for trace in candidates["traces"]]
    wait_until(lambda: "repetition_penalty=1.5" in address(page), "the penalty in the address",
               seconds=2 * WAIT_SECONDS)
    screenshot(page, screenshots, f"generate-repetition-penalty-{lang}")
