"""What every tab's build() receives: the shared models, the session store, the language control
and the event groups that bound concurrency."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import gradio as gr

from playground.device import on_zero_gpu
from playground.zoo import ModelRegistry

from ..session.threads import positive_int_env
from ..session.workspace import Workspace, WorkspaceStore
from .page_needs import PageNeeds

LIGHT_CONCURRENCY = 2   # attention views and generation steps at once: Python holds one GIL, more only contend
HEAVY_CONCURRENCY = 1   # run to the end, beam search: one at a time, the rest queue visibly
UPLOAD_CONCURRENCY = 1  # model uploads: a queue of their own, so a stream of them delays no one else's events
TRAINING_SLOTS_ENV_VAR = "PLAYGROUND_TRAINING_SLOTS"
DEFAULT_TRAINING_SLOTS = 1   # trainings at once: on a 2-vCPU Space one trains while the other core serves viewers
ZERO_GPU_TRAINING_SLOTS = 8  # on ZeroGPU the chunks train on the platform's GPUs and the Space's CPU mostly waits
LIGHT = {"concurrency_id": "light", "concurrency_limit": LIGHT_CONCURRENCY}
HEAVY = {"concurrency_id": "heavy", "concurrency_limit": HEAVY_CONCURRENCY}
UPLOAD = {"concurrency_id": "upload", "concurrency_limit": UPLOAD_CONCURRENCY}
# A session's language switches, recorded one at a time in the order they were made (Gradio's queue keeps
# a client's events in order; two workers could record a quick switch back before the switch before it).
LANGUAGE = {"concurrency_id": "language", "concurrency_limit": 1}
QUIET = {**LIGHT, "show_progress": "hidden"}           # small control updates: no spinner, no error badge
MODEL_PICKER_WIDTH = 220   # px: the longest shipped name whole beside the arrow, in presenter mode's large text too
# Checks that only decide whether a run follows (no model, no figure): never queued behind drawings.
CHECK = {"concurrency_id": "checks", "concurrency_limit": None, "show_progress": "hidden"}
PRIVATE = {"api_visibility": "private"}                # secondary triggers of an event with an API name
# Events whose inputs a tab's form checks (every value, in the session's language; see forms.Param):
# Gradio's own check of each input (the choices a radio shows, a slider's bounds) would run again,
# each in a thread of its own (~0.2 ms of the server's event loop per input, 15 inputs an event).
FORM_INPUTS = {"preprocess": False}
LOCAL_SESSION = "local"


def light(*progress_on) -> dict:
    """A light event whose progress (and, should it fail, error badge) shows on `progress_on` only,
    so the controls among its outputs stay usable."""
    return {**LIGHT, "show_progress_on": list(progress_on)}


def heavy(*progress_on) -> dict:
    """A heavy event (queued one at a time, queue position shown on `progress_on`)."""
    return {**HEAVY, "show_progress_on": list(progress_on)}


def uploading(*progress_on) -> dict:
    """A model upload (queued one at a time in its own group, place shown on `progress_on`)."""
    return {**UPLOAD, "show_progress_on": list(progress_on)}


def training_slots() -> int:
    """Trainings that run at once: $PLAYGROUND_TRAINING_SLOTS (an integer >= 1), else
    ZERO_GPU_TRAINING_SLOTS on a ZeroGPU Space and DEFAULT_TRAINING_SLOTS elsewhere."""
    return positive_int_env(TRAINING_SLOTS_ENV_VAR, ZERO_GPU_TRAINING_SLOTS if on_zero_gpu() else DEFAULT_TRAINING_SLOTS)


def training(*progress_on) -> dict:
    """A training event: at most training_slots() run at once, the rest wait with their place in
    the queue shown on `progress_on`."""
    return {"concurrency_id": "training", "concurrency_limit": training_slots(), "show_progress_on": list(progress_on)}


@dataclass
class AppContext:
    """Shared by the tabs while the page is declared.

    language: the radio holding the session's language ("en" / "zh-CN"); every handler takes it
        as an input and makes its text in that language.
    views: the tabs' wirings (page.wiring.TabWiring), by view name.
    note: the one-line note at the top of the tab being declared (see TabWiring.show).
    kept: what the browser keeps for the session across reloads and restarts: (a gr.BrowserState,
        keep(workspace, value) that puts its value into the session's workspace when the page opens
        and says whether the tab that shows it is to start from it and whether it added to what the
        session had, that tab's view name).
    """

    registry: ModelRegistry
    store: WorkspaceStore
    language: gr.Radio
    views: dict = field(default_factory=dict)
    note: gr.Markdown | None = None
    kept: list[tuple[gr.BrowserState, Callable[[Workspace, object], tuple[bool, bool]], str | None]] = field(
        default_factory=list)
    kept_model: gr.BrowserState | None = None     # the session's trained model, kept by the browser (kept_models)
    # the header's message panels (an upload's, the Hub's, what a link ignored, what Copy link said) by elem_id,
    # said with say_in_header: the language event writes each again
    header_notes: dict[str, gr.Markdown] = field(default_factory=dict)
    page_needs: Mapping[str, PageNeeds] = field(default_factory=dict)   # what each tab declares, by view

    def say_in_header(self, workspace: Workspace, panel: gr.Markdown, message: Callable[[str], str],
                      lang: str) -> dict:
        """{panel: the message in `lang`}; the session keeps the message, so that the page's next language
        writes it again (a panel of header_notes). `message` holds only what it says, never a model."""
        with workspace.lock:
            workspace.header_notes[panel.elem_id] = message
        return {panel: message(lang)}

    def workspace(self, request: gr.Request | None, opens_page: bool = False) -> Workspace:
        """The calling session's workspace (one fixed workspace when called without a request);
        `opens_page`: the page's own opening event (the session is a browser tab; see WorkspaceStore)."""
        session = getattr(request, "session_hash", None) if request is not None else None
        return self.store.get(session or LOCAL_SESSION, opens_page=opens_page)

    def model_picker(self, elem_id: str, generative_only: bool = False, **kwargs) -> gr.Dropdown:
        """A model dropdown; a tab's drawing lists the session's own models in it too.

        Any value reaches the handlers (allow_custom_value), which check it against the session's
        models and explain, in the session's language, which names exist.
        """
        kwargs.setdefault("min_width", MODEL_PICKER_WIDTH)
        return gr.Dropdown(self.registry.names(generative_only), value=self.registry.default(generative_only),
                           allow_custom_value=True, elem_id=elem_id, **kwargs)
