"""The Inside the model tab in a real browser at 1280x720, opened by a link that names each
section's input: every section draws its figures, in English and in Chinese. Screenshots go to
$PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/.

The link names the pretrained models when they are shipped; without them (the tiny test models)
each section falls back to a model the app has, and the link's inputs are chosen to suit both."""
import pytest

from playground.ui.page.forms import encode_query

from .pages import CJK, WAIT_SECONDS, OnePage, drawn, markdown, screenshot, wait_until

LINK = {"view": "inside", "emb_model": "copy", "emb_token": "a", "worked_model": "copy", "worked_text": "abcd",
        "worked_site": "cross", "worked_layer": "1", "worked_head": "1", "mask_model": "copy",
        "mask_first": "abcdefg", "mask_second": "abc", "norm_model": "copy", "norm_text": "abcdef",
        "norm_layer": "0", "norm_position": "2", "fill_model": "masked-char", "fill_text": "To be, or not to b_"}
FIGURES = ("inside-emb-neighbours", "inside-emb-map", "inside-worked-vectors", "inside-worked-steps",
           "inside-mask-site-0", "inside-mask-site-1", "inside-mask-site-2", "inside-mask-padding",
           "inside-norm-vector", "inside-norm-batch", "inside-norm-residual", "inside-fill-plot")


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_a_link_opens_every_section_drawn(app, linked, screenshots, lang):
    page = linked.at(app.url + "?" + encode_query({**LINK, "lang": lang}))
    page.wait_for_selector("#tab-inside", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    for elem_id in FIGURES:
        page.locator(f"#{elem_id}").scroll_into_view_if_needed()
        fig = drawn(page, elem_id)
        assert bool(CJK.search(fig["title"])) == (lang == "zh-CN"), elem_id
    assert page.input_value("#inside-worked-text textarea") == "abcd"
    worked = markdown(page, "inside-worked-note")
    assert ("Checked against the model" if lang == "en" else "与模型") in worked
    filled = wait_until(lambda: markdown(page, "inside-fill-note"), "the filled text")
    assert "<mask>" in filled and "To be, or not to b" in filled.split("<mask>")[1]   # the tag shown, not eaten
    screenshot(page, screenshots, f"{lang}-inside")
