"""Controls that more than one tab uses, declared once with the code that updates them."""
from __future__ import annotations

import gradio as gr

from playground.model import ACTIVATIONS, ARCHITECTURES, NORM_PLACEMENTS, NORM_TYPES, POSITIONAL_ENCODINGS, ModelConfig
from playground.train.recipes import llm_form_values

from ..text.i18n import label
from ..text.math import with_mathml


def shown_if(flag: bool) -> bool | str:
    """`visible=` for a panel (gr.Group, gr.Accordion) holding static text (label()) that the page
    shows and hides. Gradio translates only the parts it has rendered: a part first rendered after a
    language switch keeps the language the page opened in. Hidden, such a panel stays rendered
    ("hidden"), out of sight. (A component updated to "hidden" stays on screen in Gradio 6.31.)"""
    return True if flag else "hidden"


def integer_slider(*args, **kwargs) -> gr.Slider:
    """A slider of whole numbers (step 1). The API lists it as an integer; a fraction sent to it
    reaches the tab's form, which refuses it by name (precision=0 would round it silently).

    The API type is set on the instance: a subclass of gr.Slider would be served as a custom
    component, which the page has no code for."""
    slider = gr.Slider(*args, step=1, **kwargs)
    listed = slider.api_info
    slider.api_info = lambda: {**listed(), "type": "integer"}
    return slider


class FormRadio(gr.Radio):
    """A radio whose value the tab's form checks (against every value the field may hold), not
    Gradio against the choices the radio shows at that moment.

    Choosing a model narrows a radio's choices to that model's (its attention kinds, their scores)
    while a second event of the same pick is already on its way with the previous model's value
    (Gradio's dropdown sends `input` twice for one pick); gr.Radio would refuse that event with its
    own English message before any handler runs. The handlers fit such a value to the model.
    The page draws it with gr.Radio's own code (the block name), and Gradio rebuilds a session's
    updated copy from this class, so the check stays off there too."""

    def get_block_name(self) -> str:
        return "radio"

    def preprocess(self, payload):
        return payload


class MathMarkdown(gr.Markdown):
    """A Markdown text whose TeX formulas ($...$, $$...$$) the page shows as MathML, which the browser
    draws itself (see text.math): a view with formulas opens without loading a typesetting script.
    Text declared with label() reaches the page already converted (i18n.I18N); text made on the
    server is converted here. Drawn with gr.Markdown's own code (the block name)."""

    def __init__(self, value=None, **kwargs):
        super().__init__(value, latex_delimiters=[], **kwargs)

    def get_block_name(self) -> str:
        return "markdown"

    def get_config(self, cls=None) -> dict:
        return super().get_config(cls or gr.Markdown)      # every gr.Markdown setting, not only this __init__'s

    def postprocess(self, value):
        return super().postprocess(with_mathml(value) if isinstance(value, str) else value)


def integer_number(value: int, **kwargs) -> gr.Number:
    """A number box of whole numbers, listed by the API as an integer; like integer_slider, a fraction
    reaches the tab's form and is refused by name (precision=0 would round it silently)."""
    box = gr.Number(value, step=1, **kwargs)
    listed = box.api_info
    box.api_info = lambda: {**listed(), "type": "integer"}
    return box


CONFIG_CHOICES = {"arch": ARCHITECTURES, "positional": POSITIONAL_ENCODINGS, "norm": NORM_PLACEMENTS,
                  "activation": ACTIVATIONS, "norm_type": NORM_TYPES}
CONFIG_CHOICE_LABELS = {"arch": "arch_{}", "positional": "enc_{}", "norm": "norm_{}", "norm_type": "normtype_{}"}
CONFIG_FLAGS = ("tie_weights", "bias", "scale_embedding", "gated_ffn", "qkv_bias")
CONFIG_FRACTIONS = {"dropout": 0.05}         # fractions, by their box's step
CONFIG_LABELS = {"arch": "lbl_arch", "positional": "lbl_positional", "norm": "lbl_norm", "activation": "lbl_activation",
                 "tie_weights": "lbl_tie_weights", "bias": "lbl_bias", "scale_embedding": "lbl_scale_embedding",
                 "dropout": "lbl_train_dropout", "norm_type": "lbl_norm_type", "gated_ffn": "lbl_gated_ffn",
                 "qkv_bias": "lbl_qkv_bias"}


