"""The Inside the model tab's components, by name (declared inside the tab's gr.Tab): five sections,
each with its model, its input, its button, its figures and an explanation beside them."""
from __future__ import annotations

import gradio as gr

from playground.model.sites import SITES

from ...page.context import AppContext
from ...inputs.validation import MAX_INPUT_CHARS
from ...page.widgets import MathMarkdown, integer_number, integer_slider
from ...text.i18n import label
from ...views.embeddings import MAX_TOKEN_CHARS
from .form import DEFAULT_FILL_TEXT, DEFAULT_MASK_INPUTS, DEFAULT_NORM_TEXT, DEFAULT_TOKEN, DEFAULT_WORKED_TEXT


def _explanation(key: str, elem_id: str) -> None:
    MathMarkdown(label(key), elem_id=elem_id, elem_classes="explanation")


def _picker(ctx: AppContext, elem_id: str, model: str) -> gr.Dropdown:
    """A section's model picker, on `model` when it is shipped (else the registry's default)."""
    picker = ctx.model_picker(elem_id, label=label("lbl_model"), scale=1)
    if ctx.registry.get(model) is not None:
        picker.value = model
    return picker


def layout(ctx: AppContext) -> dict[str, gr.components.Component]:
    """The components by name."""
    c: dict[str, gr.components.Component] = {}
    text_box = dict(max_lines=2, max_length=MAX_INPUT_CHARS, scale=2)

    gr.Markdown(label("inside_emb_heading"), elem_id="inside-emb-heading")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["emb_model"] = _picker(ctx, "inside-emb-model", "shakespeare-char")
                c["emb_token"] = gr.Textbox(DEFAULT_TOKEN, label=label("lbl_inside_token"), max_lines=1,
                                            max_length=MAX_TOKEN_CHARS, elem_id="inside-emb-token", scale=2)
            c["emb_run"] = gr.Button(label("btn_inside_emb"), variant="primary", elem_id="inside-emb-run")
            c["emb_note"] = gr.Markdown(elem_id="inside-emb-note")
        with gr.Column(scale=2):
            _explanation("inside_emb_explanation", "inside-emb-explanation")
    with gr.Row():
        c["emb_neighbours"] = gr.Plot(show_label=False, elem_id="inside-emb-neighbours")
        c["emb_map"] = gr.Plot(show_label=False, elem_id="inside-emb-map")

    gr.Markdown(label("inside_worked_heading"), elem_id="inside-worked-heading")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["worked_model"] = _picker(ctx, "inside-worked-model", "copy")
                c["worked_text"] = gr.Textbox(DEFAULT_WORKED_TEXT, label=label("lbl_attention_text"),
                                              elem_id="inside-worked-text", **text_box)
            c["worked_site"] = gr.Radio([site.id for site in SITES], value="cross",
                                        label=label("lbl_attention_kind"), elem_id="inside-worked-site")
            with gr.Row():
                c["worked_layer"] = integer_slider(0, 1, value=0, label=label("lbl_layer"),
                                                   elem_id="inside-worked-layer")
                c["worked_head"] = integer_slider(0, 1, value=0, label=label("lbl_head"),
                                                  elem_id="inside-worked-head")
            c["worked_run"] = gr.Button(label("btn_inside_worked"), variant="primary", elem_id="inside-worked-run")
        with gr.Column(scale=2):
            _explanation("inside_worked_explanation", "inside-worked-explanation")
    c["worked_vectors"] = gr.Plot(show_label=False, elem_id="inside-worked-vectors")
    c["worked_steps"] = gr.Plot(show_label=False, elem_id="inside-worked-steps")
    c["worked_note"] = MathMarkdown(elem_id="inside-worked-note")

    gr.Markdown(label("inside_mask_heading"), elem_id="inside-mask-heading")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["mask_model"] = _picker(ctx, "inside-mask-model", "copy")
                c["mask_first"] = gr.Textbox(DEFAULT_MASK_INPUTS[0], label=label("lbl_inside_mask_first"),
                                             elem_id="inside-mask-first", **text_box)
                c["mask_second"] = gr.Textbox(DEFAULT_MASK_INPUTS[1], label=label("lbl_inside_mask_second"),
                                              elem_id="inside-mask-second", **text_box)
            c["mask_run"] = gr.Button(label("btn_inside_mask"), variant="primary", elem_id="inside-mask-run")
            c["mask_note"] = gr.Markdown(elem_id="inside-mask-note")
        with gr.Column(scale=2):
            _explanation("inside_mask_explanation", "inside-mask-explanation")
    for k in range(3):
        c[f"mask_site_{k}"] = gr.Plot(show_label=False, elem_id=f"inside-mask-site-{k}")
    c["mask_padding"] = gr.Plot(show_label=False, elem_id="inside-mask-padding")

    gr.Markdown(label("inside_norm_heading"), elem_id="inside-norm-heading")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["norm_model"] = _picker(ctx, "inside-norm-model", "shakespeare-char")
                c["norm_text"] = gr.Textbox(DEFAULT_NORM_TEXT, label=label("lbl_attention_text"),
                                            elem_id="inside-norm-text", **text_box)
            with gr.Row():
                c["norm_layer"] = integer_slider(0, 1, value=0, label=label("lbl_layer"), elem_id="inside-norm-layer")
                c["norm_position"] = integer_number(0, label=label("lbl_inside_position"),
                                                    elem_id="inside-norm-position")
            c["norm_run"] = gr.Button(label("btn_inside_norm"), variant="primary", elem_id="inside-norm-run")
        with gr.Column(scale=2):
            _explanation("inside_norm_explanation", "inside-norm-explanation")
    with gr.Row():
        c["norm_vector"] = gr.Plot(show_label=False, elem_id="inside-norm-vector")
        c["norm_note"] = gr.Markdown(elem_id="inside-norm-note")
    with gr.Row():
        c["norm_batch"] = gr.Plot(show_label=False, elem_id="inside-norm-batch")
        c["norm_batch_note"] = gr.Markdown(elem_id="inside-norm-batch-note")
    with gr.Row():
        c["norm_residual"] = gr.Plot(show_label=False, elem_id="inside-norm-residual")
        c["norm_residual_note"] = gr.Markdown(elem_id="inside-norm-residual-note")

    gr.Markdown(label("inside_fill_heading"), elem_id="inside-fill-heading")
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["fill_model"] = _picker(ctx, "inside-fill-model", "masked-char")
                c["fill_text"] = gr.Textbox(DEFAULT_FILL_TEXT, label=label("lbl_inside_fill_text"),
                                            elem_id="inside-fill-text", **text_box)
            c["fill_run"] = gr.Button(label("btn_inside_fill"), variant="primary", elem_id="inside-fill-run")
            c["fill_note"] = gr.Markdown(elem_id="inside-fill-note")
        with gr.Column(scale=2):
            _explanation("inside_fill_explanation", "inside-fill-explanation")
    c["fill_plot"] = gr.Plot(show_label=False, elem_id="inside-fill-plot")
    return c
