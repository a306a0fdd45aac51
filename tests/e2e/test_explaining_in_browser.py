"""The panels that explain an answer, in a real browser at 1280x720, each opened by a link that names its
fields, in English and in Chinese, on one page that each link reloads: activation patching (the linked
corrupted input, then a suggested one, the maps with the tokens on their axes and exact values in their
hovers), direct logit attribution of the linked token beside the logit lens, linear probes of the linked
property, the guessing game in Generate (which the Chinese interface opens on the Chinese model) rematched
at the linked step, lesson 1's game and lesson 14's patching and attribution figures. Screenshots of each
go to the screenshots folder."""
from urllib.parse import parse_qsl, quote, urlsplit

import pytest

from .pages import (
    POOL,
    WAIT_SECONDS,
    address,
    drawn,
    drawn_tab,
    hover_text,
    markdown,
    open_panel,
    screenshot,
    title_overflow,
    wait_until,
)

REPEAT = "q7#Lm2x!Vb&Kp q7#Lm2x!Vb&Kp"
CORRUPTED = "q7#Lm2x!Vb&Kp~q7#Lm2x!Vb&Kp"         # the separator changed: the answer after "p" is no longer " "
ATTENTION = (f"?view=attention&model=induction&text={quote(REPEAT)}&kind=decoder&score=induction"
             f"&pt_corrupted={quote(CORRUPTED)}&dla_token=q&pr_property=offset")
PANEL_FIGURES = ("attention-pt-residual", "attention-pt-heads", "attention-pt-positions", "attention-dla-plot",
                 "attention-pr-plot")
SAID = {   # what each view says, in each language
    "en": {"answer": "Right answer", "sum": "the parts sum to", "offset": "position inside the repeat",
           "no_layer": "No layer reads it", "round": "Round 1:", "rematch": "against the model at step 100",
           "against": "against tang-poems-char", "lesson_game": "Press New game"},
    "zh-CN": {"answer": "正确答案", "sum": "各部分之和为", "offset": "在重复中的位置", "no_layer": "没有哪一层能读出它",
              "round": "第 1 轮：", "rematch": "对手是第 100 步的模型", "against": "对手 tang-poems-char",
              "lesson_game": "第 1 / 10 轮"},
}


@pytest.fixture(scope="module", autouse=True)
def shipped_models(pretrained_dir):
    if not all((pretrained_dir / name).is_dir() for name in ("induction", "tang-poems-char")):
        pytest.skip("needs the shipped induction and tang-poems-char models")


@pytest.fixture(scope="module")
def page(browser):
    """One page for every link (each link loads the app afresh in it)."""
    page = POOL.take(browser, "en-US")
    yield page
    POOL.give_back(page)


def linked(page) -> dict:
    """The parameters of the link in the page's address."""
    return dict(parse_qsl(urlsplit(address(page)).query))


def value(page, elem_id: str) -> str:
    return page.input_value(f"#{elem_id} textarea, #{elem_id} input[type=text]")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_patching_attribution_and_probes_open_from_a_link(app, page, screenshots, lang):
    said = SAID[lang]
    page.goto(f"{app.url}{ATTENTION}&lang={lang}")
    drawn(page, "attention-grid", lambda fig: len(fig["traces"]) >= 1)
    open_panel(page, "attention-patching-panel")
    assert value(page, "attention-pt-corrupted") == CORRUPTED                # the linked corrupted input
    page.wait_for_selector("#attention-pt-run", state="visible")
    assert page.is_hidden("#attention-pt-residual")                        # no empty box before it is drawn
    page.click("#attention-pt-run")
    residual = drawn(page, "attention-pt-residual", lambda fig: len(fig["traces"][0]["z"]) == 3)
    assert residual["ticks"][:4] == ["q", "7", "#", "L"] and "&" in residual["ticks"]      # the tokens, as written
    drawn(page, "attention-pt-heads")
    drawn(page, "attention-pt-positions")
    wait_until(lambda: said["answer"] in markdown(page, "attention-pt-summary"), "the patching summary")
    hover = hover_text(page, "attention-pt-residual", 0.99, 0.97, r"\d\.\d{4}")             # the last position
    assert "1.0000" in hover                                                # leaving the last block: all of it
    page.click("#attention-pt-suggest")                                     # the suggested one replaces it
    wait_until(lambda: value(page, "attention-pt-corrupted") not in ("", CORRUPTED), "the suggested corruption")
    suggested = value(page, "attention-pt-corrupted")
    assert len(suggested) == len(REPEAT) and suggested != REPEAT
    wait_until(lambda: linked(page).get("pt_corrupted") == suggested, "the suggestion in the link")

    open_panel(page, "attention-lens-panel")
    assert value(page, "attention-dla-token") == "q"                         # the linked token
    page.click("#attention-lens-run")
    drawn(page, "attention-lens-plot", lambda fig: fig["traces"][0]["type"] == "heatmap")
    bars = drawn(page, "attention-dla-plot", lambda fig: fig["traces"][0]["type"] == "bar")
    assert "L1·H0" in bars["traces"][0]["x"] and "“q”" in bars["title"]     # the linked token's logit
    wait_until(lambda: said["sum"] in markdown(page, "attention-dla-summary"), "the sum against the logit")

    open_panel(page, "attention-probes-panel")
    assert page.is_checked("#attention-pr-property input[value='offset']")  # the linked property
    page.click("#attention-pr-run")
    probes = drawn(page, "attention-pr-plot", lambda fig: len(fig["traces"]) == 4)      # + position only
    assert probes["traces"][0]["x"] == ["0", "1", "2"] and said["offset"] in probes["title"]
    wait_until(lambda: said["no_layer"] in markdown(page, "attention-pr-summary"), "the probes' sentence",
               seconds=2 * WAIT_SECONDS)
    for elem_id in (*PANEL_FIGURES, "attention-lens-plot"):
        assert title_overflow(page, elem_id) <= 1, f"the title of #{elem_id} is clipped"
    screenshot(page, screenshots, f"explaining-attention-{lang}")


