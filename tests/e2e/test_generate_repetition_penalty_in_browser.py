"""The Generate tab's repetition penalty in a real browser, in English and Chinese: the control set to
1.5 and a Step pressed, the candidates figure shows the stage after the penalty and names it in its
title, and the address carries the penalty."""
import pytest

from .pages import WAIT_SECONDS, address, drawn, open_page, screenshot, wait_until

MODEL, PROMPT = "shakespeare-char", "the%20the%20the%20"      # greedy repeats "the state of the state"


@pytest.mark.parametrize("locale, lang, stage, named", [
    ("en-US", "en", "after the repetition penalty", "repetition penalty 1.5"),
    ("zh-CN", "zh-CN", "重复惩罚之后", "重复惩罚 1.5"),
])
def test_the_penalty_control_adds_its_stage_to_the_candidates(app, browser, screenshots, pretrained_dir, locale, lang,
                                                               stage, named):
    if not (pretrained_dir / MODEL).is_dir():
        pytest.skip("the shipped shakespeare-char model is not installed")
    page = open_page(browser, f"{app.url}?view=generate&model={MODEL}&prompt={PROMPT}&lang={lang}", locale)
    control = page.locator("#generate-repetition-penalty input[type=number]")
    control.fill("1.5")
    control.press("Enter")
    page.click("#generate-step")
    candidates = drawn(page, "generate-candidates", lambda fig: named in fig["title"])
    assert stage in [trace["name"] for trace in candidates["traces"]]
    wait_until(lambda: "repetition_penalty=1.5" in address(page), "the penalty in the address",
               seconds=2 * WAIT_SECONDS)
    screenshot(page, screenshots, f"generate-repetition-penalty-{lang}")
    page.context.close()
