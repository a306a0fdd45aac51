"""The Architecture tab's handlers: (workspace, form, language) -> updates by component name."""
from __future__ import annotations

from functools import partial

import gradio as gr

from playground.viz.notice import notice_figure

from ...forms import Refused
from ...i18n import text
from ...workspace import Workspace
from .form import ArchitectureForm
from .views import FIELDS, architecture_views

FIGURES = ("diagram", "treemap")
VIEWS = ("diagram", "treemap", "summary", "costs")             # the API's outputs, in order


def draw(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """The diagram, the parameter treemap, the summary and the cost table of the form's config."""
    diagram, treemap, summary, rows = architecture_views(form.config_values(), form.context, lang)
    headers = [text(lang, "col_quantity"), text(lang, "col_component"), text(lang, "col_value")]
    return {"diagram": diagram, "treemap": treemap, "summary": summary,
            "costs": gr.Dataframe(value=rows, headers=headers)}


def choose_preset(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """The chosen preset's config in every field, drawn."""
    chosen = form.with_preset(workspace.registry)
    return {**{name: getattr(chosen, name) for name in (*FIELDS, "context")}, **draw(workspace, chosen, lang)}


def refused(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """What the views show when the config was refused: why, instead of an earlier config's views."""
    t = partial(text, lang)
    try:
        draw(workspace, form, lang)
        reason = t("refused_other")
    except gr.Error as error:
        reason = error.message
    except Refused as error:
        reason = str(error)
    return {**{name: notice_figure(t("refused_title"), reason) for name in FIGURES},
            "summary": t("refused_summary", reason=reason), "costs": gr.Dataframe(value=[])}
