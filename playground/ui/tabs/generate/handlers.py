"""The Generate tab's handlers: (workspace, form, language) -> updates by component name.

Step, Back and Reset act on the session's generation, under its lock. `draw` shows the form's
generation: the session's own when it is at the form's model, prompt and step count, else one
started afresh and stepped `steps` times (so a link opens at the step it was copied at). `run`
streams the generation to its end (or beam search at once). The Switch heads off, Logit lens (with
direct logit attribution) and Exposure bias panels each draw their own figures for the form's model and
prompt; the guessing game plays the session's game against the form's model when it is a character
model of a text, else against the language's own (Tang poems for Chinese).
"""
from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import Iterator

import gradio as gr

from playground.generate import SamplingConfig
from playground.viz.notice import notice_figure

from ...page.refusals import refusal_handler
from ...inputs.validation import fail
from ...page.wiring import Derived
from ...page.widgets import layer_head_updates
from ...session.examples import CHINESE_MODEL, GENERATE_EXAMPLES, exposure_target, suitable_input
from playground.zoo import ModelEntry
from ...session.kept_models import unknown_model
from ...session.workspace import Workspace
from ...text.i18n import label, text
from ...views import guessing
from ...views.exposure import exposure_view
from ...views.inputs import input_note
from ...views.interventions_panels import HEADS_OFF, LENS, head_picker, heads_off_updates, lens_updates
from .form import GenerateForm
from ...views.generate import (
    BeamRun,
    GenerateViews,
    Generation,
    beam_views,
    check_prompt,
    current_generation,
    filling_figure,
    stepper_views,
    waiting_for_beam,
)

FIGURES = ("candidates", "token_self", "token_cross", "filling", "tree")
STEPPED = ("output", "status", "candidates", "token_self", "token_cross", "filling", "steps")
EVERYTHING = (*STEPPED, "tree", "layer", "head", "step_button", "back_button")
CONTROLS = ("ho_heads", "accepted", "prompt")          # what follows the model and the prompt
LATE_CONTROLS = ("gg_step",)                           # the same, for the panels added later (after xb_target)
EXPOSURE = ("xb_plot", "xb_explanation")
RUN_REFRESH_SECONDS = 0.4      # Run redraws at most this often while it goes


def generative_model(workspace: Workspace, form: GenerateForm, lang: str) -> ModelEntry:
    """The form's model, or a gr.Error listing the choices when the session has no generative model
    of that name."""
    entry = workspace.model(form.model)
    if entry is None or not entry.generative:
        raise unknown_model(workspace, form.model, lang, generative_only=True)
    return entry


def prepared(workspace: Workspace, form: GenerateForm, lang: str) -> tuple[ModelEntry, str, SamplingConfig]:
    """The form's model (see generative_model), its prompt checked against the model, and the
    decoding settings."""
    entry = generative_model(workspace, form, lang)
    prompt = check_prompt(entry, form.prompt, lang)
    return entry, prompt, form.sampling(entry.tokenizer.vocab_size, lang)


def _plot(figure) -> gr.Plot:
    return gr.Plot(figure, visible=figure is not None)


def shown(views: GenerateViews, form: GenerateForm, steps: int) -> dict:
    """Every view and the controls that follow the strategy: the layer and head sliders fitted to the
    model, Step and Back only for step-by-step decoding."""
    stepwise = form.strategy != "beam"
    sliders = layer_head_updates(views.n_layers, views.n_heads, form.layer, form.head)
    return {"output": views.output, "status": views.status, "steps": steps,
            **{name: _plot(getattr(views, name)) for name in FIGURES},
            **{name: _shown_if(update, stepwise) for name, update in sliders.items()},
            "step_button": gr.Button(interactive=stepwise), "back_button": gr.Button(interactive=stepwise)}


def _shown_if(slider: gr.Slider, visible: bool) -> gr.Slider:
    return gr.Slider(**{**slider.constructor_args, "visible": visible})


def stepped(views: GenerateViews, steps: int, first_step: bool) -> dict:
    """The text and figures of a step. Step and Back keep the model and strategy, so the layout stays
    as the last draw left it, except that the figures of the newest token appear with the first step
    and go with the last Back: only then are they sent as visibility updates (an update costs the
    server as much as a small figure)."""
    newest = {name: getattr(views, name) for name in ("candidates", "token_self", "token_cross")}
    if first_step:
        newest = {name: _plot(figure) for name, figure in newest.items()}
    return {"output": views.output, "status": views.status, **newest, "filling": views.filling, "steps": steps}


def _replayed(workspace: Workspace, entry: ModelEntry, prompt: str, settings: SamplingConfig,
              steps: int) -> Generation:
    """The session's generation at `steps` tokens: kept when it is there already, else started afresh
    and stepped (as far as it goes)."""
    generation = current_generation(workspace, entry, prompt, settings)
    if len(generation.stepper.steps) != steps:
        generation = Generation.start(entry, prompt, settings)
        workspace.generation = generation
        while len(generation.stepper.steps) < steps and not generation.stepper.finished:
            generation.stepper.step()
    return generation


