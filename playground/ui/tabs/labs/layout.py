"""The Labs tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...page.context import AppContext
from ...text.i18n import label
from .form import FIRST_LAB
from .handlers import Choices
from .session import LabSession
from .views import card_text, lab_choices, status_text, summary_text

BUTTON_WIDTH = 110


def layout(ctx: AppContext) -> dict[str, gr.components.Component]:
    """The components by name."""
    first = Choices(FIRST_LAB, "en")
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=2, min_width=380):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="labs-controls") as c["controls"]:
                c["lab"] = gr.Dropdown(lab_choices("en"), value=FIRST_LAB.id, label=label("lbl_lab"),
                                       elem_id="labs-picker")
                with gr.Row(elem_id="labs-buttons"):
                    c["run"] = gr.Button(label("btn_lab_run"), variant="primary", min_width=BUTTON_WIDTH,
                                         elem_id="labs-run")
                    c["stop"] = gr.Button(label("btn_stop"), variant="stop", min_width=BUTTON_WIDTH,
                                          elem_id="labs-stop")
            c["card"] = gr.Markdown(card_text(FIRST_LAB, "en"), elem_id="labs-card", elem_classes="explanation")
        with gr.Column(scale=3):
            c["status"] = gr.Markdown(status_text(LabSession(), FIRST_LAB, "en"), elem_id="labs-status")
            c["metric"] = gr.Radio(first.metrics, value=first.metric, label=label("lbl_lab_metric"),
                                   elem_id="labs-metric")
            c["curves"] = gr.Plot(show_label=False, elem_id="labs-curves")
    with gr.Row():
        c["variant"] = gr.Dropdown(first.variants, value=first.variant, label=label("lbl_lab_variant"),
                                   elem_id="labs-variant")
        c["kind"] = gr.Radio(first.kinds, value=first.kind, label=label("lbl_lab_kind"), elem_id="labs-kind")
        c["stage"] = gr.Radio(first.stages, value=first.stage, label=label("lbl_lab_stage"), elem_id="labs-stage")
    with gr.Row():
        c["reference"] = gr.Plot(show_label=False, elem_id="labs-attention-reference")
        c["compared"] = gr.Plot(show_label=False, elem_id="labs-attention-variant")
    c["summary"] = gr.Markdown(summary_text(None, FIRST_LAB, "en"), elem_id="labs-summary",
                               elem_classes="explanation")
    with gr.Row(equal_height=True):
        c["kept"] = gr.CheckboxGroup([], value=[], label=label("lbl_lab_kept"), elem_id="labs-kept", scale=4)
        c["forget"] = gr.Button(label("btn_lab_forget"), size="sm", elem_id="labs-forget", scale=1,
                                min_width=BUTTON_WIDTH)
    c["compare"] = gr.Plot(show_label=False, elem_id="labs-compare")
    gr.Markdown(label("labs_explanation"), elem_id="labs-explanation", elem_classes="explanation")
    return c
