"""The Inside the model tab's handlers: (workspace, form, language) -> updates by component name.

The tab has five sections (embeddings, attention by hand, masks, LayerNorm and the residual
stream, fill in the blanks); each section's handler redraws that section, `draw` all of them.
A refused input replaces that section's figures with the reason.
"""
from __future__ import annotations

from dataclasses import replace

import gradio as gr

from ...page.refusals import refusal_figures, refusal_reason
from ...page.widgets import layer_head_updates
from ...session.examples import CHINESE_MODEL, FILL_EXAMPLES, MASK_EXAMPLES
from playground.zoo import ModelEntry
from ...session.kept_models import unknown_model
from ...session.workspace import Workspace
from ...text.i18n import text
from ...views.embeddings import embedding_view
from ...views.fill_blanks import fill_view
from ...views.masks import mask_views
from ...views.norms import batch_norm_view, layer_norm_view, residual_view
from ...views.worked_attention import site_choices, worked_attention_view
from .form import CHINESE_NORM_TEXT, CHINESE_TOKEN, InsideForm, norm_stack_depth, site_depth

EMBEDDINGS = ("emb_neighbours", "emb_map", "emb_note")       # each section's outputs, in order
WORKED = ("worked_vectors", "worked_steps", "worked_note")
MASK_SITES = ("mask_site_0", "mask_site_1", "mask_site_2")  # one figure per attention site (at most three)
MASKS = (*MASK_SITES, "mask_padding", "mask_note")
NORMS = ("norm_vector", "norm_note", "norm_batch", "norm_batch_note", "norm_residual", "norm_residual_note")
FILL = ("fill_plot", "fill_note")
WORKED_CONTROLS = ("worked_site", "worked_layer", "worked_head")
EVERYTHING = (*EMBEDDINGS, *WORKED, *MASKS, *NORMS, *FILL)
PROGRESS = {"emb": "emb_neighbours", "worked": "worked_vectors", "mask": "mask_site_0", "norm": "norm_vector",
            "fill": "fill_plot"}                         # where each section shows its progress


def _entry(workspace: Workspace, name: str, lang: str) -> ModelEntry:
    """The session's model `name`, else a gr.Error listing the names it has."""
    entry = workspace.model(name)
    if entry is None:
        raise unknown_model(workspace, name, lang)
    return entry


