"""Links in a real browser at 1280x720: a link draws the same figures as the clicks it stands for
(English and Chinese), the address follows the controls without a reload, a link with bad
parameters opens with a note naming them, presenter mode puts the main figure above the fold, and
colour bars keep their gradients as the address changes.
The presenter screenshot goes to $PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/."""
import pytest

from .pages import (
    CJK,
    address,
    choose_model,
    colour_bars,
    drawn,
    figure,
    markdown,
    no_error_toast,
    open_page,
    open_tab,
    type_into,
    wait_until,
)

GPT = "untrained-gpt"                       # every installation has it: 2 layers x 4 heads
TEXT = "abcabcab"
LINK = f"?view=attention&model={GPT}&text={TEXT}&kind=decoder&layer=1&head=2&score=induction"
FIGURES = ("attention-grid", "attention-head-plot", "attention-scores")


def drawn_for(page, title_part: str) -> dict:
    """Every figure of the Attention tab once the enlarged head's title names `title_part`."""
    drawn(page, "attention-head-plot", lambda fig: title_part in fig["title"])
    drawn(page, "attention-grid", lambda fig: len(fig["traces"][0]["x"]) == len(TEXT))
    return {elem_id: drawn(page, elem_id) for elem_id in FIGURES}


def comparable(figures: dict) -> dict:
    """Titles and heatmap values of each figure."""
    return {elem_id: (fig["title"], [trace["z"] for trace in fig["traces"]]) for elem_id, fig in figures.items()}


def type_number(page, elem_id: str, value: int) -> None:
    """Type a number into a slider's box and press Enter, as a keyboard user does."""
    box = page.locator(f"#{elem_id} input[type=number]")
    box.fill(str(value))
    box.press("Enter")


@pytest.mark.parametrize("locale, lang, head_title", [("en-US", "en", "layer 1, head 2"),
                                                       ("zh-CN", "zh-CN", "第 1 层，第 2 个头")])
def test_a_link_draws_what_the_clicks_draw(app, browser, locale, lang, head_title):
    linked = open_page(browser, f"{app.url}{LINK}&lang={lang}", locale)
    by_link = drawn_for(linked, head_title)
    assert not linked.is_visible("#link-note")
    assert "head=2" in address(linked) and f"lang={lang}" in address(linked)
    no_error_toast(linked)
    linked.context.close()

    page = open_page(browser, app.url, locale)
    visits = page.evaluate("history.length")
    choose_model(page, "attention-model", GPT)
    wait_until(lambda: GPT in markdown(page, "attention-summary"), "the tab redrawn for the model")
    type_into(page, "attention-text", TEXT)
    page.press("#attention-text textarea", "Enter")
    drawn(page, "attention-grid", lambda fig: len(fig["traces"][0]["x"]) == len(TEXT))
    type_number(page, "attention-layer", 1)
    drawn(page, "attention-head-plot", lambda fig: ("layer 1" in fig["title"]) or ("第 1 层" in fig["title"]))
    type_number(page, "attention-head", 2)
    page.click("#attention-score input[value=induction]")
    by_clicks = drawn_for(page, head_title)
    drawn(page, "attention-scores", lambda fig: fig["title"] == by_link["attention-scores"]["title"])
    by_clicks["attention-scores"] = figure(page, "attention-scores")
    assert comparable(by_clicks) == comparable(by_link)
    if lang == "zh-CN":
        assert all(CJK.search(fig["title"]) for fig in by_link.values())
    # the address followed every control in place: the same link, no reload, no history entries
    wait_until(lambda: "score=induction" in address(page), "the address to follow the score")
    assert f"model={GPT}" in address(page) and "layer=1" in address(page) and "head=2" in address(page)
    assert page.evaluate("history.length") == visits
    page.context.close()


def test_a_link_with_three_bad_parameters_opens_with_a_note(app, browser):
    page = open_page(browser, f"{app.url}?view=attention&model=nope&layer=x&colour=red", "en-US")
    note = wait_until(lambda: page.is_visible("#link-note") and markdown(page, "link-note"), "the link note")
    assert "model" in note and "nope" in note and "layer" in note and "colour" in note
    drawn(page, "attention-grid")
    assert "model=nope" not in address(page)
    page.context.close()


def test_presenter_mode_puts_the_main_figure_above_the_fold(app, browser, screenshots):
    page = open_page(browser, f"{app.url}{LINK}&present=1", "en-US")
    drawn_for(page, "layer 1, head 2")
    assert not page.is_visible("#attention-model")                      # the controls are folded away
    box = page.locator("#attention-grid .js-plotly-plot").bounding_box()
    assert box["y"] < 720 / 2 and box["y"] + 300 < 720                    # its top half is on the first screen
    sizes = page.evaluate("() => Array.from(document.querySelectorAll('#attention-grid .js-plotly-plot text'))"
                          ".filter((e) => e.textContent.trim()).map((e) => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 18
    page.mouse.move(0, 0)
    page.screenshot(path=str(screenshots / "present-attention.png"))     # the first screen only
    page.context.close()


# Every figure drawn again by Plotly, as a resize or an update of its own does.
REDRAW_ALL_JS = """() => Promise.all(Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter((plot) => plot._fullLayout).map((plot) => window.Plotly.react(plot, plot.data, plot.layout)))"""


def test_figures_first_drawn_under_another_tabs_address_keep_their_colour_bars_when_drawn_again(app, browser):
    """Each tab's figures are first drawn while the tab before's link is still in the address bar; the
    address then changes to the tab's own, and every figure drawn again afterwards still finds its colour
    bar's gradient."""
    page = open_page(browser, app.url + "?lang=en", "en-US", tab="train")
    try:
        for view, figure_id in (("attention", "attention-head-plot"), ("positional", "pos-heatmap"),
                                ("attention", "attention-grid")):
            open_tab(page, view)
            drawn(page, figure_id)
            wait_until(lambda: f"view={view}" in address(page), f"{view}'s link in the address bar")
            page.evaluate(REDRAW_ALL_JS)
            bars = colour_bars(page)
            assert bars and all(bar["resolved"] for bar in bars), (view, bars)
    finally:
        page.context.close()
