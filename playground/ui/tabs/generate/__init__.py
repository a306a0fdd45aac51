"""Generate tab: step through decoding token by token (Step / Run / Back / Reset) with greedy,
seeded sampling or beam search; the candidates before and after temperature, top-k and top-p;
the new token's attention; the causal matrix filling in; the beam tree.

layout.py declares the components, form.py the controls as one value (and its link),
handlers.py what each event draws, views.py the figures."""
from __future__ import annotations

from ...context import PRIVATE, QUIET, AppContext, heavy
from ...widgets import on_slide
from ...wiring import TabWiring, file_name
from . import handlers
from .form import GenerateForm
from .layout import layout
from .views import (
    DEFAULTS,
    Generation,
    GenerateViews,
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
    tab = TabWiring(ctx, GenerateForm, c, export_name=export_name)
    everything, stepped = handlers.EVERYTHING, handlers.STEPPED
    refused = handlers.refused
    tab.on_open(handlers.draw, everything)
    tab.on(c["step_button"].click, handlers.step, stepped, api_name="generate_step", refused=refused)
    tab.on(c["back_button"].click, handlers.back, stepped, api_name="generate_back", refused=refused)
    tab.on(c["reset_button"].click, handlers.reset, everything, api_name="generate_reset", refused=refused)
    running = tab.on(c["run_button"].click, handlers.run, everything, api_name="generate_run", stream=True,
                     refused=refused, **heavy(c["output"]))
    c["stop_button"].click(None, None, None, cancels=[running], **PRIVATE)
    tab.on(c["model"].input, handlers.change_model, ["prompt", *everything], progress_on="output", refused=refused)
    for trigger in (c["prompt"].submit, examples.load_input_event.then):
        tab.on(trigger, handlers.reset, everything, refused=refused)
    tab.on(c["strategy"].input, handlers.draw, everything, refused=refused)
    for slider in (c["layer"], c["head"]):
        trigger, options = on_slide(slider)
        tab.on(trigger, handlers.redraw_filling, ["filling"], **QUIET, **options)
