"""Formulas as MathML: the TeX the texts use, read into the elements a browser draws by itself."""
import re
import xml.etree.ElementTree as ElementTree

import pytest

from playground.ui.course import LESSONS
from playground.ui.page.widgets import MathMarkdown
from playground.ui.tabs.lessons.views import VIEWS
from playground.ui.text.en import EN
from playground.ui.text.i18n import I18N
from playground.ui.text.math import mathml, with_mathml
from playground.ui.text.zh import ZH

from .test_lessons_markup import lesson_markdown

LANGS = ("en", "zh-CN")


def tree(element: str) -> ElementTree.Element:
    """A <math> element parsed as XML (character references decoded)."""
    return ElementTree.fromstring(element)


def shape(element: ElementTree.Element) -> str:
    """The element's tags and text as a compact string: msub(mi:d,mi:k)."""
    children = list(element)
    if not children:
        return f"{element.tag}:{element.text or ''}"
    return f"{element.tag}({','.join(shape(child) for child in children)})"


def test_scripts_fractions_and_roots_nest_as_written():
    assert shape(tree(mathml(r"\frac{QK^\top}{\sqrt{d_k}}"))) == (
        "math(mrow(mfrac(mrow(mi:Q,msup(mi:K,mi:⊤)),mrow(msqrt(mrow(msub(mi:d,mi:k)))))))")
    assert shape(tree(mathml("x_i^2"))) == "math(mrow(msubsup(mi:x,mi:i,mn:2)))"
    assert shape(tree(mathml(r"\sum_j e^{z_j}"))) == "math(mrow(munder(mo:∑,mi:j),msup(mi:e,mrow(msub(mi:z,mi:j)))))"


def test_names_text_fences_and_signs():
    assert shape(tree(mathml(r"\mathrm{softmax}\left(x\right) - 1"))) == (
        "math(mrow(mi:softmax,mrow(mo:(,mi:x,mo:)),mo:−,mn:1))")
    assert tree(mathml(r"\text{the loss}")).find("mrow/mtext").text == "the loss"
    assert tree(mathml(r"\log p")).find("mrow/mspace") is not None           # a thin space after a name
    assert tree(mathml(r"\log(p)")).find("mrow/mspace") is None
    assert tree(mathml("y", display=True)).get("display") == "block"
    assert tree(mathml("y")).get("display") is None


def test_markdown_signs_inside_a_formula_are_references():
    # "*", "_", "[", "]" and "|" would be read by Markdown as emphasis, links or a table.
    element = mathml(r"[a * b] | c")
    assert not re.search(r"[*\[\]|]", element)
    assert shape(tree(element)) == "math(mrow(mo:[,mi:a,mo:∗,mi:b,mo:],mo:|,mi:c))"


@pytest.mark.parametrize("tex, named", [(r"\unknown x", r"\unknown"), ("{x", "open"), ("x}", "never opened"),
                                        ("x^", "ends"), (r"\left( x", "open"), ("x_1_2", "two")])
def test_what_it_cannot_typeset_is_refused_by_name(tex, named):
    with pytest.raises(ValueError, match=re.escape(named)):
        mathml(tex)


def test_text_around_formulas_is_kept_and_text_without_one_is_unchanged():
    assert with_mathml("no formula, 5 < 6") == "no formula, 5 < 6"
    converted = with_mathml("a $x$ and $$y$$ b")
    assert converted.startswith("a <math>") and converted.endswith("</math> b")
    assert '<math display="block">' in converted and "$" not in converted


def converted_everywhere(text: str) -> None:
    """`text` with its formulas as MathML: no dollar, no TeX command left, every <math> well formed."""
    shown = with_mathml(text)
    assert "$" not in shown and "\\" not in shown, shown
    for element in re.findall(r"<math.*?</math>", shown, flags=re.S):
        tree(element)


@pytest.mark.parametrize("table", [EN, ZH], ids=LANGS)
def test_every_text_of_the_app_converts(table):
    for value in table.values():
        if "$" in value:
            converted_everywhere(value)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_lesson_text_converts(lesson):
    for lang in LANGS:
        for text in lesson_markdown(lesson):
            converted_everywhere(text(lang))


def test_every_lesson_view_s_note_converts(shipped_views):
    for lang in LANGS:
        for view in VIEWS.values():
            converted_everywhere(view(shipped_views, lang).note)


def test_the_page_gets_labels_and_server_text_as_mathml_and_never_loads_a_tex_renderer():
    shown = I18N.translations_dict["zh-CN"]["attention_explanation"]
    assert "<math display=\"block\">" in shown and "$" not in shown
    markdown = MathMarkdown()
    assert markdown.latex_delimiters == []
    assert "<math>" in markdown.postprocess(r"loss $e^{x}$")
