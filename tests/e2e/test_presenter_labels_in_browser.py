"""Presenter mode at 1280x720 with a 27-token input, in a real browser: the enlarged head's key labels stand
upright, and every tick label and the key axis's title are drawn inside the figure, the title above the
fold, in English and in Chinese; lesson 7's legends, laid out at presenter mode's text size, keep their
entries apart (and keep the figures' own size outside presenter mode); axes laid out at that size keep
their tick labels apart, clear of their title and inside the figure (long category names, a log axis
of many decades), while a grid of panels keeps its labels off its panels' titles and its key labels,
laid out at that size, apart. Screenshots go to
tests/e2e/screenshots/."""
import time
from urllib.parse import quote

import pytest

from playground.ui.page.present import PRESENT_FONT_PX
from playground.viz.theme import FONT_SIZE

from .pages import VIEWPORT, WAIT_SECONDS, OnePage, apart, drawn, overlapping, wait_until

FIT_SECONDS = 5                 # the page fits the figures' text within this of the draw

TEXT = "To be, or not to be, that i"           # 27 characters of shakespeare-char's own text

_LABELS_JS = """() => {
  const g = document.querySelector('#attention-head-plot .js-plotly-plot');
  const svg = g.querySelector('.main-svg').getBoundingClientRect();
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    svg: [svg.left, svg.top, svg.right, svg.bottom],
    angles: Array.from(g.querySelectorAll('.xtick text'), (t) => (t.getAttribute('transform') || '').includes('rotate')),
    ticks: Array.from(g.querySelectorAll('.xtick text, .ytick text'), box),
    title: Array.from(g.querySelectorAll('.g-xtitle text'), box),
  };
}"""


def inside(box, frame) -> bool:
    left, top, right, bottom = box
    return left >= frame[0] - 1 and top >= frame[1] - 1 and right <= frame[2] + 1 and bottom <= frame[3] + 1


def fits(labels: dict) -> bool:
    """The key labels upright, and the axis title and every tick label inside the figure, above the fold."""
    return bool(labels["angles"]) and not any(labels["angles"]) and bool(labels["title"]) \
        and all(inside(box, labels["svg"]) and box[3] <= VIEWPORT["height"] for box in labels["title"]) \
        and all(inside(box, labels["svg"]) for box in labels["ticks"])


