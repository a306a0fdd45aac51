"""A room of any size, in a real browser. Three pages are open at once, and one walk picks every
tab on each of them in turn (their figures drawn side by side) and records what the tests below
check:
- at 1280x720 in English: axe-core finds no serious or critical violation on any tab, and every
  input on screen has a name;
- presenter mode at 1280x720 (a link to Attention, then every tab): the figure each tab's link names
  is on the first screen, its text large, the header one line, the controls folded;
- on a phone (390x844, then 360x740) in Chinese: the title's words are whole, every tab is one tap
  away, nothing scrolls sideways, figures and their titles fit the screen (numbers too crowded to
  read hidden), axe-core finds no serious or critical violation (all rules but the colours'
  contrast, which the English walk checked: the colours are the same in both languages).
Then, on the same pages: the keyboard alone answers a lesson, picks a tab, moves a slider and steps
a generation, with no motion where the system asks for none; every figure saves as an SVG named
after it, with its title inside; the QR code holds the page's address; a lesson works end to end on
a phone; a link's hide= parts are hidden and stay in the address.
Screenshots go to $PLAYGROUND_SCREENSHOTS or tests/e2e/screenshots/."""
import time
from dataclasses import dataclass, field

import pytest

from playground.bench.accessibility import Audit, violations
from playground.ui.page import qr
from playground.ui.page.phone import CROWDED_CLASS, MIN_FIGURE_FONT_PX
from playground.ui.page.present import PRESENT_FONT_PX
from playground.ui.tabs import PAGE_NEEDS, VIEWS
from playground.ui.text.i18n import STRINGS

from .pages import (VIEWPORT, WAIT_SECONDS, address, apart, drawn, drawn_tab, figure, has_data, markdown, overlapping,
                    wait_until)

GPT = "untrained-gpt"                       # every installation has it: 2 layers x 4 heads
ATTENTION_LINK = f"?view=attention&model={GPT}&text=abcabcab&kind=decoder&layer=1&head=2&lang=en"
PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
COLD_MS = 2 * WAIT_SECONDS * 1000           # a cold server, or a tab drawn the first time

# Each word of the title on one line (a word broken across lines has two boxes), and the lines.
_TITLE_JS = """
() => {
  const heading = document.querySelector('#app-title h1');
  const node = heading.firstChild;
  const lines = new Set();
  const broken = [];
  for (const match of node.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(node, match.index);
    range.setEnd(node, match.index + match[0].length);
    const boxes = Array.from(range.getClientRects()).filter((box) => box.width > 0);
    if (boxes.length !== 1) broken.push(match[0]);
    boxes.forEach((box) => lines.add(Math.round(box.top)));
  }
  return {broken, lines: lines.size};
}
"""
_FONT_SIZES_JS = """(id) => Array.from(document.querySelectorAll(`#${id} .js-plotly-plot text`))
  .filter((e) => e.textContent.trim() && e.getBoundingClientRect().width > 0)
  .map((e) => parseFloat(getComputedStyle(e).fontSize))"""
# The name of every input on screen: its <label>, else its aria-label.
_INPUT_NAMES_JS = """() => Array.from(document.querySelectorAll('textarea, input:not([type=hidden])'))
  .filter((e) => e.offsetParent).map((e) => e.labels?.[0]?.innerText || e.getAttribute('aria-label') || '')"""
# The right edge of every figure on screen.
# Each figure of several panels on the tab: its width and top, its panels' plot areas, its panels' titles, its own
# title, its legend and its column labels, as boxes (left, top, right, bottom) on screen.
_PANELS_JS = """(view) => Array.from(document.querySelectorAll(`#tab-${view} .js-plotly-plot`))
  .filter((gd) => gd.querySelectorAll('.nsewdrag').length > 1 && gd.offsetParent !== null).map((gd) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const figure = box(gd.querySelector('.main-svg'));
    return {id: gd.closest('[id]').id, width: figure[2] - figure[0], top: figure[1], title: box(gd.querySelector('.gtitle')),
            panels: Array.from(gd.querySelectorAll('.nsewdrag')).map(box),
            titles: Array.from(gd.querySelectorAll('.annotation-text')).map(box),
            legend: gd.querySelector('.legend') ? box(gd.querySelector('.legend')) : null,
            ticks: Array.from(gd.querySelectorAll('[class^="x"][class$="tick"] text')).map(box).filter((b) => b[2] > b[0])};
  })"""

