"""The Architecture tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...page.context import AppContext
from ...page.widgets import MathMarkdown, integer_number, model_config_controls
from ...text.i18n import label
from .form import DEFAULT_CONTEXT, GPT2
from ...views.architecture import FIELDS, GPT2_PRESET, presets

NUMBERS = ("n_encoder_layers", "n_decoder_layers", "d_model", "n_heads", "d_ff", "vocab_size", "max_len")


def layout(ctx: AppContext) -> dict[str, gr.components.Component]:
    """The components by name."""
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="architecture-controls") as c["controls"]:
                with gr.Row():
                    c["preset"] = gr.Dropdown(list(presets(ctx.registry)), value=GPT2_PRESET, label=label("lbl_preset"),
                                              elem_id="arch-preset")
                    c["context"] = integer_number(DEFAULT_CONTEXT, label=label("lbl_context_length"), elem_id="arch-context")
                c["run"] = gr.Button(label("btn_draw"), variant="primary", elem_id="arch-run")
            c["summary"] = gr.Markdown(elem_id="arch-summary")
        with gr.Column(scale=2):
            MathMarkdown(label("arch_explanation"), elem_id="arch-explanation", elem_classes="explanation")
    with gr.Accordion(label("lbl_config"), open=False, elem_id="arch-config"):
        with gr.Row():
            c.update(model_config_controls("arch", GPT2, ("arch", "positional", "norm", "activation")))
        with gr.Row():
            c.update(model_config_controls("arch", GPT2, NUMBERS))
        with gr.Row():
            c.update(model_config_controls("arch", GPT2, ("tie_weights", "bias", "scale_embedding")))
        with gr.Row(elem_id="arch-llm-pieces"):
            c.update(model_config_controls("arch", GPT2, ("norm_type", "gated_ffn", "n_kv_heads", "rope_base", "qkv_bias")))
    c["treemap"] = gr.Plot(show_label=False, elem_id="arch-treemap")
    c["diagram"] = gr.Plot(show_label=False, elem_id="arch-diagram")
    c["costs"] = gr.Dataframe(headers=["quantity", "component", "value"], interactive=False, elem_id="arch-costs")
    assert set(FIELDS) <= set(c)
    return c
