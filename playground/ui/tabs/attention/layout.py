"""The Attention tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...page.context import AppContext
from ...inputs.validation import MAX_INPUT_CHARS
from ...page.widgets import FormRadio, MathMarkdown, examples_dataset, layer_head_sliders, shown_if
from ...session.examples import attention_examples
from ...text.i18n import label
from ...views.explaining_panels import patching_panel, probes_panel
from ...views.interventions_panels import heads_off_panel, lens_panel
from ...views.attention import default_kind, kind_choices, score_choices, score_names, timeline_of


def layout(ctx: AppContext) -> tuple[dict[str, gr.components.Component], list[list[str]]]:
    """The components by name, and the examples (model, text) that c["examples"] shows."""
    start = ctx.registry.get(ctx.registry.default())
    examples = attention_examples(ctx.registry)
    first_text = next((value for name, value in examples if name == start.name), "")
    kind = default_kind(start)
    steps = timeline_of(ctx.registry, start)
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="attention-controls") as c["controls"]:
                with gr.Row():
                    c["model"] = ctx.model_picker("attention-model", label=label("lbl_model"), scale=1)
                    c["text"] = gr.Textbox(first_text, label=label("lbl_attention_text"), max_lines=2,
                                           max_length=MAX_INPUT_CHARS, elem_id="attention-text", scale=2)
                    c["target"] = gr.Textbox("", label=label("lbl_attention_target"), max_lines=2,
                                             max_length=MAX_INPUT_CHARS, elem_id="attention-target", scale=2,
                                             visible=start.model.has_encoder and start.model.has_decoder)
                c["accepted"] = gr.Markdown(elem_id="attention-accepted", elem_classes="accepted")
                with gr.Row():
                    c["kind"] = FormRadio(kind_choices(start, "en"), value=kind, label=label("lbl_attention_kind"),
                                          elem_id="attention-kind", scale=3)
                    c["run"] = gr.Button(label("btn_show_attention"), variant="primary", elem_id="attention-run",
                                         scale=1)
            c["grid"] = gr.Plot(show_label=False, elem_id="attention-grid")
        with gr.Column(scale=2):
            c["summary"] = gr.Markdown(elem_id="attention-summary")
            c["examples"] = examples_dataset(examples, [c["model"], c["text"]], [f"{m} · {v}" for m, v in examples],
                                             "attention-examples")
            with gr.Group(visible=shown_if(bool(steps)), elem_id="attention-timeline-panel") as c["timeline_panel"]:
                c["step_picker"] = gr.Radio([(str(s), s) for s in steps], value=steps[-1] if steps else None,
                                            label=label("lbl_timeline"), elem_id="attention-timeline")
                gr.Markdown(label("timeline_explanation"), elem_id="timeline-explanation",
                            elem_classes="explanation")
            MathMarkdown(label("attention_explanation"), elem_id="attention-explanation", elem_classes="explanation")
    with gr.Row():
        with gr.Column(scale=3):
            c["head_plot"] = gr.Plot(show_label=False, elem_id="attention-head-plot")
        with gr.Column(scale=2):
            c["layer"], c["head"] = layer_head_sliders("attention")
            c["mean"] = gr.Checkbox(False, label=label("lbl_mean_heads"), elem_id="attention-mean")
    with gr.Row():
        with gr.Column(scale=3):
            c["score"] = FormRadio(score_choices(kind, "en"), value=score_names(kind)[0], label=label("lbl_score"),
                                   elem_id="attention-score")
            c["scores_plot"] = gr.Plot(show_label=False, elem_id="attention-scores")
        with gr.Column(scale=2):
            c["best_heads"] = gr.Markdown(elem_id="attention-best-heads")
            c["best_button"] = gr.Button(label("btn_best_head"), elem_id="attention-best-head")
            gr.Markdown(label("scores_explanation"), elem_id="scores-explanation", elem_classes="explanation")
    with gr.Accordion(label("lbl_shapes"), open=False, elem_id="attention-shapes-panel"):
        c["shapes"] = gr.Plot(show_label=False, elem_id="attention-shapes")
    c.update(heads_off_panel("attention", start))
    c.update(lens_panel("attention"))
    c.update(patching_panel("attention"))
    c.update(probes_panel("attention"))
    c["step"] = gr.State(None)           # the timeline step shown; None = the final model
    return c, examples
