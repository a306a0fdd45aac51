"""Generate tab: step through decoding token by token (Step / Run / Back / Reset) with greedy,
seeded sampling or beam search; the candidates before and after temperature, top-k and top-p;
the new token's attention; the causal matrix filling in; the beam tree; what changes when heads
are switched off, the logit lens of the prompt with direct logit attribution, exposure bias (teacher
forcing against free-running on a target), and a game: guess the next character against the model.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import PRIVATE, QUIET, AppContext, heavy
from ...page.wiring import TabWiring, any_of, example_adapter, file_name, on_slides
from ...views.guessing import GAME_TURN
from ...views.interventions_panels import HEADS_OFF, LENS
from . import handlers
from .form import GenerateForm
from .layout import layout
from ...views.generate import (
    DEFAULTS,
    GenerateViews,
    Generation,
    beam_views,
    check_prompt,
    current_generation,
    stepper_views,
)

__all__ = ["DEFAULTS", "GenerateForm", "GenerateViews", "Generation", "beam_views", "build", "check_prompt",
           "current_generation", "stepper_views"]


def export_name(form: GenerateForm, figure: str) -> str:
    """"tiny-gpt-generate-sample-filling-step3-L0-H1": model, view, strategy, figure, step, layer, head."""
    return file_name(form.model, form.VIEW, form.strategy, figure, f"step{form.steps}", f"L{form.layer}",
                     f"H{form.head}")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c, examples = layout(ctx)
    tab = TabWiring(ctx, GenerateForm, c, export_name=export_name, controls=handlers.controls,
                    draw=handlers.open_tab, refused=handlers.refused, derived=handlers.DERIVED,
                    initial=lambda workspace: handlers.initial_form(workspace) or tab.layout_form(workspace))
    everything, stepped, controls = handlers.EVERYTHING, handlers.STEPPED, handlers.CONTROLS
    refused = handlers.refused
    tab.on(any_of(c["reset_button"].click, c["prompt"].submit, c["strategy"].input, c["model"].input,
                  c["examples"].select),
           handlers.restart, [*everything, *controls, "xb_target", *handlers.LATE_CONTROLS, "model"],
           progress_on="output",
           api_name="generate_reset", refused=refused, refreshes=True,
           by_trigger={"model": handlers.change_model, "examples": handlers.load_example},
           adapt={"examples": example_adapter(examples, ("model", "prompt"), steps=0)},
           trigger_mode="always_last")      # an example clicked while another draws is drawn next, not dropped
    tab.on(c["step_button"].click, handlers.step, stepped, api_name="generate_step", refused=refused)
    tab.on(c["back_button"].click, handlers.back, stepped, api_name="generate_back", refused=refused)
    running = tab.on(c["run_button"].click, handlers.run, everything, api_name="generate_run", stream=True,
                     refused=refused, **heavy(c["output"]))
    c["stop_button"].click(None, None, None, cancels=[running], **PRIVATE)
    trigger, options = on_slides(c["layer"], c["head"])
    tab.on(trigger, handlers.redraw_filling, ["filling"], **QUIET, **options)
    tab.on(c["ho_run"].click, handlers.heads_off, HEADS_OFF, api_name="generate_heads_off",
           refused=handlers.heads_off_refused, shared=True, derived="heads_off")
    tab.on(any_of(c["lens_run"].click, c["dla_token"].submit), handlers.lens, LENS, api_name="generate_logit_lens",
           refused=handlers.lens_refused, shared=True, derived="lens")
    tab.on(any_of(c["xb_run"].click, c["xb_target"].submit), handlers.exposure, handlers.EXPOSURE,
           api_name="generate_exposure", refused=handlers.exposure_refused, shared=True, derived="exposure")
    tab.on(any_of(c["gg_play"].click, c["gg_guess"].submit, c["gg_new"].click, c["gg_rematch"].click),
           handlers.game_turn, GAME_TURN, progress_on="gg_result", api_name="generate_guess", derived="game",
           refused=handlers.game_refused,
           by_trigger={"gg_play": handlers.game_guess, "gg_guess": handlers.game_guess, "gg_new": handlers.game_new,
                       "gg_rematch": handlers.game_rematch})
