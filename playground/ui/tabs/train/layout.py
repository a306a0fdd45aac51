"""The Train tab's components, by name (declared inside the tab's gr.Tab)."""
from __future__ import annotations

import gradio as gr

from playground.train.config import SCHEDULES

from ...page.context import AppContext
from ...inputs.validation import MAX_TRAIN_TEXT_CHARS, TRAIN_LIMITS
from ...page.widgets import MathMarkdown, integer_number, integer_slider, model_config_controls
from ...session.training import DATA_SOURCES, TASK_PRESETS, base_preset
from ...text.i18n import label
from ...views.training import SHORT_KIND, TASK_NAMES, default_view, kinds_of, score_choices
from .form import TrainForm

BUTTON_WIDTH = 90
DATA_LABELS = {"bundled": "data_bundled", "tiny_shakespeare": "data_tiny_shakespeare", "rhyme": "data_rhyme",
               "tang_poems": "data_tang_poems", "pasted": "data_pasted"}


def layout(ctx: AppContext) -> dict[str, gr.components.Component]:
    """The components by name."""
    first = TrainForm()
    first_spec = first.spec("en")
    first_view = default_view(first_spec)
    config = base_preset(first.task).model_config
    c: dict[str, gr.components.Component] = {}
    with gr.Row():
        with gr.Column(scale=2, min_width=380):
            with gr.Accordion(label("lbl_controls"), open=True, elem_id="train-controls") as c["controls"]:
                c["task"] = gr.Radio([(label(TASK_NAMES[key]), key) for key in TASK_PRESETS], value=first.task,
                                     label=label("lbl_train_task"), elem_id="train-task")
                with gr.Group(visible="hidden") as c["data_group"]:
                    c["data"] = gr.Radio([(label(DATA_LABELS[source]), source) for source in DATA_SOURCES],
                                         value=first.data, label=label("lbl_train_data"), elem_id="train-data")
                    c["block_size"] = integer_number(first.block_size, minimum=TRAIN_LIMITS["block_size"][0],
                                                     maximum=TRAIN_LIMITS["block_size"][1],
                                                     label=label("lbl_train_block"), elem_id="train-block")
                    c["pasted"] = gr.Textbox("", lines=4, max_lines=8, max_length=MAX_TRAIN_TEXT_CHARS, visible=False,
                                             label=label("lbl_train_text"), elem_id="train-text")
                    c["upload"] = gr.File(file_types=[".txt"], file_count="single", type="filepath", visible=False,
                                          label=label("lbl_train_file"), elem_id="train-file")
                with gr.Accordion(label("lbl_train_architecture"), open=True, elem_id="train-architecture"):
                    with gr.Row():
                        c["layers"] = integer_slider(*TRAIN_LIMITS["layers"], value=first.layers,
                                                     label=label("lbl_train_layers"), elem_id="train-layers")
                        c.update(model_config_controls("train", config, ("n_heads", "d_model", "d_ff")))
                    with gr.Row():
                        c.update(model_config_controls("train", config, ("positional", "norm", "activation")))
                    with gr.Row():
                        c.update(model_config_controls("train", config, ("dropout", "tie_weights", "bias")))
                    with gr.Row(elem_id="train-llm-pieces"):
                        c.update(model_config_controls("train", config, ("norm_type", "gated_ffn", "n_kv_heads",
                                                                         "rope_base", "qkv_bias")))
                with gr.Accordion(label("lbl_train_optimiser"), open=True, elem_id="train-optimiser"):
                    with gr.Row():
                        c["lr"] = gr.Number(first.lr, step=1e-4, label=label("lbl_train_lr"), elem_id="train-lr")
                        c["warmup"] = integer_number(first.warmup, label=label("lbl_train_warmup"),
                                                     elem_id="train-warmup")
                    with gr.Row():
                        c["batch_size"] = integer_slider(*TRAIN_LIMITS["batch_size"], value=first.batch_size,
                                                         label=label("lbl_train_batch"), elem_id="train-batch")
                        c["steps"] = integer_number(first.steps, label=label("lbl_train_steps"), elem_id="train-steps")
                    with gr.Row():
                        c["schedule"] = gr.Dropdown([(label(f"schedule_{s}"), s) for s in SCHEDULES],
                                                    value=first.schedule, label=label("lbl_train_schedule"),
                                                    elem_id="train-schedule")
                        c["decay_every"] = integer_number(first.decay_every, label=label("lbl_train_decay_every"),
                                                          elem_id="train-decay-every")
                        c["decay_factor"] = gr.Number(first.decay_factor, step=0.05,
                                                      label=label("lbl_train_decay_factor"),
                                                      elem_id="train-decay-factor")
                    with gr.Row():
                        c["clip"] = gr.Checkbox(first.clip, label=label("lbl_train_clip"), elem_id="train-clip")
                        c["grad_clip"] = gr.Number(first.grad_clip, step=0.1, label=label("lbl_train_clip_threshold"),
                                                   elem_id="train-clip-threshold")
                    c["schedule_plot"] = gr.Plot(show_label=False, elem_id="train-schedule-plot")
            c["estimate"] = gr.Markdown(elem_id="train-estimate")
        with gr.Column(scale=3):
            with gr.Row(elem_id="train-buttons"):
                c["start"] = gr.Button(label("btn_train_start"), variant="primary", min_width=BUTTON_WIDTH,
                                       elem_id="train-start")
                c["stop"] = gr.Button(label("btn_stop"), variant="stop", min_width=BUTTON_WIDTH, elem_id="train-stop")
                c["resume"] = gr.Button(label("btn_train_resume"), min_width=BUTTON_WIDTH, elem_id="train-resume")
                c["step"] = gr.Button(label("btn_train_step"), min_width=BUTTON_WIDTH, elem_id="train-step")
                c["reset"] = gr.Button(label("btn_reset"), min_width=BUTTON_WIDTH, elem_id="train-reset")
            c["refusal"] = gr.Markdown(elem_id="train-refusal")
            c["status"] = gr.Markdown(label("train_status_idle"), elem_id="train-status")
            c["curves"] = gr.Plot(show_label=False, elem_id="train-curves")
            c["layer_grads"] = gr.Plot(show_label=False, elem_id="train-layer-grads")
            with gr.Row():
                c["download"] = gr.DownloadButton(label("btn_train_download"), interactive=False,
                                                  elem_id="train-download")
                c["download_best"] = gr.DownloadButton(label("btn_train_download_best"), visible=False,
                                                       elem_id="train-download-best")
    with gr.Row():
        with gr.Column(scale=3):
            c["probe_kind"] = gr.Radio([(label(f"kind_{SHORT_KIND[k]}"), k) for k in kinds_of(first_spec)],
                                       value=first_view[0], label=label("lbl_train_probe_kind"),
                                       elem_id="train-probe-kind")
            c["probe"] = gr.Plot(show_label=False, elem_id="train-probe")
            c["score"] = gr.Dropdown(score_choices(first_spec, "en"), value=first_view[1], label=label("lbl_train_score"),
                                     elem_id="train-score")
            c["scores"] = gr.Plot(show_label=False, elem_id="train-scores")
        with gr.Column(scale=2):
            c["sample"] = gr.Markdown(elem_id="train-sample")
            MathMarkdown(label("train_explanation"), elem_id="train-explanation", elem_classes="explanation")
            gr.Markdown(label("train_stability_explanation"), elem_id="train-stability-explanation",
                        elem_classes="explanation")
    return c
