"""English and Simplified Chinese text for the app, in two ways.

Static text (labels, buttons, explanation panels) is declared with `label(key)`: Gradio's
`gr.I18n` sends the key and the browser shows it in the page's language, which follows the
browser and the Settings menu. Text made on the server (messages, summaries, figure titles)
is made with `text(lang, key, ...)` in the session's language, which the page reports through
the language control (see `playground.ui.page.language`).
"""
from __future__ import annotations

import string

import gradio as gr
from gradio.i18n import I18nData

from .en import EN
from .math import with_mathml
from .zh import ZH

STRINGS: dict[str, dict[str, str]] = {"en": EN, "zh-CN": ZH}
LANGUAGES: dict[str, str] = {"en": "English", "zh-CN": "简体中文"}
DEFAULT_LANGUAGE = "en"

# What the browser shows of a label(): formulas already written as MathML (see math.py).
I18N = gr.I18n(**{lang: {key: with_mathml(value) for key, value in table.items()} for lang, table in STRINGS.items()})


def label(key: str) -> I18nData:
    """A static text the browser translates (a component's label, a button, a panel)."""
    if key not in EN:
        raise KeyError(f"no text with key {key!r} in playground.ui.text.en")
    return I18N(key)


def normalise_language(code: str | None) -> str:
    """"zh", "zh-CN", "zh-Hans-CN", "ZH_cn" -> "zh-CN"; every other code -> "en"."""
    if not code:
        return DEFAULT_LANGUAGE
    primary = code.strip().replace("_", "-").split("-")[0].lower()
    return "zh-CN" if primary == "zh" else DEFAULT_LANGUAGE


def language_from_accept(header: str | None) -> str:
    """The preferred supported language of an Accept-Language header ("zh-CN,zh;q=0.9,en;q=0.8")."""
    if not header:
        return DEFAULT_LANGUAGE
    ranked = []
    for position, part in enumerate(header.split(",")):
        code, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, position, code.strip()))
    for _, _, code in sorted(ranked):
        if code and code != "*" and code.split("-")[0].lower() in ("en", "zh"):
            return normalise_language(code)
    return DEFAULT_LANGUAGE


def text(lang: str, key: str, **values) -> str:
    """Server-made text in `lang` ("en" or "zh-CN"; anything else reads as English)."""
    table = STRINGS.get(lang, EN)
    template = table.get(key, EN.get(key))
    if template is None:
        raise KeyError(f"no text with key {key!r} in playground.ui.text.en")
    return template.format(**values) if values else template


def placeholders(template: str) -> set[str] | None:
    """The {names} a template fills in; None for static text whose braces are LaTeX, not fields."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return None
