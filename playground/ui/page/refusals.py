"""What a tab shows when its input is refused: the reason, in every figure the input would have drawn,
so no figure keeps showing an earlier input; and KeptRefusals, for a panel that says why its last
event was refused."""
from __future__ import annotations

import weakref
from contextlib import contextmanager
from typing import Callable, Iterable

import gradio as gr
import plotly.graph_objects as go

from playground.checks import InputError
from playground.viz.notice import notice_figure

from ..inputs.validation import refusal_text, said
from ..text.i18n import text


def refusal_reason(draw: Callable, workspace, form, lang: str) -> str:
    """Why `draw(workspace, form, lang)` refuses the form, in `lang` (a general note when it does not)."""
    try:
        draw(workspace, form, lang)
    except gr.Error as error:
        return error.message
    except InputError as error:                  # a form's Refused, or the library's keyed refusal
        return refusal_text(error, lang)
    return text(lang, "refused_other")


def refusal_figures(names: Iterable[str], reason: str, lang: str) -> dict[str, go.Figure]:
    """A figure saying `reason` for each figure name."""
    return {name: notice_figure(text(lang, "refused_title"), reason) for name in names}


def refusal_handler(part: Callable, figures: tuple[str, ...], note: str | None = None) -> Callable:
    """A handler (workspace, form, lang) that shows why `part` refused the form: the reason in each
    of `figures` and, when given, as the refusal summary in the markdown `note`."""
    def refused(workspace, form, lang: str) -> dict:
        reason = refusal_reason(part, workspace, form, lang)
        shown = refusal_figures(figures, reason, lang)
        return {**shown, note: text(lang, "refused_summary", reason=reason)} if note else shown
    refused.__name__ = f"{part.__name__}_refused"
    return refused


class KeptRefusals:
    """The reason of each session's last refused event, kept for a failure event that shows it in a panel
    (Gradio's toast goes after a few seconds; the panel keeps it). Sessions are held weakly."""

    def __init__(self):
        self._reasons: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @contextmanager
    def keeping(self, session):
        """Run the event's work; a gr.Error it raises is kept (as a function of the language), then raised."""
        try:
            yield
        except gr.Error as error:
            self._reasons[session] = said(error)
            raise

    def taken(self, session) -> Callable[[str], str]:
        """The session's kept reason as a function of the language (a general one when none was kept),
        forgotten now."""
        return self._reasons.pop(session, None) or (lambda lang: text(lang, "refused_other"))

    def pop(self, session, lang: str) -> str:
        """The session's kept reason in `lang`, forgotten now (a general one when none was kept)."""
        return self.taken(session)(lang)