def fitted_labels(page) -> dict:
    """The enlarged head's labels once they fit, or as they are FIT_SECONDS after the draw."""
    deadline = time.monotonic() + FIT_SECONDS
    while not fits(labels := page.evaluate(_LABELS_JS)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return labels


@pytest.fixture(scope="module")
def linked(browser):
    """One page for both languages' links."""
    pages = OnePage(browser)
    yield pages
    pages.close()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_presenter_keeps_a_long_inputs_key_labels_upright_and_the_axis_title_whole(app, linked, screenshots, lang):
    assert len(TEXT) == 27
    link = f"?view=attention&model=shakespeare-char&text={quote(TEXT)}&layer=1&head=2&present=1&lang={lang}"
    page = linked.at(app.url + link)
    page.wait_for_selector("#tab-attention:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    drawn(page, "attention-head-plot", lambda fig: len(fig["traces"][0]["x"]) == 27)
    if not page.get_by_text("shakespeare-char").count():            # presenter mode folds the model's control
        pytest.skip("needs the shipped shakespeare-char model")
    labels = fitted_labels(page)
    page.screenshot(path=str(screenshots / f"presenter-27-tokens-{lang}.png"))
    assert labels["angles"] and not any(labels["angles"]), "key labels rotated"
    assert labels["title"] and all(inside(box, labels["svg"]) for box in labels["title"]), labels
    assert all(box[3] <= VIEWPORT["height"] for box in labels["title"]), "the axis title below the fold"
    assert all(inside(box, labels["svg"]) for box in labels["ticks"])


# Each drawn legend: the size Plotly laid it out at, and its entries' boxes (their text and symbol) on screen.
_LEGENDS_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter((g) => g.offsetParent !== null && g._fullLayout && g._fullLayout.showlegend)
  .map((g) => ({
    size: g._fullLayout.legend.font.size,
    entries: Array.from(g.querySelectorAll('.legend .traces'), (e) => {
      const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];
    }),
  }))"""


@pytest.mark.parametrize("present", [True, False])
def test_presenter_lays_legends_out_at_its_text_size_so_their_entries_stay_apart(app, linked, screenshots, present):
    # lesson 7: the CSS enlarged the legend's text to 18 px where Plotly had spaced it for 15 ("GELU · slop")
    page = linked.at(app.url + f"?view=lessons&lesson=block&lang=en&present={int(present)}")
    page.wait_for_selector("#tab-lessons:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    size = PRESENT_FONT_PX if present else FONT_SIZE
    legends = wait_until(lambda: (shown := page.evaluate(_LEGENDS_JS)) and len(shown) >= 4
                         and all(legend["size"] == size for legend in shown) and shown,
                         f"the lesson's legends laid out at {size} px")
    page.screenshot(path=str(screenshots / f"presenter-legends-{int(present)}.png"), full_page=True)
    for legend in legends:
        assert legend["entries"] and not overlapping(legend["entries"]), legend


# The main axes of the figure in `id`: the size Plotly laid each out at, its tick labels' boxes on screen and
# whether they are turned, its title's box; and the figure's box.
_AXES_JS = """(id) => {
  const g = document.querySelector(`#${id} .js-plotly-plot`);
  const svg = g && g.querySelector('.main-svg');
  if (!svg || !g._fullLayout) return null;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const axis = (letter) => ({
    size: g._fullLayout[`${letter}axis`].tickfont.size,
    titleSize: g._fullLayout[`${letter}axis`].title.font.size,
    ticks: Array.from(g.querySelectorAll(`.${letter}axislayer-above .${letter}tick text`), box)
      .filter((b) => b[2] > b[0]),
    turned: Array.from(g.querySelectorAll(`.${letter}axislayer-above .${letter}tick text`),
                       (t) => (t.getAttribute('transform') || '').includes('rotate')).some(Boolean),
    title: Array.from(g.querySelectorAll(`.g-${letter}title text`), box),
  });
  return {svg: box(svg), x: axis('x'), y: axis('y')};
}"""

# Figures whose axes presenter mode's text crowded: Inside's residual stream (long stage names, turned),
# lesson 7's signal through 12 layers (a log axis over 12 decades), lesson 14's parts of a logit (turned).
CROWDED = {"residual": ("?view=inside&lang={lang}&present={present}", "inside", "inside-norm-residual"),
           "decades": ("?view=lessons&lesson=block&lang={lang}&present={present}", "lessons", "lesson-figure-4"),
           "logit-parts": ("?view=lessons&lesson=heads-form&lang={lang}&present={present}", "lessons", "lesson-figure-5")}


@pytest.mark.parametrize("figure, lang, present", [("residual", "en", True), ("decades", "en", True),
                                                   ("logit-parts", "en", True), ("residual", "zh-CN", True),
                                                   ("residual", "en", False)])
def test_presenter_lays_axes_out_at_its_text_size_so_their_labels_stay_apart_and_inside(app, linked, screenshots,
                                                                                        figure, lang, present):
    link, view, elem_id = CROWDED[figure]
    page = linked.at(app.url + link.format(lang=lang, present=int(present)))
    page.wait_for_selector(f"#tab-{view}:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    size = PRESENT_FONT_PX if present else FONT_SIZE
    wait_until(lambda: (shown := page.evaluate(_AXES_JS, elem_id)) and shown["x"]["ticks"]
               and all(shown[a]["size"] == size for a in "xy"), f"the tick labels of {elem_id} laid out at {size} px")
    page.wait_for_timeout(500)                        # the relayout's margins settled
    axes = page.evaluate(_AXES_JS, elem_id)
    page.locator(f"#{elem_id}").screenshot(path=str(screenshots / f"presenter-axes-{figure}-{lang}-{int(present)}.png"))
    for letter in "xy":
        axis = axes[letter]
        assert axis["ticks"] and axis["title"], (letter, axis)
        assert axis["titleSize"] >= PRESENT_FONT_PX or not present, (letter, axis["titleSize"])
        for box in axis["ticks"] + axis["title"]:
            assert inside(box, axes["svg"]), (letter, box, axes["svg"])          # nothing cut at the figure's edge
        for title in axis["title"]:
            assert all(apart(title, tick) for tick in axis["ticks"]), (letter, "a tick label on the axis title")
        if not axis["turned"]:                        # upright labels side by side (turned ones' boxes are not theirs)
            ticks = axis["ticks"]
            assert all(apart(a, b) for i, a in enumerate(ticks) for b in ticks[i + 1:]), (letter, ticks)


# The figure in `id`: the size its first axis's tick labels were laid out at, and the boxes of its tick labels,
# of its notes (a grid's panel titles), of its row labels, of its column labels, of its row titles and of its
# panels on screen.
_PANELS_JS = """(id) => {
  const g = document.querySelector(`#${id} .js-plotly-plot`);
  if (!g || !g._fullLayout) return null;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {size: g._fullLayout.xaxis.tickfont.size,
          ticks: Array.from(g.querySelectorAll('[class^="x"][class$="tick"] text, [class^="y"][class$="tick"] text'),
                            box).filter((b) => b[2] > b[0]),
          notes: Array.from(g.querySelectorAll('.annotation-text'), box).filter((b) => b[2] > b[0]),
          rows: Array.from(g.querySelectorAll('[class^="y"][class$="tick"] text'), box).filter((b) => b[2] > b[0]),
          columns: Array.from(g.querySelectorAll('[class^="x"][class$="tick"] text'), box).filter((b) => b[2] > b[0]),
          row_titles: Array.from(g.querySelectorAll('[class^="g-y"][class$="title"] text'), box)
            .filter((b) => b[2] > b[0]),
          panels: Array.from(g.querySelectorAll('.nsewdrag'), box)};
}"""


def test_presenter_leaves_a_grid_of_panels_in_place_with_no_label_on_a_panels_title(app, linked, screenshots):
    # Inside's masks: six heatmaps at fixed shares of the figure, titled above; turned to fit 18 px, their top
    # labels would run into those titles
    page = linked.at(app.url + CROWDED["residual"][0].format(lang="en", present=1))
    page.wait_for_selector("#tab-inside:not([aria-busy])", state="visible", timeout=2 * WAIT_SECONDS * 1000)
    wait_until(lambda: (shown := page.evaluate(_AXES_JS, "inside-norm-residual"))
               and shown["x"]["size"] == PRESENT_FONT_PX, "the one-plot figures laid out at presenter mode's size")
    panels = wait_until(lambda: page.evaluate(_PANELS_JS, "inside-mask-site-1"), "the masks drawn")
    page.locator("#inside-mask-site-1").screenshot(path=str(screenshots / "presenter-panels-masks-en.png"))
    assert panels["notes"] and panels["ticks"]
    assert all(apart(note, tick) for note in panels["notes"] for tick in panels["ticks"])
    # the key labels laid out at presenter mode's size (upright where they would not fit), apart from each other
    # and from every panel: laid out at the small size and enlarged, the turned <pad> labels ran together
    assert panels["size"] == PRESENT_FONT_PX and len(panels["columns"]) == 66
    assert overlapping(panels["columns"]) == []
    assert all(apart(label, panel) for label in panels["columns"] for panel in panels["panels"])
    # a row's queries are labelled once, at its left, clear of every panel and of the row's title
    assert len(panels["rows"]) == 22 and len(panels["row_titles"]) == 2 and len(panels["panels"]) == 6
    assert all(apart(label, panel) for label in panels["rows"] for panel in panels["panels"])
    assert all(apart(label, title) for label in panels["rows"] for title in panels["row_titles"])
