"""The Positional encoding tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...page.context import AppContext
from ...inputs.validation import MAX_INPUT_CHARS, POSITIONAL_D_MODEL_RANGE, POSITIONAL_LENGTH_RANGE
from ...page.widgets import MathMarkdown, integer_number, integer_slider
from ...text.i18n import label
from ...views.positional import (
    DEFAULT_D_MODEL,
    DEFAULT_DIMS,
    DEFAULT_LENGTH,
    DEFAULT_ROPE_DIM,
    DEFAULT_ROPE_PAIRS,
    DEFAULT_ROPE_POSITIONS,
    DEFAULT_SHUFFLE_TEXT,
    MAX_ROPE_DIM,
    MAX_ROPE_POSITIONS,
)


def layout(ctx: AppContext) -> dict[str, gr.components.Component]:
    """The components by name."""
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="positional-controls") as c["controls"]:
                with gr.Row():
                    c["d_model"] = integer_slider(*POSITIONAL_D_MODEL_RANGE, value=DEFAULT_D_MODEL,
                                                  label=label("lbl_d_model"), elem_id="pos-d-model")
                    c["length"] = integer_slider(*POSITIONAL_LENGTH_RANGE, value=DEFAULT_LENGTH,
                                                 label=label("lbl_length"), elem_id="pos-length")
                c["dims"] = gr.Dropdown(list(range(DEFAULT_D_MODEL)), value=list(DEFAULT_DIMS), multiselect=True,
                                        label=label("lbl_dims"), elem_id="pos-dims")
            c["heatmap"] = gr.Plot(show_label=False, elem_id="pos-heatmap")
        with gr.Column(scale=2):
            MathMarkdown(label("pos_explanation"), elem_id="pos-explanation", elem_classes="explanation")
    with gr.Row():
        c["curves"] = gr.Plot(show_label=False, elem_id="pos-curves")
        c["similarity"] = gr.Plot(show_label=False, elem_id="pos-similarity")

    gr.Markdown(label("pos_model_heading"))
    with gr.Row():
        c["model"] = ctx.model_picker("pos-model", label=label("lbl_model"), scale=1)
        c["model_note"] = gr.Markdown(elem_id="pos-model-note")
    with gr.Row():
        c["model_heatmap"] = gr.Plot(show_label=False, elem_id="pos-model-heatmap")
        c["model_similarity"] = gr.Plot(show_label=False, elem_id="pos-model-similarity")

    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["rope_dim"] = integer_slider(2, MAX_ROPE_DIM, value=DEFAULT_ROPE_DIM, label=label("lbl_head_dim"),
                                               elem_id="rope-dim")
                c["rope_positions"] = integer_slider(2, MAX_ROPE_POSITIONS, value=DEFAULT_ROPE_POSITIONS,
                                                     label=label("lbl_rope_positions"), elem_id="rope-positions")
            c["rope_pairs"] = gr.Dropdown(list(range(DEFAULT_ROPE_DIM // 2)), value=list(DEFAULT_ROPE_PAIRS),
                                          multiselect=True, label=label("lbl_rope_pairs"), elem_id="rope-pairs")
            c["rope_plot"] = gr.Plot(show_label=False, elem_id="rope-plot")
        with gr.Column(scale=2):
            MathMarkdown(label("rope_explanation"), elem_id="rope-explanation", elem_classes="explanation")

    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["shuffle_text"] = gr.Textbox(DEFAULT_SHUFFLE_TEXT, label=label("lbl_shuffle_text"), max_lines=1,
                                               max_length=MAX_INPUT_CHARS, elem_id="shuffle-text", scale=3)
                c["shuffle_seed"] = integer_number(0, label=label("lbl_seed"),
                                              elem_id="shuffle-seed", scale=1)
            c["shuffle_run"] = gr.Button(label("btn_shuffle"), variant="primary", elem_id="shuffle-run")
            c["shuffle_summary"] = gr.Markdown(elem_id="shuffle-summary")
        with gr.Column(scale=2):
            gr.Markdown(label("shuffle_explanation"), elem_id="shuffle-explanation", elem_classes="explanation")
    c["shuffle_table"] = gr.Dataframe(headers=["encoding", "max |difference|", "verdict"], interactive=False,
                                      elem_id="shuffle-table")
    return c
