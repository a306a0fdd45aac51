"""Controls that more than one tab uses, declared once with the code that updates them."""
from __future__ import annotations

import gradio as gr

from .i18n import label


def integer_slider(*args, **kwargs) -> gr.Slider:
    """A slider of whole numbers (step 1). The API lists it as an integer; a fraction sent to it
    reaches the tab's form, which refuses it by name (precision=0 would round it silently).

    The API type is set on the instance: a subclass of gr.Slider would be served as a custom
    component, which the page has no code for."""
    slider = gr.Slider(*args, step=1, **kwargs)
    listed = slider.api_info
    slider.api_info = lambda: {**listed(), "type": "integer"}
    return slider


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
