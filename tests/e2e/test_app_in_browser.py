"""The app in a real browser at 1280x720: every tab draws figures that hold data, in English and in
Chinese (switched with the language control, or opened by a Chinese browser); a bad input gets
a toast that says what to change and the page keeps working. Screenshots of every tab in both
languages go to $PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/.

Inputs use the untrained models, which every installation offers (printable ASCII, up to 128
positions), so the checks do not depend on which pretrained models are shipped.
"""
import re

import pytest

from playground.ui.page.drawing import PANELS

from .pages import (
    CJK,
    choose_model,
    drawn,
    error_toast,
    figure,
    heatmap_rows,
    hover_text,
    markdown,
    open_page,
    open_panel,
    open_tab,
    screenshot,
    tab_label,
    toast_title,
    type_into,
    wait_until,
)

TABS = ("attention", "generate", "positional", "tokenizer", "architecture")
TAB_LABELS = {"en": ("Attention", "Generate", "Positional encoding", "Tokenizer", "Architecture"),
              "zh-CN": ("注意力", "生成", "位置编码", "分词器", "模型结构")}
GPT = "untrained-gpt"
TEXT = "abcabcab"                     # decoder-only attention: 8 tokens, one per character


def key_labels(fig: dict) -> list[str]:
    """The key axis of the first heatmap: "position: token" per column."""
    return fig["traces"][0]["x"]


def expected_keys(value: str) -> list[str]:
    return [f"{i}: {ch}" for i, ch in enumerate(value)]


def use_model(page, tab: str, name: str = GPT) -> None:
    """Pick `name` in the tab's model picker and wait until the tab has redrawn for it (the
    redraw also rewrites the input box, so typing before it ends would be undone)."""
    if page.input_value(f"#{tab}-model input") == name:
        return
    choose_model(page, f"{tab}-model", name)
    report = {"attention": "attention-summary", "generate": "generate-status"}[tab]
    wait_until(lambda: name in markdown(page, report), f"the {tab} tab redrawn for {name}")


def show_attention(page, value: str) -> dict:
    """Type `value` as the Attention input, press Show attention, return the redrawn grid."""
    type_into(page, "attention-text", value)
    page.click("#attention-run")
    return drawn(page, "attention-grid", lambda fig: key_labels(fig) == expected_keys(value))


def step(page, index: int, lang: str = "en") -> str:
    """Press Step; wait until the status reports step `index`; return the status."""
    page.click("#generate-step")
    prefix = f"Step {index}:" if lang == "en" else f"第 {index} 步"
    return wait_until(lambda: (s := markdown(page, "generate-status")).startswith(prefix) and s, f"step {index}")


def titled_in_chinese(fig: dict) -> bool:
    return bool(CJK.search(fig["title"]))


@pytest.fixture(scope="module")
def english(app, browser):
    page = open_page(browser, app.url, "en-US")
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def chinese(english):
    """The English page switched to Chinese with the language control, as a user does."""
    page = english
    open_tab(page, "attention")
    page.click("#language label:has-text('简体中文')")
    drawn(page, "attention-grid", titled_in_chinese)
    wait_until(lambda: [tab_label(page, key) for key in TABS] == list(TAB_LABELS["zh-CN"]), "Chinese tab labels")
    return page


