"""Architecture tab: a config drawn as a diagram, its parameters per component as a treemap
(presets include GPT-2 small), and what one token costs in FLOPs and memory.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import AppContext
from ...page.wiring import TabWiring, any_of, file_name
from . import handlers
from .form import ArchitectureForm
from .layout import layout
from ...views.architecture import FIELDS, architecture_views, nested_parameter_counts, presets

__all__ = ["ArchitectureForm", "FIELDS", "architecture_views", "build", "nested_parameter_counts", "presets"]


def export_name(form: ArchitectureForm, figure: str) -> str:
    """"architecture-treemap-decoder_only-L12-d768-H12": the view, the figure and the config's shape."""
    layers = form.n_encoder_layers + form.n_decoder_layers
    return file_name(form.VIEW, figure, form.arch, f"L{layers}", f"d{form.d_model}", f"H{form.n_heads}")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout(ctx)
    tab = TabWiring(ctx, ArchitectureForm, c, export_name=export_name, controls=handlers.controls, draw=handlers.draw,
                    refused=handlers.refused, shared=True)
    tab.on(any_of(c["run"].click, c["context"].submit, c["preset"].input), handlers.draw,
           (*handlers.VIEWS, *FIELDS, "context"), api_name="architecture", progress_on="treemap",
           refused=handlers.refused, shared=True, by_trigger={"preset": handlers.choose_preset})