# Each table shown in a tab: whether it fits the screen or scrolls inside its own box, and the cells whose
# text breaks over lines (a number split mid-digit).
_TABLES_JS = """(view) => Array.from(document.querySelectorAll(`#tab-${view} .prose table`)).filter((t) => t.offsetParent)
  .map((t) => { const r = t.getBoundingClientRect(), style = getComputedStyle(t);
    const broken = Array.from(t.querySelectorAll('td')).filter((td) => {
      const range = document.createRange(); range.selectNodeContents(td);
      return new Set(Array.from(range.getClientRects()).map((b) => Math.round(b.top))).size > 1; })
      .map((td) => td.innerText);
    return {fits: r.right <= innerWidth + 1 && (t.scrollWidth <= t.clientWidth + 1 || ['auto', 'scroll'].includes(style.overflowX)),
            broken}; })"""

_FIGURE_RIGHTS_JS = """() => Array.from(document.querySelectorAll('.tabitem .js-plotly-plot'))
  .filter((g) => g.offsetParent).map((g) => g.getBoundingClientRect().right)"""
# Titles of figures on screen that run past their figure in a font larger than the smallest allowed.
_OVERFLOWING_TITLES_JS = """(smallest) => Array.from(document.querySelectorAll('.tabitem .js-plotly-plot'))
  .filter((g) => g.offsetParent).flatMap((g) => {
    const figure = g.querySelector('.main-svg').getBoundingClientRect();
    return Array.from(g.querySelectorAll('.gtitle')).filter((t) => {
      const box = t.getBoundingClientRect();
      return box.width > 0 && (box.right > figure.right + 1 || box.left < figure.left - 1)
        && parseFloat(getComputedStyle(t).fontSize) > smallest;
    }).map((t) => t.textContent);
  })"""


@dataclass
class Walk:
    """What the walk saw: the audit, the unnamed inputs by view, what presenter mode showed by view, and
    what each phone showed by (size, view)."""

    audit: Audit = field(default_factory=Audit)
    unnamed: dict = field(default_factory=dict)
    presenter: dict = field(default_factory=dict)
    phone: dict = field(default_factory=dict)
    title: dict = field(default_factory=dict)
    tabs_in_row: int = 0


def opened(browser, url: str, **options):
    """A page of a new context with `options`, at `url`, not yet waited for."""
    context = browser.new_context(**options)
    context.set_default_timeout(COLD_MS)
    page = context.new_page()
    page.goto(url, wait_until="commit")
    return page


@pytest.fixture(scope="module")
def pages(app, browser):
    """The app at 1280x720 in English on a system that asks for reduced motion, in presenter mode at
    1280x720 from a link to Attention, and on a phone (390x844, a touch screen) in Chinese: opened
    together, each once it has drawn its first tab."""
    desktop = opened(browser, f"{app.url}?lang=en", viewport=VIEWPORT, locale="en-US", reduced_motion="reduce",
                     accept_downloads=True)
    presenter = opened(browser, f"{app.url}{ATTENTION_LINK}&present=1", viewport=VIEWPORT, locale="en-US")
    phone = opened(browser, f"{app.url}?lang=zh-CN", viewport=PHONES["390x844"], locale="zh-CN", is_mobile=True,
                   has_touch=True)
    for page, first in ((desktop, "lesson-figure-0"), (presenter, "attention-head-plot"), (phone, "lesson-figure-0")):
        page.wait_for_selector(f"#{first} .js-plotly-plot")
    yield {"desktop": desktop, "presenter": presenter, "phone": phone}
    for page in (desktop, presenter, phone):
        page.context.close()


