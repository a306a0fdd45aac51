"""The panels that explain an answer, in a real browser at 1280x720, each opened by a link in English and in
Chinese: activation patching (a suggested corruption, the maps with the tokens on their axes and exact values
in their hovers), direct logit attribution beside the logit lens, linear probes, the guessing game in
Generate (which the Chinese interface opens on the Chinese model) and in lesson 1, and lesson 14's
patching and attribution figures. Screenshots of each go to the screenshots folder."""
import pytest

from .pages import VIEWPORT, WAIT_SECONDS, drawn, hover_text, markdown, screenshot, wait_until

REPEAT = "q7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"
LINK = "?view=attention&model=induction&text=q7%23Lm2x%21Vb%26Kp%20q7%23Lm2x%21Vb%26Kp&kind=decoder&score=induction"
SAID = {   # what each view says, in each language
    "en-US": {"answer": "Right answer", "sum": "the parts sum to", "probe": "reads it at", "round": "Round 1:",
              "rematch": "Rematch", "against": "against tang-poems-char", "lesson_game": "Press New game"},
    "zh-CN": {"answer": "正确答案", "sum": "各部分之和为", "probe": "读出它的准确率为", "round": "第 1 轮：",
              "rematch": "再赛一局", "against": "对手 tang-poems-char", "lesson_game": "第 1 / 10 轮"},
}
LANG = {"en-US": "en", "zh-CN": "zh-CN"}


@pytest.fixture(scope="module", autouse=True)
def shipped_models(pretrained_dir):
    if not all((pretrained_dir / name).is_dir() for name in ("induction", "tang-poems-char")):
        pytest.skip("needs the shipped induction and tang-poems-char models")


def opened(browser, url: str, locale: str):
    context = browser.new_context(viewport=VIEWPORT, locale=locale)
    context.set_default_timeout(WAIT_SECONDS * 1000)
    page = context.new_page()
    page.goto(url)
    return page


def open_panel(page, elem_id: str) -> None:
    page.click(f"#{elem_id} .label-wrap")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_patching_attribution_and_probes_draw_from_a_link(app, browser, screenshots, locale):
    said = SAID[locale]
    page = opened(browser, f"{app.url}{LINK}&lang={LANG[locale]}", locale)
    drawn(page, "attention-grid", lambda fig: len(fig["traces"]) >= 1)

    open_panel(page, "attention-patching-panel")
    page.click("#attention-pt-suggest")
    residual = drawn(page, "attention-pt-residual", lambda fig: len(fig["traces"][0]["z"]) == 3)
    assert residual["ticks"][:4] == ["q", "7", "#", "L"] and "&" in residual["ticks"]      # the tokens, as written
    corrupted = page.input_value("#attention-pt-corrupted textarea")
    assert len(corrupted) == len(REPEAT) and corrupted != REPEAT
    drawn(page, "attention-pt-heads")
    drawn(page, "attention-pt-positions")
    wait_until(lambda: said["answer"] in markdown(page, "attention-pt-summary"), "the patching summary")
    hover = hover_text(page, "attention-pt-residual", 0.99, 0.97, r"\d\.\d{4}")             # the last position
    assert "1.0000" in hover                                                # leaving the last block: all of it
    wait_until(lambda: "pt_corrupted=" in page.url and "pt_corrupted=&" not in page.url, "the corruption in the link")

    open_panel(page, "attention-lens-panel")
    page.click("#attention-lens-run")
    drawn(page, "attention-lens-plot", lambda fig: fig["traces"][0]["type"] == "heatmap")
    bars = drawn(page, "attention-dla-plot", lambda fig: fig["traces"][0]["type"] == "bar")
    assert "L1·H0" in bars["traces"][0]["x"] and bars["annotations"]
    wait_until(lambda: said["sum"] in markdown(page, "attention-dla-summary"), "the sum against the logit")

    open_panel(page, "attention-probes-panel")
    page.click("#attention-pr-run")
    probes = drawn(page, "attention-pr-plot", lambda fig: len(fig["traces"]) == 3)
    assert probes["traces"][0]["x"] == ["0", "1", "2"]
    wait_until(lambda: said["probe"] in markdown(page, "attention-pr-summary"), "the probes' sentence",
               seconds=2 * WAIT_SECONDS)
    screenshot(page, screenshots, f"explaining-attention-{locale}")
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_guessing_game_is_played_and_rematched_in_generate(app, browser, screenshots, locale):
    said = SAID[locale]
    model = "" if locale == "zh-CN" else "&model=tang-poems-char"          # Chinese: the Chinese model by itself
    page = opened(browser, f"{app.url}?view=generate{model}&lang={LANG[locale]}", locale)
    wait_until(lambda: page.input_value("#generate-model input") == "tang-poems-char", "the Chinese model",
               seconds=2 * WAIT_SECONDS)
    open_panel(page, "generate-game-panel")
    page.click("#generate-gg-new")
    wait_until(lambda: said["against"] in markdown(page, "generate-gg-context").replace("**", ""), "a new game")
    page.fill("#generate-gg-guess input", "春")
    page.press("#generate-gg-guess input", "Enter")
    wait_until(lambda: said["round"] in markdown(page, "generate-gg-result"), "the first round scored")
    assert page.input_value("#generate-gg-guess input") == ""
    page.locator("#generate-gg-step label").first.click()
    page.click("#generate-gg-rematch")
    wait_until(lambda: said["rematch"] in markdown(page, "generate-gg-result"), "the rematch")
    screenshot(page, screenshots, f"explaining-game-{locale}")
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_lesson_1_has_the_game_and_lesson_14_patches_the_induction_head(app, browser, screenshots, locale):
    said = SAID[locale]
    page = opened(browser, f"{app.url}?view=lessons&lesson=tokens&lang={LANG[locale]}", locale)
    page.wait_for_selector("#lesson-game-panel", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    if locale == "zh-CN":                        # the English model's corpus may have to be downloaded
        page.click("#lesson-gg-new")
    wait_until(lambda: said["lesson_game"] in markdown(page, "lesson-gg-context").replace("**", ""), "the game")
    screenshot(page, screenshots, f"explaining-lesson-1-{locale}")
    page.goto(f"{app.url}?view=lessons&lesson=heads-form&lang={LANG[locale]}")
    drawn(page, "lesson-figure-3", lambda fig: fig["traces"][0]["type"] == "heatmap")        # the residual stream
    drawn(page, "lesson-figure-4", lambda fig: fig["traces"][0]["type"] == "heatmap")        # each head
    drawn(page, "lesson-figure-5", lambda fig: fig["traces"][0]["type"] == "bar")            # attribution
    assert not page.is_visible("#lesson-game-panel")
    wait_until(lambda: said["answer"] in markdown(page, "lesson-notes"), "the patching note")
    screenshot(page, screenshots, f"explaining-lesson-14-{locale}")
    page.context.close()