SHAKESPEARE_SAID = {
    "en": {"changed": r"differs from the clean one in 1 token", "margin": r"by \d+ points",
           "position": "The position alone reads"},
    "zh-CN": {"changed": r"有 1 个词元不同", "margin": r"高出 \d+ 个百分点", "position": "只看位置就能读出"},
}


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_shakespeare_chars_first_example_is_patched_and_probed(app, page, screenshots, lang):
    """The model's own first example, no corrupted input typed: the panel finds a one-token corruption that flips
    the answer and says so; the probes print their measured margin and what the position alone reads."""
    import re
    said = SHAKESPEARE_SAID[lang]
    page.goto(f"{app.url}?view=attention&model=shakespeare-char&lang={lang}")
    drawn(page, "attention-grid", lambda fig: len(fig["traces"]) >= 1)
    open_panel(page, "attention-patching-panel")
    page.wait_for_selector("#attention-pt-run", state="visible")
    page.click("#attention-pt-run")
    drawn(page, "attention-pt-residual")
    drawn(page, "attention-pt-positions")
    wait_until(lambda: re.search(said["changed"], markdown(page, "attention-pt-summary")), "the changed token")
    assert value(page, "attention-pt-corrupted") != ""
    page.locator("#attention-patching-panel").screenshot(path=screenshots / f"patching-shakespeare-char-{lang}.png")
    open_panel(page, "attention-probes-panel")
    page.click("#attention-pr-run")
    drawn(page, "attention-pr-plot", lambda fig: len(fig["traces"]) == 4)
    wait_until(lambda: re.search(said["margin"], markdown(page, "attention-pr-summary"))
               and said["position"] in markdown(page, "attention-pr-summary"), "the probes' margin",
               seconds=2 * WAIT_SECONDS)
    page.locator("#attention-probes-panel").screenshot(path=screenshots / f"probes-shakespeare-char-{lang}.png")


def test_a_model_without_probes_offers_no_button_that_could_only_fail(app, page):
    page.goto(f"{app.url}?view=attention&model=copy&lang=en")
    drawn(page, "attention-grid")
    page.wait_for_selector("#tab-attention:not([aria-busy])")
    open_panel(page, "attention-probes-panel")
    wait_until(lambda: "No property" in markdown(page, "attention-pr-offered"), "why no probe is offered")
    assert page.is_hidden("#attention-pr-run") and page.is_hidden("#attention-pr-property")
    assert page.is_hidden("#attention-pr-plot")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_guessing_game_is_played_and_rematched_at_the_linked_step(app, page, screenshots, lang):
    said = SAID[lang]
    # English: a link naming the model and the checkpoint; Chinese: the interface's own model by itself
    fields = "&gg_step=100&lang=en&model=tang-poems-char" if lang == "en" else "&lang=zh-CN"
    page.goto(f"{app.url}?view=generate{fields}")
    page.wait_for_selector("#generate-model input", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    wait_until(lambda: page.input_value("#generate-model input") == "tang-poems-char", "the Chinese model",
               seconds=2 * WAIT_SECONDS)
    open_panel(page, "generate-game-panel")
    if lang == "en":
        assert page.is_checked("#generate-gg-step input[value='100']")      # the linked checkpoint
    else:
        page.click("#generate-gg-step label:has-text('100')")
    page.click("#generate-gg-new")
    wait_until(lambda: said["against"] in markdown(page, "generate-gg-context").replace("**", ""), "a new game")
    page.fill("#generate-gg-guess input", "春")
    page.press("#generate-gg-guess input", "Enter")
    wait_until(lambda: said["round"] in markdown(page, "generate-gg-result"), "the first round scored")
    assert page.input_value("#generate-gg-guess input") == ""
    page.click("#generate-gg-rematch")
    wait_until(lambda: said["rematch"] in markdown(page, "generate-gg-result").replace("**", ""), "the rematch")
    screenshot(page, screenshots, f"explaining-game-{lang}")


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_lesson_1_has_the_game_and_lesson_14_patches_the_induction_head(app, page, screenshots, lang):
    said = SAID[lang]
    page.goto(f"{app.url}?view=lessons&lesson=tokens&lang={lang}")
    page.wait_for_selector("#lesson-game-panel", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    if lang == "zh-CN":                        # the English model's corpus may have to be downloaded
        drawn_tab(page, "lessons", settled=False)          # pressed once the lesson has drawn
        page.click("#lesson-gg-new")
    wait_until(lambda: said["lesson_game"] in markdown(page, "lesson-gg-context").replace("**", ""), "the game")
    screenshot(page, screenshots, f"explaining-lesson-1-{lang}")
    page.goto(f"{app.url}?view=lessons&lesson=heads-form&lang={lang}")
    drawn(page, "lesson-figure-3", lambda fig: fig["traces"][0]["type"] == "heatmap")        # the residual stream
    drawn(page, "lesson-figure-4", lambda fig: fig["traces"][0]["type"] == "heatmap")        # each head
    drawn(page, "lesson-figure-5", lambda fig: fig["traces"][0]["type"] == "bar")            # attribution
    assert not page.is_visible("#lesson-game-panel")
    wait_until(lambda: said["answer"] in markdown(page, "lesson-notes"), "the patching note")
    screenshot(page, screenshots, f"explaining-lesson-14-{lang}")
