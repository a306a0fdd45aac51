"""Positional encoding tab: the sinusoidal table, chosen dimensions, position similarity, a model's
own position vectors, RoPE's rotating pairs, and why a model without positions is order-blind.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import AppContext
from ...page.widgets import on_slide
from ...page.wiring import TabWiring, any_of, file_name
from . import handlers
from .form import PositionalForm
from .layout import layout
from ...views.positional import model_position_views, rope_view, shuffle_demo, sinusoidal_views

__all__ = ["PositionalForm", "build", "model_position_views", "rope_view", "shuffle_demo", "sinusoidal_views"]

FIGURE_PARTS = {"heatmap": "sinusoidal", "curves": "sinusoidal", "similarity": "sinusoidal",
                "model_heatmap": "model", "model_similarity": "model", "rope_plot": "rope"}


def export_name(form: PositionalForm, figure: str) -> str:
    """"positional-heatmap-d64-T64", "positional-model_heatmap-copy", "positional-rope_plot-d16": what it shows."""
    part = FIGURE_PARTS.get(figure)
    details = {"sinusoidal": (f"d{form.d_model}", f"T{form.length}"), "model": (form.model,),
               "rope": (f"d{form.rope_dim}", f"T{form.rope_positions}")}.get(part, ())
    return file_name(form.VIEW, figure, *details)


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab): one event per part."""
    c = layout(ctx)
    tab = TabWiring(ctx, PositionalForm, c, export_name=export_name, draw=handlers.draw, shared=True)
    h = handlers
    _, options = on_slide(c["length"])
    tab.on(any_of(c["length"].input, c["dims"].input, c["d_model"].input), h.sinusoidal, (*h.SINUSOIDAL, "dims"),
           api_name="positional_sinusoidal", refused=h.sinusoidal_refused, shared=True,
           by_trigger={"d_model": h.change_d_model}, **options)
    tab.on(c["model"].input, h.model_positions, h.MODEL, api_name="positional_model", shared=True)
    tab.on(any_of(c["rope_positions"].input, c["rope_pairs"].input, c["rope_dim"].input), h.rope,
           (*h.ROPE, "rope_pairs"), api_name="positional_rope", refused=h.rope_refused, shared=True,
           by_trigger={"rope_dim": h.change_rope_dim}, **options)
    tab.on(any_of(c["shuffle_run"].click, c["shuffle_text"].submit), h.shuffle, h.SHUFFLE,
           api_name="positional_shuffle", refused=h.shuffle_refused, shared=True)
