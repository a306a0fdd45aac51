"""The Architecture tab's handlers: (workspace, form, language) -> updates by component name."""
from __future__ import annotations

import gradio as gr

from ...page.refusals import refusal_figures, refusal_reason
from ...session.workspace import Workspace
from ...text.i18n import text
from .form import ArchitectureForm
from ...views.architecture import FIELDS, architecture_views, presets

FIGURES = ("diagram", "treemap")
VIEWS = ("diagram", "treemap", "summary", "costs")             # the API's outputs, in order


def draw(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """The diagram, the parameter treemap, the summary and the cost table of the form's config."""
    diagram, treemap, summary, rows = architecture_views(form.config_values(), form.context, lang)
    headers = [text(lang, "col_quantity"), text(lang, "col_component"), text(lang, "col_value")]
    return {"diagram": diagram, "treemap": treemap, "summary": summary,
            "costs": gr.Dataframe(value=rows, headers=headers)}


def controls(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """The presets: GPT-2 small, the shared models and the session's own (uploaded, trained, from the Hub)."""
    return {"preset": gr.Dropdown(choices=list(presets(workspace.catalog)), value=form.preset)}


def choose_preset(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """The chosen preset's config in every field, drawn."""
    chosen = form.with_preset(workspace.catalog)
    return {**{name: getattr(chosen, name) for name in (*FIELDS, "context")}, **draw(workspace, chosen, lang)}


def refused(workspace: Workspace, form: ArchitectureForm, lang: str) -> dict:
    """What the views show when the config was refused: why, instead of an earlier config's views."""
    reason = refusal_reason(draw, workspace, form, lang)
    return {**refusal_figures(FIGURES, reason, lang), "summary": text(lang, "refused_summary", reason=reason),
            "costs": gr.Dataframe(value=[])}