def model_config_controls(prefix: str, start: ModelConfig, fields: tuple[str, ...]) -> dict[str, gr.components.Component]:
    """Controls for the ModelConfig `fields`, named like the fields, set to `start` (ids PREFIX-FIELD):
    choices as radios, flags as checkboxes, fractions (dropout) as number boxes, sizes as whole-number boxes. The Architecture and Train
    tabs both build their model from these. The LLM pieces show as llm_form_values has them."""
    controls: dict[str, gr.components.Component] = {}
    values = {**start.to_dict(), **llm_form_values(start)}
    for name in fields:
        elem_id = f"{prefix}-{name.replace('_', '-')}"
        value = values[name]
        if name in CONFIG_CHOICES:
            pattern = CONFIG_CHOICE_LABELS.get(name)
            choices = [(label(pattern.format(c)), c) if pattern else c for c in CONFIG_CHOICES[name]]
            kind = gr.Dropdown if name == "positional" else gr.Radio
            controls[name] = kind(choices, value=value, label=label(CONFIG_LABELS[name]), elem_id=elem_id)
        elif name in CONFIG_FLAGS:
            controls[name] = gr.Checkbox(value, label=label(CONFIG_LABELS[name]), elem_id=elem_id)
        elif name in CONFIG_FRACTIONS:
            controls[name] = gr.Number(value, step=CONFIG_FRACTIONS[name], label=label(CONFIG_LABELS[name]),
                                       elem_id=elem_id)
        else:
            controls[name] = integer_number(value, label=label(f"lbl_cfg_{name}"), elem_id=elem_id)
    return controls


def layer_head_sliders(prefix: str) -> tuple[gr.Slider, gr.Slider]:
    """The layer and head sliders (ids PREFIX-layer, PREFIX-head), ranges set by layer_head_updates."""
    layer = integer_slider(0, 1, value=0, label=label("lbl_layer"), elem_id=f"{prefix}-layer")
    head = integer_slider(0, 1, value=0, label=label("lbl_head"), elem_id=f"{prefix}-head")
    return layer, head


def layer_head_updates(n_layers: int, n_heads: int, layer: int, head: int) -> dict[str, gr.Slider]:
    """{"layer": ..., "head": ...}: each slider's range fitted to the stack, its value kept inside.

    A one-layer (one-head) stack keeps a range of 0..1 and is not interactive (a slider of one
    value draws no track)."""
    return {
        "layer": gr.Slider(maximum=max(n_layers - 1, 1), value=min(int(layer or 0), n_layers - 1),
                           interactive=n_layers > 1),
        "head": gr.Slider(maximum=max(n_heads - 1, 1), value=min(int(head or 0), n_heads - 1),
                          interactive=n_heads > 1),
    }


def on_slide(slider: gr.Slider) -> tuple:
    """The event after which to redraw for a slider, and its options: `input` fires for a drag, the
    arrow keys and a number typed in its box (a release fires only for the pointer); "always_last"
    keeps one redraw waiting while the handle moves, for its final value."""
    return slider.input, {"trigger_mode": "always_last"}


def examples_dataset(samples: list[list], components: list[gr.components.Component], labels: list[str],
                     elem_id: str) -> gr.Dataset:
    """Examples a teacher can click, all on one page (Gradio's "Pages:" is not translated). A click is
    an event of the tab's own (its `select`, read by the tab's wiring through an adapter; see
    page.wiring.example_adapter), so loading an example and drawing it are one event."""
    return gr.Dataset(components=components, samples=samples, sample_labels=labels, label=label("lbl_examples"),
                      elem_id=elem_id, samples_per_page=max(len(samples), 1), type="index")
