"""What a link's view looks like on screen, in a real browser, in English and in Chinese: a link outside
presenter mode scrolls to the figure it names (at 1280x720 and on a 390 px phone); Labs in presenter
mode shows the lab picker, the lab's title and "Run lab" that its text asks for; the logit lens on a
long input keeps its axis labels apart and writes tokens only in cells where they can be read.
Screenshots of each go to the screenshots folder."""
from urllib.parse import quote

import pytest

from playground.ui.page.phone import CROWDED_CLASS, MIN_CELL_FONT_PX
from playground.ui.page.present import SCROLL_MARGIN_PX

from .pages import VIEWPORT, WAIT_SECONDS, drawn, open_panel, overlapping, screenshot, wait_until

PHONE = {"width": 390, "height": 844}
HEAD_LINK = "?view=attention&model=induction&layer=1&head=0"
LONG_TEXT = "To be, or not to be, that is the question"          # 41 characters
LABS_SAID = {"en": "Run lab", "zh-CN": "运行实验"}

# Boxes of the visible tick labels of one axis and of the heatmap's cell text, in the figure in `id`.
_TEXT_BOXES_JS = """
([id, axis]) => {
  const g = document.querySelector(`#${id} .js-plotly-plot`);
  const boxes = (selector) => Array.from(g.querySelectorAll(selector))
    .filter((e) => e.getBoundingClientRect().width > 0 && e.textContent.trim())
    .map((e) => { const r = e.getBoundingClientRect();
                  return {edges: [r.left, r.top, r.right, r.bottom], size: parseFloat(getComputedStyle(e).fontSize)}; });
  return {ticks: boxes(`.${axis}tick text`), cells: boxes('.heatmap-label text'),
          crowded: g.querySelectorAll('.heatmaplayer.CROWDED').length};
}
""".replace("CROWDED", CROWDED_CLASS)


@pytest.fixture(scope="module", autouse=True)
def shipped_models(pretrained_dir):
    if not all((pretrained_dir / name).is_dir() for name in ("induction", "shakespeare-char")):
        pytest.skip("needs the shipped induction and shakespeare-char models")


def new_page(browser, viewport: dict):
    context = browser.new_context(viewport=viewport, locale="en-US")
    context.set_default_timeout(WAIT_SECONDS * 1000)
    return context.new_page()


@pytest.mark.parametrize("viewport, lang", [(VIEWPORT, "en"), (PHONE, "zh-CN")])
def test_a_link_scrolls_to_the_figure_it_names(app, browser, screenshots, viewport, lang):
    page = new_page(browser, viewport)
    page.goto(f"{app.url}{HEAD_LINK}&lang={lang}")
    drawn(page, "attention-head-plot")
    top = wait_until(lambda: page.evaluate("""() => {
        const top = document.getElementById('attention-head-plot').getBoundingClientRect().top;
        return scrollY > 0 && Math.abs(top) < 40 ? top : null; }"""), "the named figure at the top of the window",
                     seconds=2 * WAIT_SECONDS)
    assert top == pytest.approx(SCROLL_MARGIN_PX, abs=20)
    page.wait_for_timeout(1000)                              # and it stays there while the page settles
    assert page.evaluate("document.getElementById('attention-head-plot').getBoundingClientRect().top") < 100
    page.screenshot(path=str(screenshots / f"views-linked-head-{viewport['width']}-{lang}.png"))
    page.context.close()


