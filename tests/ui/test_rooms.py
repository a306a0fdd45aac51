"""A room of any size, without a browser: how a link names the reduced view's parts, the QR code of a
link, and the page's accessible text in both languages (each tab's parts and presenter figure:
test_page_needs.py)."""
import re

import pytest
import segno

from playground.ui.page import qr
from playground.ui.page.accessibility import names_js
from playground.ui.page.export import add_svg_buttons_js
from playground.ui.page.links import PRIVATE_LINK, note_text, parse_link
from playground.ui.tabs import PAGE_NEEDS
from playground.ui.tabs.attention import AttentionForm
from playground.ui.text.i18n import STRINGS

TABS = ("attention", "generate")
FORMS = {"attention": AttentionForm}
ADDRESS = "https://example.org/?view=attention&model=copy&text=abcdefghij&layer=1&head=2&lang=en"


def test_a_link_hides_the_parts_it_names_and_notes_the_others(registry):
    page = parse_link("?view=attention&layer=1&hide=controls,scores,wings,own_model,scores", TABS, FORMS, registry,
                      PAGE_NEEDS)
    assert page.hide == ("controls", "scores", "own_model")
    assert [(error.param, error.fields["value"]) for error in page.ignored] == [("hide", "wings")]
    note = note_text(page.ignored, "en")
    assert "wings" in note and "scores" in note and "heads_off" in note        # what it could hide instead
    assert "wings" in note_text(page.ignored, "zh-CN") and "隐藏" in note_text(page.ignored, "zh-CN")


def test_a_part_of_another_tab_is_not_a_part_of_this_one(registry):
    page = parse_link("?view=generate&hide=scores", TABS, FORMS, registry, PAGE_NEEDS)
    assert page.hide == () and [error.param for error in page.ignored] == ["hide"]


def test_a_hidden_name_is_written_literally_in_the_note(registry):
    page = parse_link("?view=attention&hide=**bold**,%3Cimg%3E", TABS, FORMS, registry, PAGE_NEEDS)
    note = note_text(page.ignored, "en")
    assert "<img>" not in note and "**bold**" not in note


def test_the_qr_code_holds_the_address():
    svg = qr.qr_svg(ADDRESS)
    assert svg.startswith("<svg") and 'viewBox="0 0' in svg and "width=" not in svg.split(">")[0]
    # the drawn matrix is segno's encoding of the address: the path's dark modules, read back
    code = segno.make_qr(ADDRESS, error=qr.ERROR_CORRECTION)
    assert drawn_modules(svg) == {(x, y) for y, row in enumerate(code.matrix) for x, dark in enumerate(row) if dark}


def drawn_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules of a segno SVG (scale 1, border 4): its path is horizontal runs `M x y h n`,
    written absolute (`M`) or relative (`m`) to the previous run's end."""
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    modules, x, y = set(), 0.0, 0.0
    for command, dx, dy, run in re.findall(r"([Mm])(-?[\d.]+)[ ,](-?[\d.]+)h(\d+)", path):
        x, y = (float(dx), float(dy)) if command == "M" else (x + float(dx), y + float(dy))
        row = int(y - 0.5) - 4
        modules |= {(int(x) - 4 + k, row) for k in range(int(run))}
        x += int(run)
    return modules


def test_the_panel_shows_the_address_as_text_and_refuses_what_it_cannot_draw():
    panel, status = qr.drawn(qr.aimed_at(f"view=attention\n{ADDRESS}&text=<b>"), "en")
    assert panel.visible is True and status == ""
    shown = panel.constructor_args["value"]
    assert "&lt;b&gt;" in shown and "<b>" not in shown and "role=\"dialog\"" in shown
    panel, status = qr.drawn(qr.aimed_at(f"{PRIVATE_LINK}\n{ADDRESS}"), "zh-CN")
    assert panel.visible is False and status == STRINGS["zh-CN"]["link_private"]
    long_address = ADDRESS + "&text=" + "x" * qr.MAX_QR_CHARS
    panel, status = qr.drawn(qr.aimed_at(f"view=attention\n{long_address}"), "en")
    assert panel.visible is False and str(len(long_address)) in status
    panel, status = qr.drawn(qr.aimed_at("view=attention\njavascript:alert(1)"), "en")
    assert panel.visible is False and status == STRINGS["en"]["qr_bad_address"]


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_page_names_gradios_controls_in_each_language(lang):
    script = names_js()
    assert STRINGS[lang]["a11y_range_slider"] in script and STRINGS[lang]["a11y_reset_slider"] in script
    assert STRINGS[lang]["a11y_svg_export"] in add_svg_buttons_js({"en": STRINGS["en"]["a11y_svg_export"],
                                                                   "zh-CN": STRINGS["zh-CN"]["a11y_svg_export"]})
    assert STRINGS[lang]["common.complete"] not in ("", "common.complete")     # the live region's word