def pick(page, view: str, tap: bool = False, at_once: bool = False) -> None:
    """Pick tab `view` (a tap on a phone), without waiting for it to draw; `at_once`: a click event
    sent to the button itself, without Playwright's checks that it is visible, still and on top (on
    three busy pages they take half a second a click)."""
    button = page.locator(f"#tab-{view}-button")
    if at_once:
        button.dispatch_event("click")
    else:
        button.tap() if tap else button.click()


@pytest.fixture(scope="module")
def desktop(pages):
    """The app at 1280x720 in English (after the walk: on its last tab)."""
    return pages["desktop"]


@pytest.fixture(scope="module")
def phone(pages):
    """The app on a phone in Chinese (after the walk: on its last tab, 390x844)."""
    return pages["phone"]


def show(page, view: str, tap: bool = False) -> None:
    """Pick tab `view` and wait until it has drawn a figure."""
    pick(page, view, tap)
    drawn_tab(page, view, settled=False)


def shown(page, elem_id: str) -> dict:
    """The figure in `elem_id` once drawn: traces with values, shapes (a lesson's token spans) or
    annotations (a placeholder saying what a run will draw)."""
    def ready():
        fig = figure(page, elem_id)
        return fig if fig and (fig["shapes"] or fig["annotations"] or has_data(fig)) else None
    return wait_until(ready, f"a figure drawn in #{elem_id}")


def audit_tab(page, walk: Walk, where: str, view: str, skip: tuple[str, ...] = ()) -> None:
    """axe on the whole page at its first tab, on the tab alone after that."""
    walk.audit.add(where, violations(page, None if view == VIEWS[0] else f"#tab-{view}", skip))


def presenter_screen(page, view: str, screenshots) -> dict:
    """Where presenter mode puts tab `view`'s named figure and what else is on its first screen."""
    named = PAGE_NEEDS[view].figure
    shown(page, named)
    page.mouse.move(0, 0)
    seen = {"top": page.locator(f"#{named}").bounding_box()["y"],
            "header": page.locator("#page-header").bounding_box()["height"],
            "own_model": page.is_visible("#own-model-panel"),
            # a lab's card shows its title, which the controls' lab picker names
            "explanation": page.is_visible(f"#tab-{view} .explanation:not(#labs-card, #labs-card *)"),
            "controls_open": "controls" in PAGE_NEEDS[view].parts and page.locator(f"#{view}-controls").count() > 0
                             and page.is_visible(f"#{view}-controls .form"),
            "font_sizes": page.evaluate(_FONT_SIZES_JS, named)}
    page.screenshot(path=str(screenshots / f"present-{view}.png"))                # the first screen
    return seen


def overflowing_titles(page, seconds: float = 3.0) -> list[str]:
    """The titles that run past their figure on screen, once the page has had `seconds` to fit them
    (Plotly redraws a figure a moment after the window changes size, and the page fits it after)."""
    deadline = time.monotonic() + seconds
    while (titles := page.evaluate(_OVERFLOWING_TITLES_JS, MIN_FIGURE_FONT_PX)) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    return titles


def phone_screen(page, size: str, view: str, screenshots) -> dict:
    """What a phone of `size` shows of tab `view`."""
    seen = {"widths": page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]"),
            "figure_rights": page.evaluate(_FIGURE_RIGHTS_JS),
            "overflowing_titles": overflowing_titles(page),
            "crowded": page.locator(f"#tab-{view} .{CROWDED_CLASS}").count(),
            "panels": page.evaluate(_PANELS_JS, view)}
    page.evaluate("(id) => document.getElementById(id).scrollIntoView()", f"tab-{view}")
    page.screenshot(path=str(screenshots / f"phone-{size}-{view}.png"))
    return seen