def test_attention_draws_every_head_with_token_labels(english, screenshots):
    page = english
    open_tab(page, "attention")
    assert [tab_label(page, key) for key in TABS] == list(TAB_LABELS["en"])
    for elem_id in ("attention-grid", "attention-head-plot", "attention-scores"):
        drawn(page, elem_id)
    use_model(page, "attention")

    grid = show_attention(page, TEXT)
    assert len(grid["traces"]) == 2 * 4                               # 2 layers x 4 heads
    for trace in grid["traces"]:
        rows = heatmap_rows(trace)
        assert len(rows) == len(TEXT) and trace["y"] == expected_keys(TEXT)
        for i, row in enumerate(rows):                                # whole percents, causal
            assert sum(row) == pytest.approx(100, abs=len(TEXT))
            assert all(not value for value in row[i + 1:])
    head = drawn(page, "attention-head-plot", lambda fig: key_labels(fig) == expected_keys(TEXT))
    assert set(TEXT) <= set(head["ticks"])                            # token text on the axes, not indices
    for row in heatmap_rows(head["traces"][0]):
        assert sum(v or 0 for v in row) == pytest.approx(1.0, abs=1e-3)
    hover_text(page, "attention-head-plot", 0.03, 0.97, r"query: 7: b\s*key: 0: a\s*weight: \d")   # bottom-left cell
    scores = drawn(page, "attention-scores")["traces"][0]
    assert all(0 <= v <= 1 for row in heatmap_rows(scores) for v in row)
    assert (scores["zmin"], scores["zmax"]) == (0, 1)                 # equal scores, equal colours

    # The explanation's formulas are MathML the browser draws: fractions and roots laid out, no TeX left,
    # and no typesetting script loaded.
    math = page.evaluate("""() => {
      const box = document.querySelector('#attention-explanation');
      return {fractions: box.querySelectorAll('math mfrac msqrt').length, source: box.innerText.includes('$'),
              blocks: box.querySelectorAll('math[display=block]').length,
              typesetter: performance.getEntriesByType('resource').some(r => /katex|auto-render/i.test(r.name))};
    }""")
    assert math == {"fractions": 1, "source": False, "blocks": 1, "typesetter": False}

    open_panel(page, "attention-shapes-panel")
    shapes = drawn(page, "attention-shapes")
    cells = [cell for column in shapes["traces"][0]["cells"] for cell in column]
    assert f"[1, {len(TEXT)}, 64]" in cells                           # [B, T, d_model] of untrained-gpt
    screenshot(page, screenshots, "en-attention")


def test_an_input_at_the_view_limit_keeps_a_label_for_every_token(english):
    page = english
    open_tab(page, "attention")
    use_model(page, "attention")
    value = "abcdefghij" * 8                                          # 80 tokens, the view's limit
    show_attention(page, value)
    head = drawn(page, "attention-head-plot", lambda fig: key_labels(fig) == expected_keys(value))
    assert len(head["ticks"]) == 2 * len(value)                      # every query row and key column labelled
    assert head["ticks"][:len(value)] == list(value)


def test_generate_steps_back_and_shows_candidates(english, screenshots):
    page = english
    open_tab(page, "generate")
    drawn(page, "generate-filling")
    use_model(page, "generate")
    type_into(page, "generate-prompt", "abc")
    page.click("#generate-reset")
    wait_until(lambda: "the prompt (3 tokens)" in markdown(page, "generate-status"), "the new prompt read")

    status = step(page, 1)
    chosen = re.search(r"chose (.+) with probability", status).group(1)
    candidates = drawn(page, "generate-candidates", lambda fig: f"(chosen: {chosen})" in fig["title"])
    assert all(len(t["y"]) == len(candidates["traces"][0]["y"]) > 1 for t in candidates["traces"])
    assert candidates["annotations"] == ["▼ chosen"] and chosen in candidates["ticks"]   # marked, token text
    drawn(page, "generate-token-attention")
    filling = drawn(page, "generate-filling", lambda fig: len(fig["traces"][0]["y"]) == 4)   # a, b, c + 1 new row

    step(page, 2)
    grown = drawn(page, "generate-filling", lambda fig: len(fig["traces"][0]["y"]) == len(filling["traces"][0]["y"]) + 1)
    rows = heatmap_rows(grown["traces"][0])
    assert all(not v for i, row in enumerate(rows) for v in row[i + 1:])   # causal: nothing above the diagonal
    page.click("#generate-back")
    wait_until(lambda: markdown(page, "generate-status").startswith("Step 1:"), "back to step 1")
    drawn(page, "generate-candidates", lambda fig: fig["title"].startswith("Step 1:"))
    drawn(page, "generate-filling", lambda fig: len(fig["traces"][0]["y"]) == len(filling["traces"][0]["y"]))
    drawn(page, "generate-token-attention")
    screenshot(page, screenshots, "en-generate")


