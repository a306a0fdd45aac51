"""Browser test: a link to the Architecture tab's Llama-style preset fills today's LLM pieces in the
config (RMSNorm, gated feed-forward, 2 key/value heads, rotary base) and draws its treemap, the KV
cache with grouped queries beside multi-head attention, in both languages (screenshots)."""
import pytest

from .pages import WAIT_SECONDS, OnePage, drawn, screenshot

TOTAL = 7_014_656              # the llama-style-small preset's parameters (tests/ui/test_architecture_llm.py)


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang, cache_word", [("en", "4 times smaller"), ("zh-CN", "小了 4 倍")])
def test_the_llama_style_preset_shows_its_pieces_and_its_smaller_kv_cache(app, linked, screenshots, lang, cache_word):
    page = linked.at(f"{app.url}?view=architecture&preset=llama-style-small&lang={lang}")
    page.wait_for_selector("#tab-architecture:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    treemap = drawn(page, "arch-treemap", lambda fig: fig["traces"][0]["values"][0] == TOTAL)
    labels = treemap["traces"][0]["labels"]
    assert ("RMSNorms" if lang == "en" else "RMSNorm") in labels and ("gate" if lang == "en" else "门") in labels
    page.wait_for_function("(word) => document.querySelector('#arch-summary').innerText.includes(word)",
                           arg=cache_word)
    page.locator("#arch-config > button").first.click()                   # open the config's fields
    page.wait_for_selector("#arch-n-kv-heads input", state="visible")
    assert page.locator("#arch-n-kv-heads input").input_value() == "2"
    assert page.locator("#arch-rope-base input").input_value() == "10000"
    assert page.locator("#arch-gated-ffn input").is_checked()
    page.locator("#arch-llm-pieces").scroll_into_view_if_needed()
    page.locator("#arch-llm-pieces").screenshot(path=str(screenshots / f"architecture-llm-pieces-{lang}.png"))
    screenshot(page, screenshots, f"architecture-llama-preset-{lang}")