def test_a_presenter_link_is_not_scrolled(app, browser):
    page = new_page(browser, VIEWPORT)
    page.goto(f"{app.url}{HEAD_LINK}&lang=en&present=1")
    drawn(page, "attention-head-plot")
    page.wait_for_timeout(1000)
    assert page.evaluate("scrollY") == 0                     # presenter mode has it on the first screen
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_labs_in_presenter_mode_shows_the_picker_title_and_button_its_text_names(app, browser, screenshots, lang):
    page = new_page(browser, VIEWPORT)
    page.goto(f"{app.url}?view=labs&present=1&lang={lang}")
    page.wait_for_selector("#tab-labs:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    wait_until(lambda: LABS_SAID[lang] in page.inner_text("#labs-status"), "the status naming the button")
    for selector in ("#labs-picker input", "#labs-run", "#labs-card h3"):
        box = page.locator(selector).bounding_box()
        assert box and box["height"] > 0 and box["y"] + box["height"] <= VIEWPORT["height"], selector
    assert page.inner_text("#labs-run").strip() == LABS_SAID[lang]
    assert page.locator("#labs-card p").first.is_hidden()     # the card's explanation stays hidden
    page.wait_for_selector("#labs-curves .js-plotly-plot")
    screenshot(page, screenshots, f"views-labs-present-{lang}")
    page.context.close()


@pytest.mark.parametrize("present, lang", [(False, "en"), (True, "zh-CN")])
def test_the_logit_lens_on_a_long_input_keeps_its_text_readable(app, browser, screenshots, present, lang):
    page = new_page(browser, VIEWPORT)
    link = f"?view=attention&model=shakespeare-char&text={quote(LONG_TEXT)}&lang={lang}" + ("&present=1" * present)
    page.goto(f"{app.url}{link}")
    page.wait_for_selector("#attention-grid .js-plotly-plot", timeout=2 * WAIT_SECONDS * 1000)
    open_panel(page, "attention-lens-panel")
    page.click("#attention-lens-run")
    lens = drawn(page, "attention-lens-plot", lambda fig: fig["traces"][0]["type"] == "heatmap")
    assert len(lens["traces"][0]["x"]) == len(LONG_TEXT)
    page.locator("#attention-lens-plot").scroll_into_view_if_needed()
    page.wait_for_timeout(1000)                              # the page script has checked the cell text
    boxes = page.evaluate(_TEXT_BOXES_JS, ["attention-lens-plot", "x"])
    assert boxes["ticks"] and not overlapping([box["edges"] for box in boxes["ticks"]]), \
        "the input tokens on the axis run together"
    if boxes["crowded"] == 0:                                # written in the cells: readable and apart
        assert len(boxes["cells"]) >= len(LONG_TEXT)
        assert min(box["size"] for box in boxes["cells"]) >= MIN_CELL_FONT_PX
        assert not overlapping([box["edges"] for box in boxes["cells"]])
    else:
        assert boxes["cells"] == []
    if not present:                                          # a desktop window has room for one character a cell
        assert boxes["crowded"] == 0
    drawn(page, "attention-dla-plot")                        # its long title clear of the toolbar
    page.wait_for_timeout(500)
    title_right, bar_left = page.evaluate("""() => {
        const g = document.querySelector('#attention-dla-plot .js-plotly-plot');
        return [g.querySelector('.gtitle').getBoundingClientRect().right,
                g.querySelector('.modebar').getBoundingClientRect().left]; }""")
    assert title_right <= bar_left + 1
    screenshot(page, screenshots, f"views-logit-lens-{'present' if present else 'page'}-{lang}")
    page.context.close()


# The colour behind each of the language control's parts that holds no choice, in the header.
_LANGUAGE_BACKGROUNDS_JS = """
() => {
  const control = document.getElementById('language');
  const chain = [];
  for (let e = control; e && e.id !== 'page-header'; e = e.parentElement) chain.push(getComputedStyle(e).backgroundColor);
  return chain;
}
"""


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_presenter_modes_language_switch_sits_on_the_header_without_a_grey_box(app, browser, screenshots, lang):
    page = new_page(browser, VIEWPORT)
    page.goto(f"{app.url}?view=architecture&present=1&lang={lang}")
    page.wait_for_selector("#tab-architecture:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    backgrounds = page.evaluate(_LANGUAGE_BACKGROUNDS_JS)
    assert all(colour in ("rgba(0, 0, 0, 0)", "transparent") for colour in backgrounds), backgrounds
    page.locator("#page-header").screenshot(path=str(screenshots / f"views-present-header-{lang}.png"))
    page.context.close()


def test_a_click_while_a_picked_tab_draws_meets_a_busy_pointer(app, browser):
    page = new_page(browser, VIEWPORT)
    page.goto(f"{app.url}?view=architecture&lang=en")
    page.wait_for_selector("#tab-architecture:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    assert page.evaluate("getComputedStyle(document.getElementById('tabs')).cursor") != "progress"
    cursors = page.evaluate("""async () => {
        document.getElementById('tab-tokenizer-button').click();
        const seen = [];
        for (let i = 0; i < 40 && !seen.includes('progress'); i++) {
          seen.push(getComputedStyle(document.getElementById('tabs')).cursor);
          await new Promise((done) => setTimeout(done, 5));
        }
        return seen;
    }""")
    assert "progress" in cursors                              # from the draw's first moments, before the fade
    page.wait_for_selector("#tab-tokenizer:not([aria-busy])", state="visible")
    assert page.evaluate("getComputedStyle(document.getElementById('tabs')).cursor") != "progress"
    page.context.close()


# Records every change of a panel's busy mark from before the page's own scripts run, and whether the
# page's opening had been answered by then.
RECORD_BUSY_MARKS = """(() => {
  window.busyMarks = [];
  new MutationObserver((changes) => {
    const opened = Boolean(window.playgroundDraws && window.playgroundDraws.opened);
    for (const change of changes) window.busyMarks.push([change.target.id, change.target.getAttribute('aria-busy'), opened]);
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['aria-busy']});
})()"""


def test_a_linked_tab_once_drawn_does_not_turn_busy_again(app, browser):
    """The opening's answer selects the link's tab, and Gradio then sends that tab's select event, whose
    draw has nothing to draw: the page stays as drawn, never marked busy (and faded) again."""
    page = new_page(browser, VIEWPORT)
    page.add_init_script(RECORD_BUSY_MARKS)
    page.goto(f"{app.url}?view=architecture&lang=en")
    page.wait_for_selector("#tab-architecture:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    wait_until(lambda: page.evaluate("(({opened, count, quiet}) => opened && count === 0 && !(quiet > 0))"
                                     "(window.playgroundDraws)"), "every draw of the opening ended")
    page.wait_for_timeout(1500)
    marks = page.evaluate("window.busyMarks")
    assert any(mark == "true" for _, mark, _ in marks), marks                 # the opening marked the panels
    assert [(elem_id, mark) for elem_id, mark, opened in marks if opened and mark == "true"] == [], marks
    page.context.close()


def test_an_svg_draws_a_small_heatmaps_cells_as_vectors(app, browser, tmp_path):
    page = new_page(browser, VIEWPORT)
    page.goto(f"{app.url}?view=attention&model=induction&text=abcdefghij&layer=1&head=0&lang=en")
    fig = drawn(page, "attention-head-plot")
    n = len(fig["traces"][0]["x"])
    wait_until(lambda: page.locator("#attention-head-plot .svg-export").count(), "the SVG button")
    page.hover("#attention-head-plot .js-plotly-plot")
    with page.expect_download() as download:
        page.click("#attention-head-plot .svg-export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    content = saved.read_text(encoding="utf-8")
    assert content.startswith("<svg") and fig["title"] in content
    assert "data:image/png" not in content                               # no bitmap left
    assert 'class="vector-cells"' in content and content.count("<rect") >= n * (n + 1) // 2      # causal: masked cells are empty
    assert page.evaluate("URL.createObjectURL.toString()").endswith("{ [native code] }")   # put back
    page.context.close()
