"""Inside the model tab: what happens between the tokens and the output, one part at a time, each
section with its own model and input: embeddings, one head's attention worked by hand, the masks,
LayerNorm and the residual stream, and a masked model filling in blanks.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws (the figures come from the ui's *_views modules)."""
from __future__ import annotations

from ...page.context import AppContext
from ...page.widgets import on_slide
from ...page.wiring import TabWiring, any_of, file_name, on_slides
from . import handlers
from .form import InsideForm
from .layout import layout

__all__ = ["InsideForm", "build"]

SECTION_MODELS = {"emb": "emb_model", "worked": "worked_model", "mask": "mask_model", "norm": "norm_model",
                  "fill": "fill_model"}


def export_name(form: InsideForm, figure: str) -> str:
    """"inside-emb_map-shakespeare-char", "inside-worked_steps-copy": the figure and its section's model."""
    model = SECTION_MODELS.get(figure.split("_")[0])
    return file_name(form.VIEW, figure, getattr(form, model) if model else "")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c = layout(ctx)
    tab = TabWiring(ctx, InsideForm, c, export_name=export_name, controls=handlers.controls)
    h = handlers
    tab.on_open(h.draw, (*h.WORKED_CONTROLS, "norm_layer", *h.EVERYTHING), shared=True)
    sections = (("emb", h.embeddings, h.EMBEDDINGS, h.embeddings_refused, ("emb_token",)),
                ("worked", h.worked, h.WORKED, h.worked_refused, ("worked_text",)),
                ("mask", h.masks, h.MASKS, h.masks_refused, ("mask_first", "mask_second")),
                ("norm", h.norms, h.NORMS, h.norms_refused, ("norm_text",)),
                ("fill", h.fill, h.FILL, h.fill_refused, ("fill_text",)))
    also = {"emb": (c["emb_model"].input,)}           # a new model redraws the embeddings as Run does
    for section, handler, outputs, refused, boxes in sections:
        triggers = (c[f"{section}_run"].click, *(c[box].submit for box in boxes), *also.get(section, ()))
        tab.on(any_of(*triggers), handler, outputs, api_name=f"inside_{section}", refused=refused, shared=True)
    tab.on(any_of(c["worked_model"].input, c["worked_site"].input), h.change_worked_model,
           (*h.WORKED_CONTROLS, *h.WORKED), progress_on="worked_vectors", refused=h.worked_refused, shared=True)
    trigger, options = on_slides(c["worked_layer"], c["worked_head"])
    tab.on(trigger, h.worked, h.WORKED, refused=h.worked_refused, shared=True, **options)
    tab.on(c["mask_model"].input, h.change_mask_model, ("mask_first", "mask_second", *h.MASKS), refused=h.masks_refused, shared=True)
    tab.on(c["norm_model"].input, h.change_norm_model, ("norm_layer", *h.NORMS), progress_on="norm_vector",
           refused=h.norms_refused, shared=True)
    trigger, options = on_slide(c["norm_layer"])
    tab.on(trigger, h.norms, h.NORMS, refused=h.norms_refused, shared=True, **options)
    tab.on(c["fill_model"].input, h.change_fill_model, ("fill_text", *h.FILL), refused=h.fill_refused, shared=True)
