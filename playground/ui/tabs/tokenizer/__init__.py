"""Tokenizer tab: the same text cut by a character tokenizer and by a byte-level BPE trained live,
with coloured token spans, counts, the merges in order, and how Chinese becomes bytes.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import AppContext
from ...page.widgets import on_slide
from ...page.wiring import TabWiring, any_of, example_adapter, file_name
from . import handlers
from .form import TokenizerForm
from .layout import layout
from ...views.tokenizer import tokenize_views, utf8_note

__all__ = ["TokenizerForm", "build", "tokenize_views", "utf8_note"]


def export_name(form: TokenizerForm, figure: str) -> str:
    """"tokenizer-bpe_plot-bundled-400": view, figure, training text and vocabulary size."""
    return file_name(form.VIEW, figure, form.corpus, form.vocab_size)


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c, examples = layout()
    tab = TabWiring(ctx, TokenizerForm, c, export_name=export_name, draw=handlers.draw, refused=handlers.refused,
                    shared=True)
    trigger, options = on_slide(c["vocab_size"])
    tab.on(any_of(c["run"].click, c["text"].submit, c["corpus"].input, trigger, c["examples"].select), handlers.draw,
           [*handlers.VIEWS, "text", "corpus", "vocab_size"], api_name="tokenize", refused=handlers.refused,
           shared=True, adapt={"examples": example_adapter(examples, ("text", "corpus", "vocab_size"))}, **options)
