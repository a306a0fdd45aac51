"""A class session, as a teacher walks it in one browser tab at 1280x720: a link to Attention, the
layer and head moved, a lesson answered, a few steps of training, then Attention, Generate, Inside
the model and Labs visited, the language switched, another model picked and beam search run after
steps. Throughout: no error toast the user did not cause, no panel left from another model or
language, every visible colour bar's gradient resolvable at the page's address (which the page
rewrites as the view changes), every figure with data. Screenshots of each step."""
import pytest

from .pages import (
    CJK,
    address,
    colour_bars,
    drawn,
    figure,
    has_data,
    markdown,
    no_error_toast,
    open_page,
    open_tab,
    screenshot,
    wait_until,
)
from .test_links_in_browser import type_number

LINK = "?view=attention&model=copy&text=abcdefghij&kind=cross&layer=0&head=0&lang={lang}"


def bars_resolve(page) -> None:
    """Every visible colour bar's gradient resolves at the page's current address."""
    bars = colour_bars(page)
    assert bars and all(bar["resolved"] for bar in bars), bars


def in_language(lang: str, words: str) -> bool:
    return bool(CJK.search(words)) == (lang == "zh-CN")


# One walk, from English to Chinese: a Chinese page is walked tab by tab in the lessons' and the
# app's browser tests, and the switch back is the same event.
@pytest.mark.parametrize("locale, lang, other", [("en-US", "en", "zh-CN")])
def test_a_class_session_stays_coherent_across_tabs(app, browser, screenshots, locale, lang, other):
    page = open_page(browser, app.url + LINK.format(lang=lang), locale)
    try:
        drawn(page, "attention-grid")
        bars_resolve(page)
        type_number(page, "attention-layer", 1)
        wait_until(lambda: "layer=1" in address(page), "the address to follow the layer")
        type_number(page, "attention-head", 1)
        wait_until(lambda: "layer=1" in address(page) and "head=1" in address(page), "the address to follow the head")
        drawn(page, "attention-head-plot", lambda fig: "1" in fig["title"])
        bars_resolve(page)                                       # the address changed: the bars still resolve
        screenshot(page, screenshots, f"class-{lang}-1-attention")

        open_tab(page, "lessons")
        page.locator("#lesson-answer label").first.click()
        wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
        no_error_toast(page)

        open_tab(page, "train")
        wait_until(lambda: markdown(page, "train-estimate"), "the estimate")
        page.click("#train-step")
        wait_until(lambda: page.is_enabled("#train-download"), "a few steps published", seconds=120)
        no_error_toast(page)
        screenshot(page, screenshots, f"class-{lang}-2-train")

        open_tab(page, "attention")                               # the trained model, with an example it reads
        wait_until(lambda: page.input_value("#attention-model input") == "trained-copy", "the trained model shown")
        wait_until(lambda: markdown(page, "attention-summary").startswith("trained-copy"), "its summary")
        assert "trained-copy" in markdown(page, "attention-note") and in_language(lang, markdown(page, "attention-note"))
        drawn(page, "attention-grid")
        bars_resolve(page)
        no_error_toast(page)
        screenshot(page, screenshots, f"class-{lang}-3-attention-trained")

        open_tab(page, "generate")
        wait_until(lambda: page.input_value("#generate-model input") == "trained-copy", "Generate on the trained model")
        for _ in range(2):
            page.click("#generate-step")
        drawn(page, "generate-candidates")
        page.click("#generate-strategy input[value='beam']")
        wait_until(lambda: not page.is_visible("#generate-candidates"), "beam search waiting for Run")
        page.click("#generate-run")
        drawn(page, "generate-beam-tree")
        no_error_toast(page)
        screenshot(page, screenshots, f"class-{lang}-4-generate-beam")

        open_tab(page, "inside")
        for elem_id in ("inside-emb-neighbours", "inside-worked-vectors", "inside-mask-site-0", "inside-norm-vector"):
            drawn(page, elem_id)
        assert page.input_value("#inside-worked-model input") == "trained-copy"
        no_error_toast(page)
        screenshot(page, screenshots, f"class-{lang}-5-inside")

        open_tab(page, "labs")
        wait_until(lambda: markdown(page, "labs-card"), "the lab's card")
        no_error_toast(page)

        page.click(f"#language input[value='{other}']")           # the tab on screen follows at once
        wait_until(lambda: in_language(other, markdown(page, "labs-card")), "the lab's card in the new language")
        open_tab(page, "attention")                               # a hidden tab follows when it is shown
        drawn(page, "attention-grid", lambda fig: in_language(other, fig["title"]))
        bars_resolve(page)
        page.click("#attention-model input")
        page.click("[role=option][aria-label='reverse']")
        wait_until(lambda: markdown(page, "attention-summary").startswith("reverse"), "another model picked")
        drawn(page, "attention-grid", lambda fig: in_language(other, fig["title"]))
        bars_resolve(page)
        assert not page.is_visible("#attention-note")            # the note belonged to the previous drawing
        for elem_id in ("attention-grid", "attention-head-plot", "attention-scores"):
            assert has_data(figure(page, elem_id)), elem_id
        no_error_toast(page)
        screenshot(page, screenshots, f"class-{lang}-6-attention-{other}")
    finally:
        page.context.close()