def draw(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The whole tab for the form (a tab opened, by a link too, or the language changed)."""
    entry, prompt, settings = prepared(workspace, form, lang)
    with workspace.lock:
        if settings.strategy == "beam":
            workspace.generation = None
            kept = workspace.beam
            if kept is not None and kept.ran_for(entry, prompt, settings):      # drawn again, in `lang`
                return shown(beam_views(entry, prompt, settings, lang, kept.result), form, 0)
            return shown(waiting_for_beam(prompt, entry, lang), form, 0)
        generation = _replayed(workspace, entry, prompt, settings, form.steps)
        steps = len(generation.stepper.steps)
        return shown(stepper_views(generation, form.layer, form.head, lang), form, steps)


def reset(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The generation started again from the prompt (Reset, a new prompt or example, a new strategy)."""
    prepared(workspace, form, lang)
    with workspace.lock:
        workspace.generation = workspace.beam = None
    return draw(workspace, replace(form, steps=0), lang)


def controls(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The controls that follow the model and the prompt: the heads it can switch off, the characters
    it accepts (with a warning for a prompt unlike its training inputs), and what the prompt is (the
    text a decoder-only model continues, or the source an encoder-decoder model reads)."""
    entry = generative_model(workspace, form, lang)
    reads_a_source = entry.model.has_encoder
    return {"ho_heads": head_picker(entry, form.ho_heads, lang),
            "accepted": input_note(workspace.registry, entry, form.prompt, lang),
            "prompt": gr.Textbox(form.prompt, label=label("lbl_prompt_source" if reads_a_source else "lbl_prompt")),
            "gg_step": game_steps(workspace, form, lang)}


def game_steps(workspace: Workspace, form: GenerateForm, lang: str) -> gr.Radio:
    """The checkpoints the game's model can be rematched at (none when no model can play)."""
    try:
        entry = guessing.game_entry(workspace, form.model, lang)
    except gr.Error:
        return gr.Radio(choices=[], value=None, visible=False)
    return guessing.step_picker(workspace, entry, form.gg_step)


def initial_form(workspace: Workspace) -> GenerateForm | None:
    """The Chinese interface opens on the Chinese character model (fitted to it), where it is shipped; None
    elsewhere (the layout's form)."""
    if workspace.language != "zh-CN" or workspace.registry is None or workspace.registry.get(CHINESE_MODEL) is None:
        return None
    return GenerateForm(model=CHINESE_MODEL).fit(workspace.catalog, set())[0]


def open_tab(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The whole tab and the controls that follow the model (opened, by a link too, or the language changed)."""
    return {**draw(workspace, form, lang), **controls(workspace, form, lang)}


def restart(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """A new prompt: the generation started again, and what the model accepts said for it."""
    return {**reset(workspace, form, lang), **controls(workspace, form, lang)}


def load_example(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """An example (model and prompt): started again, with the exposure-bias target of its example."""
    target = exposure_target(generative_model(workspace, form, lang), form.prompt)
    return {**restart(workspace, replace(form, xb_target=target), lang), "xb_target": target}


def change_model(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """A newly picked (or uploaded) model: the prompt kept when the model can read it, else its own
    first example; the generation starts again; the controls and the exposure-bias target follow it."""
    entry = workspace.model(form.model)
    if entry is None:
        return reset(workspace, form, lang)           # refused there, naming the models that exist
    prompt = suitable_input(entry, form.prompt, GENERATE_EXAMPLES)
    form = replace(form, prompt=prompt, xb_target=exposure_target(entry, prompt))
    return {**restart(workspace, form, lang), "xb_target": form.xb_target}


def _stepwise(workspace: Workspace, form: GenerateForm, lang: str) -> tuple[ModelEntry, Generation]:
    entry, prompt, settings = prepared(workspace, form, lang)
    if settings.strategy == "beam":
        raise fail(lang, "err_beam_steps")
    return entry, current_generation(workspace, entry, prompt, settings)


def step(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """One more token (the Step button and the API)."""
    with workspace.lock:
        _, generation = _stepwise(workspace, form, lang)
        if generation.stepper.finished:
            raise fail(lang, "err_generation_finished", reason=text(lang, f"reason_short_{generation.stepper.reason}"))
        generation.stepper.step()
        steps = len(generation.stepper.steps)
        return stepped(stepper_views(generation, form.layer, form.head, lang), steps, steps <= 1)


def back(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The last token taken back (the Back button and the API)."""
    with workspace.lock:
        _, generation = _stepwise(workspace, form, lang)
        if not generation.stepper.steps:
            raise fail(lang, "err_nothing_to_undo")
        generation.stepper.back()
        steps = len(generation.stepper.steps)
        return stepped(stepper_views(generation, form.layer, form.head, lang), steps, steps <= 1)


def run(workspace: Workspace, form: GenerateForm, lang: str) -> Iterator[dict]:
    """The generation to its end, redrawn every RUN_REFRESH_SECONDS; beam search at once. Stops when
    another event of the session starts a new generation."""
    entry, prompt, settings = prepared(workspace, form, lang)
    if settings.strategy == "beam":
        with workspace.lock:
            workspace.generation = None
            workspace.beam = BeamRun.of(entry, prompt, settings)
            views = beam_views(entry, prompt, settings, lang, workspace.beam.result)
        yield shown(views, form, 0)
        return
    with workspace.lock:
        generation = current_generation(workspace, entry, prompt, settings)
        if generation.stepper.finished:
            raise fail(lang, "err_generation_finished", reason=text(lang, f"reason_short_{generation.stepper.reason}"))
    shown_at = time.monotonic()
    while True:
        with workspace.lock:
            if generation.stepper.finished or workspace.generation is not generation:
                return
            generation.stepper.step()
            due = time.monotonic() - shown_at >= RUN_REFRESH_SECONDS or generation.stepper.finished
            views = stepper_views(generation, form.layer, form.head, lang) if due else None
            steps = len(generation.stepper.steps)
        if views is not None:
            shown_at = time.monotonic()
            yield shown(views, form, steps)


def redraw_filling(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The causal matrix of the layer and head sliders."""
    with workspace.lock:
        generation = workspace.generation
        if generation is None:
            return {}
        return {"filling": filling_figure(generation, form.layer, form.head, lang)}


def heads_off(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The next token on the prompt with every head on and with the chosen heads switched off (KL,
    the changed tokens of a greedy generation, exact match for a seq2seq task model)."""
    return heads_off_updates(generative_model(workspace, form, lang), form.prompt, form.ho_heads, form.ho_how, lang)


def lens(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The logit lens of the prompt (the top token and its probability after every layer), and the direct
    logit attribution of the chosen token (empty: the model's top token) after it."""
    return lens_updates(generative_model(workspace, form, lang), form.prompt, form.dla_token, lang)


def game_turn(workspace: Workspace, form: GenerateForm, lang: str, action: str = "turn") -> dict:
    """One turn of the guessing game (the API): a guess plays a round (a new game starts when none is on);
    no guess starts a new game, or with a step a rematch of the same rounds against that checkpoint."""
    with guessing.keeping_refusal(workspace):
        entry = guessing.game_entry(workspace, form.model, lang)
        return guessing.turn(workspace, entry, action, form.gg_guess, form.gg_step, lang)


def game_refused(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """Why the turn was refused, in the game's result panel."""
    return guessing.refused_result(workspace, lang)


def game_guess(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The guess scored against the real next character beside the model's (Guess, Enter)."""
    return game_turn(workspace, form, lang, "guess")


def game_new(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """A new game against the model as trained to the end (New game)."""
    return game_turn(workspace, form, lang, "new")


def game_rematch(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The same rounds against the model at the chosen step (Rematch)."""
    return game_turn(workspace, form, lang, "rematch")


def game_drawn(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The session's game drawn again (in another language)."""
    return guessing.game_updates(workspace, guessing.game_entry(workspace, form.model, lang), lang)


def exposure(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """The target decoded after the prompt with teacher forcing and free-running, where they part."""
    figure, explanation = exposure_view(generative_model(workspace, form, lang), form.prompt, form.xb_target, lang)
    return {"xb_plot": figure, "xb_explanation": explanation}


heads_off_refused = refusal_handler(heads_off, ("ho_distribution",), "ho_summary")
lens_refused = refusal_handler(lens, ("lens_plot", "dla_plot"), "dla_summary")
exposure_refused = refusal_handler(exposure, ("xb_plot",), "xb_explanation")
DERIVED = (Derived("heads_off", heads_off, HEADS_OFF, ("model", "prompt", "ho_heads", "ho_how")),
           Derived("lens", lens, LENS, ("model", "prompt", "dla_token")),
           Derived("exposure", exposure, EXPOSURE, ("model", "prompt", "xb_target")),
           Derived("game", game_drawn, guessing.GAME, ("model",)))


def refused(workspace: Workspace, form: GenerateForm, lang: str) -> dict:
    """When the input was refused, the reason instead of an earlier input's views (the candidates and
    the causal matrix show it; the newest token's attention is hidden). A refusal of the action
    alone (Step after the end, Back at the start) leaves the views as they are."""
    t = partial(text, lang)
    try:
        prepared(workspace, form, lang)
        return {}
    except gr.Error as error:
        reason = error.message
    notice = notice_figure(t("refused_title"), reason)
    return {"candidates": gr.Plot(notice, visible=True), "filling": gr.Plot(notice, visible=True),
            "token_self": gr.Plot(None, visible=False), "token_cross": gr.Plot(None, visible=False),
            "output": [], "status": t("refused_summary", reason=reason)}
