"""Presenter mode at 1280x720 with a 27-token input, in a real browser: the enlarged head's key labels stand
upright, and every tick label and the key axis's title are drawn inside the figure, the title above the
fold, in English and in Chinese. Screenshots go to tests/e2e/screenshots/."""
from urllib.parse import quote

import pytest

from .pages import VIEWPORT, drawn, open_page

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


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_presenter_keeps_a_long_inputs_key_labels_upright_and_the_axis_title_whole(app, browser, screenshots, lang):
    assert len(TEXT) == 27
    link = f"?view=attention&model=shakespeare-char&text={quote(TEXT)}&layer=1&head=2&present=1&lang={lang}"
    page = open_page(browser, app.url + link, "en-US")
    try:
        drawn(page, "attention-head-plot", lambda fig: len(fig["traces"][0]["x"]) == 27)
        if not page.get_by_text("shakespeare-char").count():            # presenter mode folds the model's control
            pytest.skip("needs the shipped shakespeare-char model")
        page.wait_for_timeout(1000)                                    # the page fits the figures' text
        page.screenshot(path=str(screenshots / f"presenter-27-tokens-{lang}.png"))
        labels = page.evaluate(_LABELS_JS)
        assert labels["angles"] and not any(labels["angles"]), "key labels rotated"
        assert labels["title"] and all(inside(box, labels["svg"]) for box in labels["title"]), labels
        assert all(box[3] <= VIEWPORT["height"] for box in labels["title"]), "the axis title below the fold"
        assert all(inside(box, labels["svg"]) for box in labels["ticks"])
    finally:
        page.context.close()
