"""Inside the model tab: what happens between the tokens and the output, one part at a time, each
section with its own model and input: embeddings, one head's attention worked by hand, the masks,
LayerNorm and the residual stream, and a masked model filling in blanks.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws (the figures come from the ui's *_views modules)."""
from __future__ import annotations

from ...page.context import AppContext
from ...page.wiring import TabWiring, any_of, file_name
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
    """Declare the tab's components and events (inside a gr.Tab): one event per section, for its
    button, its text boxes, its model and its other controls (a slider's last value drawn)."""
    c = layout(ctx)
    h = handlers
    tab = TabWiring(ctx, InsideForm, c, export_name=export_name, controls=h.controls, draw=h.draw, shared=True,
                    initial=lambda workspace: h.initial_form(workspace) or tab.layout_form(workspace))
    sections = (("emb", h.embeddings, h.EMBEDDINGS, h.embeddings_refused, ("emb_token",), (), h.embeddings),
                ("worked", h.worked, (*h.WORKED_CONTROLS, *h.WORKED), h.worked_refused, ("worked_text",),
                 ("worked_site", "worked_layer", "worked_head"), h.change_worked_model),
                ("mask", h.masks, ("mask_first", "mask_second", *h.MASKS), h.masks_refused,
                 ("mask_first", "mask_second"), (), h.change_mask_model),
                ("norm", h.norms, ("norm_layer", *h.NORMS), h.norms_refused, ("norm_text",), ("norm_layer",),
                 h.change_norm_model),
                ("fill", h.fill, ("fill_text", *h.FILL), h.fill_refused, ("fill_text",), (), h.change_fill_model))
    for section, handler, outputs, refused, boxes, sliders, change_model in sections:
        triggers = (c[f"{section}_run"].click, *(c[box].submit for box in boxes), c[f"{section}_model"].input,
                    *(c[name].input for name in sliders))
        by_trigger = {f"{section}_model": change_model, **({"worked_site": change_model} if section == "worked" else {})}
        tab.on(any_of(*triggers), handler, outputs, progress_on=h.PROGRESS[section], api_name=f"inside_{section}",
               refused=refused, shared=True, by_trigger=by_trigger, trigger_mode="always_last")
