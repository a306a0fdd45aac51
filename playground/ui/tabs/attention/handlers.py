"""The Attention tab's handlers: (workspace, form, language) -> updates by component name.

Each returns only what it changes. `draw` is the whole tab (views and the controls that follow
the model: kinds, scores, layer and head ranges, target box, timeline, the properties probes read); the
others redraw one figure for one control, or draw a panel computed on request (heads switched off, the
logit lens with direct logit attribution, activation patching, linear probes).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import gradio as gr
import numpy as np

from ...page.refusals import refusal_figures, refusal_handler, refusal_reason
from ...page.wiring import Derived
from ...page.widgets import layer_head_updates, shown_if
from ...session.examples import ATTENTION_EXAMPLES, CHINESE_MODEL, examples_for
from playground.zoo import ModelEntry
from ...session.kept_models import unknown_model
from ...session.workspace import Workspace
from ...text.i18n import text
from ...views.explaining_panels import (
    PATCHING,
    PROBE_CONTROLS,
    PROBES,
    patching_updates,
    probe_controls,
    probe_updates,
    suggestion_updates,
)
from ...views.inputs import input_note
from ...views.interventions_panels import HEADS_OFF, LENS, head_picker, heads_off_updates, lens_updates
from .form import AttentionForm
from ...views.attention import (
    attention_views,
    default_kind,
    entry_at_step,
    forward_pass,
    head_view,
    kind_choices,
    kinds_of,
    score_choices,
    score_names,
    scores_of,
    scores_view,
    stack_depth,
    timeline_of,
    timeline_update,
    weights_of,
)

VIEW_FIGURES = ("grid", "head_plot", "scores_plot", "shapes")
VIEWS = ("grid", "head_plot", "scores_plot", "best_heads", "shapes", "summary")   # the API's outputs, in order
CONTROLS = ("kind", "score", "layer", "head", "target", "step_picker", "timeline_panel", "accepted", "ho_heads")
LATE_CONTROLS = ("pt_corrupted", *PROBE_CONTROLS)     # the API's outputs after "step": the panels' controls


@dataclass(frozen=True)
class Shown:
    """The model a form shows (at its timeline step), and the kind and score it can show."""

    final: ModelEntry
    entry: ModelEntry
    at_step: tuple[int, int] | None
    form: AttentionForm


def shown(workspace: Workspace, form: AttentionForm, lang: str) -> Shown:
    """The form's model (a gr.Error listing the choices when the session has none of that name),
    with the form's kind and score replaced by the model's own where it lacks them."""
    final = workspace.model(form.model)
    if final is None:
        raise unknown_model(workspace, form.model, lang)
    entry = entry_at_step(workspace.registry, final, form.step)
    at_step = (form.step, timeline_of(workspace.registry, final)[-1]) if entry is not final else None
    if form.kind not in kinds_of(entry):
        form = replace(form, kind=default_kind(entry))
    if form.score not in score_names(form.kind):
        form = replace(form, score=score_names(form.kind)[0])
    return Shown(final, entry, at_step, form)


def controls(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The controls that follow the model: its kinds and scores, the layer and head ranges of the
    kind's stack, the target box (for a model that reads a source and writes a target), its
    timeline, and what it accepts (with a warning for an input unlike its training inputs)."""
    seen = shown(workspace, form, lang)
    entry, form = seen.entry, seen.form
    n_layers, n_heads = stack_depth(entry, form.kind)
    return {
        "kind": gr.Radio(choices=kind_choices(entry, lang), value=form.kind),
        "score": gr.Radio(choices=score_choices(form.kind, lang), value=form.score),
        **layer_head_updates(n_layers, n_heads, form.layer, form.head),
        "target": gr.Textbox(visible=entry.model.has_encoder and entry.model.has_decoder),   # reads a target
        "step_picker": timeline_update(workspace.registry, seen.final, form.step),
        "timeline_panel": gr.Group(visible=shown_if(bool(timeline_of(workspace.registry, seen.final)))),
        "accepted": input_note(workspace.registry, seen.final, form.text, lang),
        "ho_heads": head_picker(entry, form.ho_heads, lang),
        **probe_controls(seen.final, form.pr_property, lang),
    }


