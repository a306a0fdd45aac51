"""Untrusted text placed where it could be read as markup, so that it shows exactly as written.

One rule for the whole app: a value that comes from a user, a link or a file (a token of an
uploaded vocabulary, a model's or a parameter's name, typed or generated text, an error's message
about them) reaches server-made text only through the function for the place it goes, and never
inside backticks (a backtick in the value would end the code span):

- `literal(value)`: Markdown (gr.Markdown, which renders HTML too) and HTML (the gr.Error toast).
  Every character that could start markup there is written as a character reference: HTML's
  "<", ">" and "&", Markdown's emphasis, code, link, table and heading characters, GFM's
  autolinks ("http://", "www.", "a@b"), the "$" of a formula (text.math) and line breaks. Markdown shows a reference
  as its character and never reads it as syntax; HTML and Plotly decode it too, so a message made
  with literal() fields shows the same as a toast, in a Markdown note and in a figure's notice.
  Ordinary names, numbers and words ("tiny-gpt", "0.5", "n_layers") are left as they are.
  Bidirectional controls (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates), which
  would reorder the app's own sentence around the value ("kind=<U+202E>redoced" read as "decoder"),
  are shown as their code points: "<U+202E>".
- `playground.viz.labels.plotly_text(value)` (and `visible_token` for a token): a figure's title,
  tick, hover or annotation text, where "<", ">" and "&" are escaped (viz cannot import the UI).
"""
from __future__ import annotations

import re
from typing import Mapping

_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Always special: HTML's three, backslash escapes, code spans, emphasis, links and images, strikethrough,
# tables, headings, email autolinks, formulas, line breaks. In context: "_" outside a word (inside one it
# never starts emphasis), ":" of "://" and "." of "www." (GFM's autolinks).
_MARKUP = re.compile(r"[&<>\\`*\[\]~|$#@\n\r]|(?<![^\W_])_|_(?![^\W_])|:(?=//)|(?<=[wW]{3})\.")


def _reference(match: re.Match) -> str:
    ch = match.group()
    return _NAMED.get(ch) or f"&#{ord(ch)};"


def visible_controls(value: str) -> str:
    """`value` with each bidirectional control written as its code point ("<U+202E>")."""
    return BIDI_CONTROLS.sub(lambda match: f"<U+{ord(match.group()):04X}>", value)


def literal(value) -> str:
    """`value` as text for Markdown or HTML: "<img src=x>" shows as written instead of becoming an
    image, "[a](http://b)" instead of a link, "*" or "_x_" instead of emphasis, a right-to-left
    override as "<U+202E>" instead of reversing what follows."""
    return _MARKUP.sub(_reference, visible_controls(str(value)))


def literal_fields(values: Mapping[str, object]) -> dict[str, object]:
    """A message's fields with every value but a number or a list of numbers written literally (numbers
    keep their format specs, "{p:.3f}"): for a message made of values from a user, a link or a file."""
    return {name: value if _numbers(value) else literal(value) for name, value in values.items()}


def _numbers(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(isinstance(item, (int, float)) for item in value)
    return isinstance(value, (int, float))
