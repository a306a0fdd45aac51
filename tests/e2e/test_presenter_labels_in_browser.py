"""Presenter mode at 1280x720 with a 27-token input, in a real browser: the enlarged head's key labels stand
upright, and every tick label and the key axis's title are drawn inside the figure, the title above the
fold, in English and in Chinese. Screenshots go to tests/e2e/screenshots/."""
import time
from urllib.parse import quote

import pytest

from .pages import VIEWPORT, WAIT_SECONDS, OnePage, drawn

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
