"""Labs tab: pick a lab (a classic bug or an ablation), read its question, press Run and watch the
reference and the variants train side by side on the same seed and data; then compare their
attention on the same input, read what the run showed, and compare kept results across labs.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures and texts, session.py a session's labs."""
from __future__ import annotations

import gradio as gr

from ...page.context import QUIET, AppContext, light, training
from ...page.runtime import guarded
from ...page.wiring import TabWiring, any_of, file_name, with_export
from ...views.training import SHORT_KIND
from . import handlers
from .form import LabsForm
from .layout import layout

__all__ = ["LabsForm", "build"]

FORGET_VIEWS = ("kept", "compare", "status", "summary", "reference", "compared")


def export_name(form: LabsForm, figure: str) -> str:
    """"labs-causal-mask-compared-upper_triangular-decoder-end": lab, figure and what it shows."""
    kind = SHORT_KIND.get(form.kind, form.kind)
    details = {"curves": (form.metric,), "reference": (kind, form.stage),
               "compared": (form.variant, kind, form.stage)}.get(figure, ())
    return file_name(form.VIEW, form.lab, figure, *details)


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout(ctx)
    tab = TabWiring(ctx, LabsForm, c, export_name=export_name, controls=handlers.controls, draw=handlers.draw,
                    refused=handlers.refused)
    h = handlers
    tab.on(any_of(c["lab"].input, *(c[name].input for name in h.VIEW_PICKS)), h.select_view, h.VIEWS,
           progress_on="status", api_name="labs_view", refused=h.refused, by_trigger={"lab": h.change_lab}, **QUIET)
    checked = tab.on(c["run"].click, h.check_can_run, ["status"], link=False, **QUIET)
    tab.on(checked.success, h.run, h.VIEWS, api_name="labs_run", stream=True, trains=True,
           **training(c["curves"]))
    tab.on(c["stop"].click, h.stop, ["status"], api_name="labs_stop", concurrency_id="labs-control",
           concurrency_limit=None, show_progress="hidden")
    tab.on(c["forget"].click, h.forget, FORGET_VIEWS, api_name="labs_forget", **QUIET)

    @guarded
    def compare(selected, lang, request: gr.Request):
        """The kept results ticked (run numbers) compared in one figure: the session's ticks, not the link's."""
        figure = h.compare(ctx.workspace(request), selected, lang)["compare"]
        return with_export(figure, file_name(LabsForm.VIEW, "compare"), lang)

    c["kept"].input(compare, [c["kept"], ctx.language], [c["compare"]], api_name="labs_compare",
                    **{**light(c["compare"]), **QUIET})
