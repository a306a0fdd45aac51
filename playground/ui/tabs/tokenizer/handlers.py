"""The Tokenizer tab's handlers: (workspace, form, language) -> updates by component name."""
from __future__ import annotations

from ...page.refusals import refusal_figures, refusal_reason
from ...session.workspace import Workspace
from ...text.i18n import text
from .form import TokenizerForm
from ...views.tokenizer import tokenize_views

FIGURES = ("char_plot", "bpe_plot", "merges_plot")
VIEWS = ("char_plot", "bpe_plot", "counts", "merges_plot", "utf8")      # the API's outputs, in order


def draw(workspace: Workspace, form: TokenizerForm, lang: str) -> dict:
    """Both tokenizations of the text, the counts, the first merges and the UTF-8 note."""
    char_plot, bpe_plot, counts, merges_plot, utf8 = tokenize_views(form.text, form.corpus, form.vocab_size, lang)
    return {"char_plot": char_plot, "bpe_plot": bpe_plot, "counts": counts, "merges_plot": merges_plot,
            "utf8": utf8}


def refused(workspace: Workspace, form: TokenizerForm, lang: str) -> dict:
    """What the views show when the input was refused: why, instead of an earlier text's tokens."""
    reason = refusal_reason(draw, workspace, form, lang)
    return {**refusal_figures(FIGURES, reason, lang), "counts": text(lang, "refused_summary", reason=reason),
            "utf8": ""}