def test_positional_encoding_figures(english, screenshots):
    page = english
    open_tab(page, "positional")
    table = drawn(page, "pos-heatmap")
    rows = heatmap_rows(table["traces"][0])
    assert len(rows) == 64 and all(len(r) == 64 for r in rows)
    assert rows[0][0::2] == pytest.approx([0.0] * 32) and rows[0][1::2] == pytest.approx([1.0] * 32)  # sin 0, cos 0
    curves = drawn(page, "pos-curves")
    assert len(curves["traces"]) == 6 and all(len(t["y"]) == 64 for t in curves["traces"])
    similarity = heatmap_rows(drawn(page, "pos-similarity")["traces"][0])
    assert [similarity[i][i] for i in range(64)] == pytest.approx([1.0] * 64, abs=1e-5)
    drawn(page, "rope-plot")
    assert markdown(page, "pos-model-note")
    if figure(page, "pos-model-heatmap") is not None:
        drawn(page, "pos-model-heatmap")

    page.click("#shuffle-run")
    wait_until(lambda: "Shuffled" in markdown(page, "shuffle-summary"), "the shuffle summary")
    verdicts = markdown(page, "shuffle-table")
    assert verdicts.count("order is invisible") == 1 and verdicts.count("the model sees the order") == 3
    screenshot(page, screenshots, "en-positional")


def test_tokenizer_spans_merges_and_bytes(english, screenshots):
    page = english
    open_tab(page, "tokenizer")
    drawn(page, "tok-char-spans")
    value = "the cat sat on the mat. 注意"
    type_into(page, "tok-text", value)
    page.click("#tok-run")
    chars = drawn(page, "tok-char-spans", lambda fig: len(fig["traces"][0]["x"]) == len(value))   # a box per character
    boxes = [t.split("<br>")[0] for t in chars["traces"][0]["text"]]
    assert boxes[:3] == list(value[:3]) and boxes[-1] == value[-1]
    bpe = drawn(page, "tok-bpe-spans")
    assert 0 < len(bpe["traces"][0]["x"]) < len(value)                # merges make fewer tokens
    merges = drawn(page, "tok-merges")
    assert len(merges["traces"][0]["cells"][0]) > 0
    assert "E6 B3 A8" in markdown(page, "tok-utf8")                   # 注 is three UTF-8 bytes
    assert re.search(r"\d", markdown(page, "tok-counts"))
    screenshot(page, screenshots, "en-tokenizer")


def test_architecture_of_gpt2_small(english, screenshots):
    page = english
    open_tab(page, "architecture")
    treemap = drawn(page, "arch-treemap")
    assert "124,439,808" in treemap["title"]
    assert max(treemap["traces"][0]["values"]) == 124_439_808
    diagram = wait_until(lambda: (fig := figure(page, "arch-diagram")) and fig["shapes"] and fig, "the diagram")
    assert any("attention" in text.lower() for text in diagram["annotations"])
    assert "124,439,808" in markdown(page, "arch-costs")
    screenshot(page, screenshots, "en-architecture")


def test_bad_inputs_are_refused_with_a_message_and_the_page_keeps_working(english):
    page = english
    open_tab(page, "attention")
    use_model(page, "attention")

    type_into(page, "attention-text", "")
    page.click("#attention-run")
    assert toast_title(page) == "Error"
    assert error_toast(page) == "The input is empty: type some text."
    type_into(page, "attention-text", "ab" * 50)
    page.click("#attention-run")
    assert error_toast(page) == "The input is 100 tokens long; this view shows at most 80. Shorten it."
    type_into(page, "attention-text", "héllo wörld")
    page.click("#attention-run")
    message = error_toast(page)
    assert GPT in message and "'é'" in message and "'ö'" in message
    show_attention(page, "hello")

    open_tab(page, "generate")
    use_model(page, "generate")
    type_into(page, "generate-prompt", "  ")
    page.click("#generate-step")
    assert "prompt is empty" in error_toast(page)
    type_into(page, "generate-prompt", "hello")
    page.click("#generate-reset")
    step(page, 1)
    drawn(page, "generate-candidates")