@pytest.fixture(scope="module")
def walk(pages, screenshots) -> Walk:
    desktop, presenter, phone = pages["desktop"], pages["presenter"], pages["phone"]
    walk = Walk()
    walk.presenter["attention"] = presenter_screen(presenter, "attention", screenshots)     # as the link opened it
    walk.title = phone.evaluate(_TITLE_JS)
    walk.tabs_in_row = phone.locator(".tab-container:not(.visually-hidden) button[role=tab]").count()
    phone.screenshot(path=str(screenshots / "phone-390x844-top.png"))
    for view in VIEWS:
        walk.phone["390x844", view] = {"button": phone.locator(f"#tab-{view}-button").bounding_box()}
        pick(desktop, view, at_once=True)
        pick(phone, view, at_once=True)          # in reach of one tap: its button is on screen (`button`)
        if view != "attention":
            pick(presenter, view, at_once=True)
        if view == "generate":              # one Step draws the candidates, pressed once the tab is drawn
            drawn_tab(presenter, view, settled=False)     # (a click during a first draw: test_tab_order's)
            presenter.click("#generate-step")
        drawn_tab(desktop, view)
        audit_tab(desktop, walk, f"en {view}", view)
        walk.unnamed[view] = [name for name in desktop.evaluate(_INPUT_NAMES_JS) if not name.strip()]
        if view != "attention":
            walk.presenter[view] = presenter_screen(presenter, view, screenshots)
        drawn_tab(phone, view)
        audit_tab(phone, walk, f"zh-CN {view}", view, skip=("color-contrast",))
        walk.phone["390x844", view].update(phone_screen(phone, "390x844", view, screenshots))
    phone.set_viewport_size(PHONES["360x740"])
    phone.evaluate("() => scrollTo(0, 0)")
    phone.screenshot(path=str(screenshots / "phone-360x740-top.png"))
    for view in VIEWS:
        walk.phone["360x740", view] = {"button": phone.locator(f"#tab-{view}-button").bounding_box()}
        pick(phone, view, tap=True)             # a real tap on the smaller phone
        drawn_tab(phone, view)
        walk.phone["360x740", view].update(phone_screen(phone, "360x740", view, screenshots))
    phone.set_viewport_size(PHONES["390x844"])
    return walk


def test_no_serious_or_critical_violation_on_any_tab_in_either_language(walk):
    assert walk.audit.counts["critical"] == 0 and walk.audit.counts["serious"] == 0, walk.audit.found


def test_every_input_on_screen_has_a_name(walk):
    assert set(walk.unnamed) == set(VIEWS)
    assert {view: names for view, names in walk.unnamed.items() if names} == {}


def test_presenter_mode_puts_each_tabs_named_figure_on_the_first_screen(walk):
    assert set(walk.presenter) == set(PAGE_NEEDS) == set(VIEWS)
    for view, seen in walk.presenter.items():
        assert seen["top"] < VIEWPORT["height"] - 100, (view, seen["top"])       # its top, and more of it
        assert seen["header"] < 60, view                                         # the header on one line
        assert not seen["own_model"] and not seen["explanation"], (view, seen)
        assert seen["controls_open"] == PAGE_NEEDS[view].open_controls, (view, seen)          # Labs: what its text asks for
        assert seen["font_sizes"] and min(seen["font_sizes"]) >= PRESENT_FONT_PX, (view, seen["font_sizes"])


