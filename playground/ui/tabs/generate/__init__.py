"""Generate tab: step through decoding token by token (Step / Run / Back / Reset) with greedy,
seeded sampling or beam search; the candidates before and after temperature, top-k and top-p;
the new token's attention; the causal matrix filling in; the beam tree; what changes when heads
are switched off, the logit lens of the prompt, and exposure bias (teacher forcing against
free-running on a target).

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...page.context import PRIVATE, QUIET, AppContext, heavy
from ...page.wiring import TabWiring, any_of, file_name, on_slides
from ...views.interventions_panels import HEADS_OFF, LENS
from . import handlers
from .form import GenerateForm
from .layout import layout
from .views import (
    DEFAULTS,
    GenerateViews,
    Generation,
    Settings,
    beam_views,
    check_prompt,
    check_settings,
    current_generation,
    stepper_views,
)

__all__ = ["DEFAULTS", "GenerateForm", "GenerateViews", "Generation", "Settings", "beam_views", "build",
           "check_prompt", "check_settings", "current_generation", "stepper_views"]


def export_name(form: GenerateForm, figure: str) -> str:
    """"tiny-gpt-generate-sample-filling-step3-L0-H1": model, view, strategy, figure, step, layer, head."""
    return file_name(form.model, form.VIEW, form.strategy, figure, f"step{form.steps}", f"L{form.layer}",
                     f"H{form.head}")


def build(ctx: AppContext) -> None:
    """Declare the tab's components and events (inside a gr.Tab)."""
    c, examples = layout(ctx)
    tab = TabWiring(ctx, GenerateForm, c, export_name=export_name, controls=handlers.controls)
    everything, stepped, controls = handlers.EVERYTHING, handlers.STEPPED, handlers.CONTROLS
    refused = handlers.refused
    tab.on_open(handlers.open_tab, [*everything, *controls])
    tab.on(c["step_button"].click, handlers.step, stepped, api_name="generate_step", refused=refused)
    tab.on(c["back_button"].click, handlers.back, stepped, api_name="generate_back", refused=refused)
    resetting = tab.on(c["reset_button"].click, handlers.reset, everything, api_name="generate_reset", refused=refused)
    tab.on(resetting.success, handlers.controls, controls, **QUIET)           # what the model accepts, for the prompt
    running = tab.on(c["run_button"].click, handlers.run, everything, api_name="generate_run", stream=True,
                     refused=refused, **heavy(c["output"]))
    c["stop_button"].click(None, None, None, cancels=[running], **PRIVATE)
    model_outputs = ["prompt", "xb_target", *everything, *controls]
    tab.on(c["model"].input, handlers.change_model, model_outputs, progress_on="output", refused=refused)

    ctx.after_tabs(lambda: tab.on_model_added(handlers.model_added, ["model", *model_outputs], progress_on="output",
                                              refused=refused))
    tab.on(c["prompt"].submit, handlers.restart, [*everything, *controls], refused=refused)
    tab.on(examples.load_input_event.then, handlers.load_example, ["xb_target", *everything, *controls],
           refused=refused)
    tab.on(c["strategy"].input, handlers.draw, everything, refused=refused)
    trigger, options = on_slides(c["layer"], c["head"])
    tab.on(trigger, handlers.redraw_filling, ["filling"], **QUIET, **options)
    tab.on(c["ho_run"].click, handlers.heads_off, HEADS_OFF, api_name="generate_heads_off",
           refused=handlers.heads_off_refused, shared=True)
    tab.on(c["lens_run"].click, handlers.lens, LENS, api_name="generate_logit_lens", refused=handlers.lens_refused,
           shared=True)
    tab.on(any_of(c["xb_run"].click, c["xb_target"].submit), handlers.exposure, handlers.EXPOSURE,
           api_name="generate_exposure", refused=handlers.exposure_refused, shared=True)