def embeddings(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The token's nearest neighbours by cosine similarity and the embedding table's PCA map."""
    return dict(zip(EMBEDDINGS, embedding_view(_entry(workspace, form.emb_model, lang), form.emb_token, lang)))


def worked(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """One head's attention on the first tokens, every matrix with its numbers."""
    entry = _entry(workspace, form.worked_model, lang)
    return dict(zip(WORKED, worked_attention_view(entry, form.worked_text, form.worked_site, form.worked_layer,
                                                  form.worked_head, lang)))


def worked_controls(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The site radio and the layer and head sliders fitted to the worked model (values kept where it has them)."""
    entry = _entry(workspace, form.worked_model, lang)
    choices = site_choices(entry, lang)
    site = form.worked_site if form.worked_site in [value for _, value in choices] else choices[0][1]
    sliders = layer_head_updates(site_depth(entry, site), entry.config.n_heads, form.worked_layer, form.worked_head)
    return {"worked_site": gr.Radio(choices=choices, value=site), "worked_layer": sliders["layer"],
            "worked_head": sliders["head"]}


def change_worked_model(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """A new model for the worked example: its sites and ranges, and the example redrawn with them."""
    controls = worked_controls(workspace, form, lang)
    entry = _entry(workspace, form.worked_model, lang)
    site = controls["worked_site"].constructor_args["value"]
    fitted = replace(form, worked_site=site, worked_layer=min(form.worked_layer, site_depth(entry, site) - 1),
                     worked_head=min(form.worked_head, entry.config.n_heads - 1))
    return {**controls, **worked(workspace, fitted, lang)}


def masks(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The masks of each attention site for a batch of the two inputs, and the left-padding figure."""
    figures, padding, note = mask_views(_entry(workspace, form.mask_model, lang), form.mask_first, form.mask_second,
                                        lang)
    sites = {name: gr.Plot(figures[k] if k < len(figures) else None, visible=k < len(figures))
             for k, name in enumerate(MASK_SITES)}
    return {**sites, "mask_padding": padding, "mask_note": note}


def change_mask_model(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """A new model for the masks: its own two example inputs (where it has them), the masks redrawn."""
    first, second = MASK_EXAMPLES.get(form.mask_model, (form.mask_first, form.mask_second))
    return {"mask_first": first, "mask_second": second,
            **masks(workspace, replace(form, mask_first=first, mask_second=second), lang)}


def norms(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """One token through LayerNorm, LayerNorm against BatchNorm on a small batch, and the residual stream's norm."""
    entry = _entry(workspace, form.norm_model, lang)
    vector, table = layer_norm_view(entry, form.norm_text, form.norm_layer, form.norm_position, lang)
    batch, batch_note = batch_norm_view(entry, form.norm_text, lang)
    residual, residual_note = residual_view(entry, form.norm_text, lang)
    return dict(zip(NORMS, (vector, table, batch, batch_note, residual, residual_note)))


def change_norm_model(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """A new model for the LayerNorm section: the layer slider fitted to its stack, the section redrawn."""
    depth = norm_stack_depth(_entry(workspace, form.norm_model, lang))
    fitted = replace(form, norm_layer=min(form.norm_layer, depth - 1))
    slider = layer_head_updates(depth, 1, fitted.norm_layer, 0)["layer"]
    return {"norm_layer": slider, **norms(workspace, fitted, lang)}


def fill(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The masked model's candidates for every blank, and the text filled with the best ones."""
    return dict(zip(FILL, fill_view(_entry(workspace, form.fill_model, lang), form.fill_text, lang)))


def change_fill_model(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """A new model for the blanks: its own first example (where it has one), the blanks filled."""
    value = next(iter(FILL_EXAMPLES.get(form.fill_model, ())), form.fill_text)
    return {"fill_text": value, **fill(workspace, replace(form, fill_text=value), lang)}


def controls(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The controls that follow a section's model (a link opening): the worked example's site, layer
    and head, and the LayerNorm section's layer slider."""
    depth = norm_stack_depth(_entry(workspace, form.norm_model, lang))
    return {**worked_controls(workspace, form, lang),
            "norm_layer": layer_head_updates(depth, 1, form.norm_layer, 0)["layer"]}


def initial_form(workspace: Workspace) -> InsideForm | None:
    """The Chinese interface shows the Chinese character model in the sections that show a language model
    (embeddings, LayerNorm), where it is shipped; None elsewhere (the layout's form)."""
    if workspace.language != "zh-CN" or workspace.registry is None or workspace.registry.get(CHINESE_MODEL) is None:
        return None
    form = InsideForm(emb_model=CHINESE_MODEL, emb_token=CHINESE_TOKEN, norm_model=CHINESE_MODEL,
                      norm_text=CHINESE_NORM_TEXT)
    return form.fit(workspace.catalog, set())[0]


def draw(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """Every section, with the worked example's controls fitted to its model; a section that refuses
    its input shows why, and the others are drawn."""
    updates = {}
    for part, shown_refusal in ((embeddings, embeddings_refused), (change_worked_model, worked_refused),
                                (masks, masks_refused), (change_norm_model, norms_refused), (fill, fill_refused)):
        try:
            updates.update(part(workspace, form, lang))
        except gr.Error:
            updates.update(shown_refusal(workspace, form, lang))
    return updates


def _refusal(part, outputs: tuple[str, ...]):
    """A handler that shows why `part` refused the form: the reason in each of the section's figures,
    and in its text (its last output)."""
    *figures, note = outputs

    def refused(workspace: Workspace, form: InsideForm, lang: str) -> dict:
        reason = refusal_reason(part, workspace, form, lang)
        return {**refusal_figures(figures, reason, lang), note: text(lang, "refused_summary", reason=reason)}
    refused.__name__ = f"{part.__name__}_refused"
    return refused


embeddings_refused = _refusal(embeddings, EMBEDDINGS)
worked_refused = _refusal(worked, WORKED)
fill_refused = _refusal(fill, FILL)


def masks_refused(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The reason in the first site's figure and the padding figure (the other sites hidden)."""
    shown = _refusal(masks, ("mask_site_0", "mask_padding", "mask_note"))(workspace, form, lang)
    return {**shown, "mask_site_1": gr.Plot(visible=False), "mask_site_2": gr.Plot(visible=False)}


def norms_refused(workspace: Workspace, form: InsideForm, lang: str) -> dict:
    """The reason in the section's three figures and its three texts."""
    shown = _refusal(norms, ("norm_vector", "norm_batch", "norm_residual", "norm_note"))(workspace, form, lang)
    return {**shown, "norm_batch_note": "", "norm_residual_note": ""}