def test_a_phone_keeps_the_title_whole_and_every_tab_one_tap_away(walk):
    assert walk.title["broken"] == [] and walk.title["lines"] <= 2
    assert walk.tabs_in_row == len(VIEWS)                                  # none behind a "..." menu
    for (size, view), seen in walk.phone.items():
        box = seen["button"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONES[size]["width"], (size, view)


def test_a_phone_never_scrolls_sideways_and_its_figures_fit(walk):
    assert {size for size, _ in walk.phone} == set(PHONES)
    for (size, view), seen in walk.phone.items():
        scroll_width, inner_width = seen["widths"]
        assert scroll_width <= inner_width, (size, view, seen["widths"])
        assert seen["figure_rights"] and max(seen["figure_rights"]) <= PHONES[size]["width"] + 1, (size, view)
        assert seen["overflowing_titles"] == [], (size, view)
    assert walk.phone["390x844", "inside"]["crowded"] > 0      # the worked example's 16 numbers a row: colours alone


def stacked_on_a_phone(fig: dict, where) -> None:
    """A figure of several panels on a phone: each panel across most of its width, apart from the others,
    the panels' titles, the figure's title and its legend apart from each other and from the panels, and
    the panels' titles clear of the column labels (turned ones too)."""
    assert all(right - left > 0.6 * fig["width"] for left, _, right, _ in fig["panels"]), (where, fig["id"])
    assert overlapping(fig["panels"]) == [], (where, fig["id"])
    texts = [*fig["titles"], fig["title"], *([fig["legend"]] if fig["legend"] else [])]
    assert overlapping(texts) == [], (where, fig["id"])
    assert all(apart(text, panel) for text in texts for panel in fig["panels"]), (where, fig["id"])
    crossing = [(title, label) for title in fig["titles"] for label in fig["ticks"] if not apart(title, label)]
    assert crossing == [], (where, fig["id"])
    assert fig["title"][1] >= fig["top"] - 1, (where, fig["id"])                # its title's lines on it


def test_a_phone_stacks_panels_that_sit_side_by_side_with_their_titles_apart(walk):
    # Inside's worked steps, masks and LayerNorm against BatchNorm had panels a few dozen pixels wide on a
    # phone, their titles over each other and their numbers hidden
    for size in PHONES:
        figures = walk.phone[size, "inside"]["panels"]
        assert {"inside-worked-steps", "inside-mask-padding", "inside-norm-batch"} <= {f["id"] for f in figures}
        for fig in figures:
            stacked_on_a_phone(fig, size)


def test_the_keyboard_alone_answers_picks_a_tab_moves_a_slider_and_steps(desktop):
    page = desktop
    show(page, "lessons")
    transition = page.evaluate("() => getComputedStyle(document.querySelector('#tab-lessons-button'))"
                               ".transitionDuration")
    assert all(float(t.rstrip("s")) < 0.001 for t in transition.split(","))      # no motion asked, none given
    page.focus("#lesson-answer input")
    page.keyboard.press("Space")
    wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
    page.focus("#tab-lessons-button")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "tab-attention-button"
    page.keyboard.press("Enter")
    drawn_tab(page, "attention", settled=False)            # its panel is inert until drawn: focus skips it
    before = drawn(page, "attention-head-plot")["title"]
    page.focus("#attention-head input[type=range]")
    page.keyboard.press("ArrowRight")
    drawn(page, "attention-head-plot", lambda fig: fig["title"] != before)
    names = page.evaluate("() => Array.from(document.querySelectorAll('#attention-head input'))"
                          ".map((e) => e.getAttribute('aria-label'))")
    assert names == ["Head (number)", "Head (slider)"]                     # Gradio's words, the page's language
    show(page, "generate")
    before = (figure(page, "generate-candidates") or {}).get("title")      # none before the first step
    page.focus("#generate-step")
    page.keyboard.press("Enter")
    drawn(page, "generate-candidates", lambda fig: fig["title"] != before)


def test_every_figure_saves_as_an_svg_named_after_it(desktop, tmp_path):
    page = desktop
    show(page, "attention")
    fig = drawn(page, "attention-head-plot")
    wait_until(lambda: page.locator(".js-plotly-plot .svg-export").count()
               >= page.locator(".js-plotly-plot .modebar").count() > 0, "an SVG button in every toolbar")
    png_name = page.evaluate("() => document.querySelector('#attention-head-plot .js-plotly-plot')"
                             "._context.toImageButtonOptions.filename")
    page.hover("#attention-head-plot .js-plotly-plot")
    with page.expect_download() as download:
        page.click("#attention-head-plot .svg-export")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == f"{png_name}.svg" and "head_plot-L" in saved.name
    content = saved.read_text(encoding="utf-8")
    assert content.startswith("<svg") and fig["title"] in content


def test_the_qr_code_holds_the_address_of_the_view(desktop, screenshots):
    page = desktop
    page.click("#show-qr")
    page.wait_for_selector("#qr-code svg")
    shown_address = address(page)
    expected = qr.qr_svg(shown_address)                # segno's code of the address (tests/ui reads its modules back)
    drawn_path = page.get_attribute("#qr-code svg path.qrline", "d")
    assert drawn_path and f'd="{drawn_path}"' in expected
    size = page.locator("#qr-code svg").bounding_box()
    assert min(size["width"], size["height"]) >= 0.7 * VIEWPORT["height"]     # across a room
    assert markdown(page, "qr-code").startswith(shown_address)
    page.screenshot(path=str(screenshots / "qr-code.png"))
    page.keyboard.press("Escape")
    wait_until(lambda: not page.is_visible("#qr-code svg"), "the code closed by Escape")


def test_a_reduced_view_hides_what_its_link_names_and_keeps_it_in_the_address(app, desktop):
    page = desktop
    page.goto(f"{app.url}{ATTENTION_LINK}&hide=controls,scores,wings")
    drawn(page, "attention-head-plot", lambda fig: "layer 1, head 2" in fig["title"])
    assert not page.is_visible("#attention-controls") and not page.is_visible("#attention-scores")
    assert page.is_visible("#attention-grid") and page.is_visible("#attention-shapes-panel")
    note = wait_until(lambda: page.is_visible("#link-note") and markdown(page, "link-note"), "the link note")
    assert "wings" in note and "controls" not in note.split("wings")[0]
    box = page.locator("#attention-layer input[type=number]")
    box.fill("0")
    box.press("Enter")
    drawn(page, "attention-head-plot", lambda fig: "layer 0" in fig["title"])
    wait_until(lambda: "layer=0" in address(page), "the address to follow the layer")
    assert "hide=controls,scores,wings" in address(page)


def test_a_lesson_works_end_to_end_on_a_phone(phone, screenshots):
    page = phone
    page.set_viewport_size(PHONES["390x844"])
    show(page, "lessons", tap=True)
    assert markdown(page, "lesson-position").startswith(STRINGS["zh-CN"]["lesson_position"].split("{n}")[0])
    page.locator("#lesson-prediction label").nth(2).tap()
    wait_until(lambda: page.locator("#lesson-run").is_enabled(), "Run enabled by the prediction")
    page.locator("#lesson-run").tap()
    wait_until(lambda: markdown(page, "lesson-verdict"), "the verdict")
    page.locator("#lesson-answer label").nth(0).tap()
    wait_until(lambda: markdown(page, "lesson-feedback"), "the answer's feedback")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.locator("#lesson-answer").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "phone-390x844-lesson-answered.png"))
    position = markdown(page, "lesson-position")
    page.locator("#lesson-next").tap()
    wait_until(lambda: markdown(page, "lesson-position") != position, "the next lesson")
    assert "2" in markdown(page, "lesson-position")