def heads_off(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The prediction with every head on and with the chosen heads switched off (KL, the greedy
    output before and after, and exact match on held-out examples for a seq2seq task model)."""
    return heads_off_updates(shown(workspace, form, lang).entry, form.text, form.ho_heads, form.ho_how, lang)


def lens(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The logit lens of the current input (the top token and its probability after every layer), and the
    direct logit attribution of the chosen token (empty: the model's top token)."""
    return lens_updates(shown(workspace, form, lang).entry, form.text, form.dla_token, lang)


def patching(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """Activation patching from the text (clean) into the corrupted input (the suggested one when none is
    typed): the residual stream by layer and position, each head, each head by position, and the summary."""
    return patching_updates(shown(workspace, form, lang).entry, form.text, form.pt_corrupted, lang)


def suggest_patching(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The suggested corruption of the text put in the box, and its patching maps."""
    return suggestion_updates(shown(workspace, form, lang).entry, form.text, lang)


def patching_maps(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The patching panel drawn again for the same inputs (in another language)."""
    drawn = patching(workspace, form, lang)
    return {name: drawn[name] for name in PATCHING}


def patching_refused(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """Why the inputs cannot be patched, in the maps and the summary (no map of an earlier input is left)."""
    reason = refusal_reason(patching, workspace, form, lang)
    return {**refusal_figures(("pt_residual", "pt_heads", "pt_positions"), reason, lang),
            "pt_source": gr.Plot(None, visible=False), "pt_summary": text(lang, "refused_summary", reason=reason)}


def probes(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """Linear probes of the chosen property on the model (at the timeline step shown): accuracy by layer
    with the shuffled-label control and chance, and the sentence the result makes."""
    seen = shown(workspace, form, lang)
    return probe_updates(seen.final, seen.entry, form.pr_property, lang)


heads_off_refused = refusal_handler(heads_off, ("ho_distribution",), "ho_summary")
lens_refused = refusal_handler(lens, ("lens_plot", "dla_plot"), "dla_summary")
DERIVED = (Derived("heads_off", heads_off, HEADS_OFF, ("model", "text", "target", "step", "ho_heads", "ho_how")),
           Derived("lens", lens, LENS, ("model", "text", "target", "step", "dla_token")),
           Derived("patching", patching_maps, PATCHING, ("model", "text", "step", "pt_corrupted")),
           Derived("probes", probes, PROBES, ("model", "step", "pr_property")))


def initial_form(workspace: Workspace) -> AttentionForm | None:
    """The Chinese interface opens on the Chinese character model (fitted to it, with its first example),
    where it is shipped, as Generate does; None elsewhere (the layout's form)."""
    if workspace.language != "zh-CN" or workspace.registry is None or workspace.registry.get(CHINESE_MODEL) is None:
        return None
    return AttentionForm(model=CHINESE_MODEL).fit(workspace.catalog, set())[0]


def show(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The views of the form (the Show attention button and the API)."""
    seen = shown(workspace, form, lang)
    f = seen.form
    views = attention_views(seen.entry, f.text, f.target, f.kind, f.layer, f.head, f.mean, f.score, lang,
                            seen.at_step)
    return {"grid": views.grid, "head_plot": views.head, "scores_plot": views.scores, "best_heads": views.best_heads,
            "shapes": views.shapes, "summary": views.summary}


def draw(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The whole tab: the views and every control that follows the model."""
    return {**show(workspace, form, lang), **controls(workspace, form, lang)}


def change_model(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """A newly picked model, with its own first example, no target, as trained to the end, and the suggested
    corruption for patching."""
    entry = workspace.model(form.model)
    if entry is None:
        return draw(workspace, form, lang)        # refused there, naming the models that exist
    first = next(iter(examples_for(entry, ATTENTION_EXAMPLES)), form.text)
    form = replace(form, text=first, target="", step=None, pt_corrupted="")
    reads_a_target = entry.model.has_encoder and entry.model.has_decoder
    return {**draw(workspace, form, lang), "text": first, "step": None, "pt_corrupted": "",
            "target": gr.Textbox(value="", visible=reads_a_target)}


def change_text(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """A new input: the tab drawn for it, and the corrupted input left for the suggestion to fill."""
    return {**draw(workspace, replace(form, pt_corrupted=""), lang), "pt_corrupted": ""}


def redraw_head(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The enlarged head (or the layer's mean) for the layer, head and mean controls."""
    seen = shown(workspace, form, lang)
    attention = forward_pass(seen.entry, form.text, form.target, lang)
    return {"head_plot": head_view(attention, seen.form.kind, form.layer, form.head, form.mean, lang)}


def redraw_scores(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The head-score map and the best heads for the score control."""
    seen = shown(workspace, form, lang)
    attention = forward_pass(seen.entry, form.text, form.target, lang)
    figure, best = scores_view(attention, seen.form.kind, seen.form.score, lang)
    return {"scores_plot": figure, "best_heads": best}


def best_head(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """The head with the highest chosen score, selected and enlarged."""
    seen = shown(workspace, form, lang)
    attention = forward_pass(seen.entry, form.text, form.target, lang)
    values = scores_of(attention, seen.form.kind)[seen.form.score]                 # [L, H]
    layer, head = (int(i) for i in np.unravel_index(int(np.argmax(values)), values.shape))
    return {"layer": layer, "head": head, "mean": False,
            "head_plot": head_view(attention, seen.form.kind, layer, head, False, lang)}


def refused(workspace: Workspace, form: AttentionForm, lang: str) -> dict:
    """What the figures show when the input was refused: why, instead of an earlier input's views."""
    def weights(workspace: Workspace, form: AttentionForm, lang: str):
        seen = shown(workspace, form, lang)
        return weights_of(forward_pass(seen.entry, form.text, form.target, lang), seen.form.kind)

    reason = refusal_reason(weights, workspace, form, lang)
    return {**refusal_figures(VIEW_FIGURES, reason, lang), "best_heads": "",
            "summary": text(lang, "refused_summary", reason=reason)}
