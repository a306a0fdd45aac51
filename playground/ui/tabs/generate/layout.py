"""The Generate tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from ...page.context import AppContext
from ...inputs.validation import MAX_BEAM_WIDTH, MAX_INPUT_CHARS, MAX_NEW_TOKENS, TEMPERATURE_RANGE, TOP_P_RANGE
from ...page.widgets import MathMarkdown, examples_dataset, integer_number, integer_slider, layer_head_sliders
from ...session.examples import exposure_target, generate_examples
from ...text.i18n import label
from ...views.guessing import game_panel
from ...views.interventions_panels import heads_off_panel, lens_panel
from ...views.generate import DEFAULTS, REPETITION_PENALTY_RANGE, STRATEGIES

TOP_K_SLIDER_MAX = 100


def layout(ctx: AppContext) -> tuple[dict[str, gr.components.Component], list[list[str]]]:
    """The components by name, and the examples (model, prompt) that c["examples"] shows."""
    start = ctx.registry.get(ctx.registry.default(generative_only=True))
    examples = generate_examples(ctx.registry)
    first_prompt = next((e[1] for e in examples if e[0] == start.name), "")
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=3):
            with gr.Row():
                c["model"] = ctx.model_picker("generate-model", generative_only=True, label=label("lbl_model"),
                                              scale=1)
                c["prompt"] = gr.Textbox(first_prompt, label=label("lbl_prompt"), max_lines=3,
                                         max_length=MAX_INPUT_CHARS, elem_id="generate-prompt", scale=2)
            c["accepted"] = gr.Markdown(elem_id="generate-accepted", elem_classes="accepted")
            with gr.Row():
                c["step_button"] = gr.Button(label("btn_step"), variant="primary", elem_id="generate-step")
                c["run_button"] = gr.Button(label("btn_run"), elem_id="generate-run")
                c["stop_button"] = gr.Button(label("btn_stop"), variant="stop", elem_id="generate-stop")
                c["back_button"] = gr.Button(label("btn_back"), elem_id="generate-back")
                c["reset_button"] = gr.Button(label("btn_reset"), elem_id="generate-reset")
            c["output"] = gr.HighlightedText(label=label("lbl_output"), combine_adjacent=False, show_legend=True,
                                             elem_id="generate-output")
            c["status"] = gr.Markdown(elem_id="generate-status")
            c["candidates"] = gr.Plot(show_label=False, visible=False, elem_id="generate-candidates")
            c["tree"] = gr.Plot(show_label=False, visible=False, elem_id="generate-beam-tree")
        with gr.Column(scale=2):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="generate-controls") as c["controls"]:
                c["strategy"] = gr.Radio([(label(f"strategy_{s}"), s) for s in STRATEGIES],
                                         value=DEFAULTS["strategy"], label=label("lbl_strategy"),
                                         elem_id="generate-strategy")
                with gr.Row():
                    c["temperature"] = gr.Slider(*TEMPERATURE_RANGE, value=DEFAULTS["temperature"], step=0.05,
                                                 label=label("lbl_temperature"), info=label("info_temperature"),
                                                 elem_id="generate-temperature")
                    c["top_k"] = integer_slider(0, TOP_K_SLIDER_MAX, value=DEFAULTS["top_k"], label=label("lbl_top_k"),
                                                info=label("info_top_k"), elem_id="generate-top-k")
                with gr.Row():
                    c["top_p"] = gr.Slider(*TOP_P_RANGE, value=DEFAULTS["top_p"], step=0.01, label=label("lbl_top_p"),
                                           info=label("info_top_p"), elem_id="generate-top-p")
                    c["seed"] = integer_number(DEFAULTS["seed"], label=label("lbl_seed"), info=label("info_seed"),
                                               elem_id="generate-seed")
                with gr.Row():
                    c["max_new"] = integer_slider(1, MAX_NEW_TOKENS, value=DEFAULTS["max_new"],
                                                  label=label("lbl_max_new"), info=label("info_max_new"),
                                                  elem_id="generate-max-new")
                    c["beam_width"] = integer_slider(1, MAX_BEAM_WIDTH, value=DEFAULTS["beam_width"],
                                                     label=label("lbl_beam_width"), info=label("info_beam_width"),
                                                     elem_id="generate-beam-width")
                c["repetition_penalty"] = gr.Slider(*REPETITION_PENALTY_RANGE, value=DEFAULTS["repetition_penalty"],
                                                    step=0.05, label=label("lbl_repetition_penalty"),
                                                    info=label("info_repetition_penalty"),
                                                    elem_id="generate-repetition-penalty")
            c["examples"] = examples_dataset(examples, [c["model"], c["prompt"]], [f"{m} · {p!r}" for m, p in examples],
                                             "generate-examples")
            with gr.Accordion(label("lbl_explanation"), open=True, elem_id="generate-explanation-panel"):
                MathMarkdown(label("generate_explanation"), elem_id="generate-explanation", elem_classes="explanation")
    with gr.Row():
        c["token_self"] = gr.Plot(show_label=False, visible=False, elem_id="generate-token-attention")
        c["token_cross"] = gr.Plot(show_label=False, elem_id="generate-token-cross",
                                   visible=start.config.arch == "encoder_decoder")
    with gr.Row():
        with gr.Column(scale=3):
            c["filling"] = gr.Plot(show_label=False, elem_id="generate-filling")
        with gr.Column(scale=1):
            c["layer"], c["head"] = layer_head_sliders("generate")
    c.update(heads_off_panel("generate", start))
    c.update(lens_panel("generate"))
    c.update(exposure_panel(exposure_target(start, first_prompt)))
    c.update(game_panel("generate"))
    c["steps"] = gr.State(0)             # tokens generated so far (a link replays as many Step presses)
    return c, examples


def exposure_panel(target: str) -> dict[str, gr.components.Component]:
    """The closed Exposure bias accordion: the target (prefilled with `target`), the button, the
    figure and what it shows."""
    c: dict[str, gr.components.Component] = {}
    with gr.Accordion(label("lbl_xb_panel"), open=False, elem_id="generate-exposure-panel"):
        with gr.Row():
            with gr.Column(scale=3):
                with gr.Row():
                    c["xb_target"] = gr.Textbox(target, label=label("param_xb_target"), info=label("info_xb_target"),
                                                max_lines=2, max_length=MAX_INPUT_CHARS, elem_id="generate-xb-target",
                                                scale=3)
                    c["xb_run"] = gr.Button(label("btn_xb_run"), variant="primary", elem_id="generate-xb-run", scale=1)
                c["xb_plot"] = gr.Plot(show_label=False, elem_id="generate-xb-plot")
            with gr.Column(scale=2):
                c["xb_explanation"] = gr.Markdown(label("xb_explain"), elem_id="generate-xb-explanation")
    return c
