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
from .views import model_position_views, rope_view, shuffle_demo, sinusoidal_views

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
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout(ctx)
    tab = TabWiring(ctx, PositionalForm, c, export_name=export_name)
    h = handlers
    tab.on_open(h.draw, ("dims", "rope_pairs", *h.EVERYTHING), shared=True)
    trigger, options = on_slide(c["length"])
    tab.on(any_of(trigger, c["dims"].input), h.sinusoidal, h.SINUSOIDAL, api_name="positional_sinusoidal",
           refused=h.sinusoidal_refused, shared=True, **options)
    trigger, options = on_slide(c["d_model"])
    tab.on(trigger, h.change_d_model, ("dims", *h.SINUSOIDAL), progress_on="heatmap", refused=h.sinusoidal_refused,
           **options)
    tab.on(c["model"].input, h.model_positions, h.MODEL, api_name="positional_model", shared=True)
    trigger, options = on_slide(c["rope_positions"])
    tab.on(any_of(trigger, c["rope_pairs"].input), h.rope, h.ROPE, api_name="positional_rope", refused=h.rope_refused,
           shared=True, **options)
    trigger, options = on_slide(c["rope_dim"])
    tab.on(trigger, h.change_rope_dim, ("rope_pairs", *h.ROPE), progress_on="rope_plot", refused=h.rope_refused,
           **options)
    tab.on(any_of(c["shuffle_run"].click, c["shuffle_text"].submit), h.shuffle, h.SHUFFLE,
           api_name="positional_shuffle", refused=h.shuffle_refused, shared=True)