def test_language_control_turns_every_tab_chinese(chinese, screenshots):
    page = chinese
    assert page.is_checked("#language input[value='zh-CN']")
    for key in TABS:
        open_tab(page, key)
        plots = {"attention": ("attention-grid", "attention-head-plot", "attention-scores"),
                 "generate": ("generate-filling",),
                 "positional": ("pos-heatmap", "pos-curves", "pos-similarity", "rope-plot"),
                 "tokenizer": ("tok-char-spans", "tok-bpe-spans", "tok-merges"),
                 "architecture": ("arch-treemap",)}[key]
        if key == "generate":
            use_model(page, "generate")
            page.click("#generate-reset")
            step(page, 1, "zh-CN")
            plots += ("generate-candidates", "generate-token-attention")
        for elem_id in plots:
            drawn(page, elem_id, titled_in_chinese)
        assert CJK.search(page.locator(f"#tab-{key} .explanation").first.inner_text())
        screenshot(page, screenshots, f"zh-CN-{key}")

    open_tab(page, "attention")
    type_into(page, "attention-text", "")
    page.click("#attention-run")
    assert toast_title(page) == "出错了"
    assert error_toast(page) == "输入是空的：请输入一些文字。"
    show_attention(page, "abc")


def test_a_chinese_browser_gets_the_chinese_page(app, browser, screenshots):
    page = open_page(browser, app.url, "zh-CN")
    try:
        drawn(page, "attention-grid", titled_in_chinese)
        assert page.is_checked("#language input[value='zh-CN']")
        assert [tab_label(page, key) for key in TABS] == list(TAB_LABELS["zh-CN"])
        assert CJK.search(markdown(page, "attention-summary"))
        screenshot(page, screenshots, "zh-CN-browser-attention")
    finally:
        page.context.close()


# Every change of a tab panel's busy mark, with whether the panel was inert then.
_BUSY_LOG_JS = """() => {
  window.busyLog = [];
  new MutationObserver((records) => records.forEach((r) => window.busyLog.push(
    [r.target.id, r.target.getAttribute('aria-busy'), r.target.inert])))
    .observe(document.querySelector('#tabs'), {subtree: true, attributes: true, attributeFilter: ['aria-busy']});
}"""


def test_a_tab_shows_while_it_is_drawn_and_stays_usable(app, browser):
    # The panel is marked busy from the pick until the draw has ended, and stays usable meanwhile: a click
    # made during the draw is applied after it, in the learner's order (test_tab_order_in_browser.py).
    page = open_page(browser, app.url, "en-US", tab="lessons")
    try:
        for view, control in (("inside", "#inside-emb-model input"), ("generate", "#generate-step")):
            page.evaluate(_BUSY_LOG_JS)
            page.click(f"#tab-{view}-button")
            page.wait_for_selector(f"#tab-{view}:not([aria-busy])", state="visible")
            marks = [(busy, inert) for panel, busy, inert in page.evaluate("window.busyLog") if panel == f"tab-{view}"]
            assert marks and marks[0] == ("true", False) and marks[-1] == (None, False), marks
            page.click(control)
            assert not page.evaluate(f"Array.from(document.querySelectorAll('{PANELS}')).some(p => p.inert)")
        page.evaluate(_BUSY_LOG_JS)
        page.click("#language label:has-text('简体中文')")          # a new language redraws the tab on screen
        page.wait_for_selector("#tab-generate:not([aria-busy])")
        wait_until(lambda: CJK.search(markdown(page, "generate-status")), "the Generate tab in Chinese")
        marks = [busy for panel, busy, _ in page.evaluate("window.busyLog") if panel == "tab-generate"]
        assert marks and marks[0] == "true" and marks[-1] is None, marks
    finally:
        page.context.close()


def test_a_tab_picked_while_another_is_drawn_is_drawn_too(app, browser):
    # Two tabs picked in quick succession, as a class on a busy server does: the second pick comes
    # while the first tab is still being drawn, and is drawn as well.
    page = open_page(browser, app.url, "en-US", tab="lessons")
    try:
        page.wait_for_selector("#tabs .tabitem:not([aria-busy])")
        page.evaluate("""() => { document.querySelector('#tab-inside-button').click();
                                 setTimeout(() => document.querySelector('#tab-generate-button').click(), 60); }""")
        status = wait_until(lambda: markdown(page, "generate-status"), "the Generate tab drawn", seconds=10)
        assert "has read the prompt" in status
        page.wait_for_selector("#tab-generate:not([aria-busy])")
        assert page.input_value("#generate-prompt textarea")
    finally:
        page.context.close()