@pytest.mark.parametrize("lesson, figures", [("attention", 2), ("masks", 3), ("block", 2)])
def test_a_lessons_figures_of_several_panels_stack_on_a_phone(phone, screenshots, lesson, figures):
    # lessons 4, 6 and 7 show Inside's figures, and lesson 7 ReLU against GELU beside its histogram
    page = phone
    page.set_viewport_size(PHONES["390x844"])
    page.goto(f"{page.url.split('?')[0]}?view=lessons&lesson={lesson}&lang=zh-CN")
    page.wait_for_selector("#tab-lessons:not([aria-busy]) #lesson-figure-0 .js-plotly-plot .main-svg",
                           timeout=2 * WAIT_SECONDS * 1000)
    shown = wait_until(lambda: (panels := page.evaluate(_PANELS_JS, "lessons")) and len(panels) >= figures
                       and all(right - left > 0.6 * fig["width"] for fig in panels for left, _, right, _ in fig["panels"])
                       and panels, "the panels stacked")
    for fig in shown:
        stacked_on_a_phone(fig, lesson)
    tables = page.evaluate(_TABLES_JS, "lessons")         # lesson 7's LayerNorm table: 7 columns of numbers
    assert all(table["fits"] and table["broken"] == [] for table in tables), tables
    page.screenshot(path=str(screenshots / f"phone-390x844-lesson-{lesson}.png"), full_page=True)
