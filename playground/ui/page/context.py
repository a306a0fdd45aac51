"""What every tab's build() receives: the shared models, the session store, the language control
and the event groups that bound concurrency."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import gradio as gr
from gradio.events import Dependency

from ..session.registry import ModelEntry, ModelRegistry
from ..session.workspace import Workspace, WorkspaceStore
from .runtime import positive_int_env
from .validation import fail

LIGHT_CONCURRENCY = 2   # attention views and generation steps at once: Python holds one GIL, more only contend
HEAVY_CONCURRENCY = 1   # run to the end, beam search: one at a time, the rest queue visibly
UPLOAD_CONCURRENCY = 1  # model uploads: a queue of their own, so a stream of them delays no one else's events
TRAINING_SLOTS_ENV_VAR = "PLAYGROUND_TRAINING_SLOTS"
DEFAULT_TRAINING_SLOTS = 1   # trainings at once: on a 2-vCPU Space one trains while the other core serves viewers
LIGHT = {"concurrency_id": "light", "concurrency_limit": LIGHT_CONCURRENCY}
HEAVY = {"concurrency_id": "heavy", "concurrency_limit": HEAVY_CONCURRENCY}
UPLOAD = {"concurrency_id": "upload", "concurrency_limit": UPLOAD_CONCURRENCY}
QUIET = {**LIGHT, "show_progress": "hidden"}           # small control updates: no spinner, no error badge
# Checks that only decide whether a drawing follows (no model, no figure): never queued behind drawings.
CHECK = {"concurrency_id": "checks", "concurrency_limit": None, "show_progress": "hidden"}
PRIVATE = {"api_visibility": "private"}                # secondary triggers of an event with an API name
# Events whose inputs a tab's form checks (every value, in the session's language; see forms.Param):
# Gradio's own check of each input (the choices a radio shows, a slider's bounds) would run again,
# each in a thread of its own (~0.2 ms of the server's event loop per input, 15 inputs an event).
FORM_INPUTS = {"preprocess": False}
LOCAL_SESSION = "local"
LATEX = [{"left": "$$", "right": "$$", "display": True}, {"left": "$", "right": "$", "display": False}]


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
    """Trainings that run at once: $PLAYGROUND_TRAINING_SLOTS (an integer >= 1), else 1."""
    return positive_int_env(TRAINING_SLOTS_ENV_VAR, DEFAULT_TRAINING_SLOTS)


def training(*progress_on) -> dict:
    """A training event: at most training_slots() run at once, the rest wait with their place in
    the queue shown on `progress_on`."""
    return {"concurrency_id": "training", "concurrency_limit": training_slots(), "show_progress_on": list(progress_on)}


@dataclass
class AppContext:
    """Shared by the tabs while the page is declared.

    language: the radio holding the session's language ("en" / "zh-CN"); every handler takes it
        as an input and makes its text in that language.
    linked_view: the tab the page opens with (the link's `view`, else the first tab), set on load.
    address: the query of the address the page was opened with ("?view=...", "" without one), set
        on load. Events after the load read the page's link here: the address bar itself, which
        Gradio's page sends with every event, has by then been rewritten to describe the view.
    started: the page-load event, which sets the language, applies the link and draws the tab the
        page opens with (set once every tab exists, see links.wire_page).
    views: the tabs that have a form (and so a link), by view name.
    models_added: events after which every picker shows a model the session just added (an
        upload's status changing, a training publishing its model); a tab redraws for it on these.
    trained: a value that changes each time a run of the Train tab publishes its model into the
        session (its change is one of models_added).
    """

    registry: ModelRegistry
    store: WorkspaceStore
    language: gr.Radio
    linked_view: gr.State
    address: gr.Textbox
    started: Dependency | None = None
    pickers: list[tuple[gr.Dropdown, bool]] = field(default_factory=list)   # (dropdown, generative only)
    tab: gr.Tab | None = None           # the tab being declared
    tab_key: str = ""                   # its view name
    deferred: list[Callable[[], None]] = field(default_factory=list)
    views: dict = field(default_factory=dict)
    models_added: list = field(default_factory=list)   # triggers fired once a session's own model is picked
    trained: gr.Markdown | None = None

    def after_tabs(self, wire: Callable[[], None]) -> None:
        """Declare events with `wire` once every tab exists (for events that update every model picker)."""
        self.deferred.append(wire)

    def workspace(self, request: gr.Request | None) -> Workspace:
        """The calling session's workspace (one fixed workspace when called without a request)."""
        session = getattr(request, "session_hash", None) if request is not None else None
        return self.store.get(session or LOCAL_SESSION)

    def find_model(self, workspace: Workspace, name: str, lang: str, generative_only: bool = False) -> ModelEntry:
        """The model called `name` that this session can use, or a gr.Error listing the choices."""
        entry = workspace.find_model(self.registry, name) if isinstance(name, str) else None
        if entry is None or (generative_only and not entry.generative):
            choices = ", ".join(workspace.model_names(self.registry, generative_only))
            raise fail(lang, "err_unknown_model", name=name, choices=choices)
        return entry

    def picker_updates(self, workspace: Workspace, selected: ModelEntry) -> list[gr.Dropdown]:
        """Every model picker listing this session's models, `selected` chosen where it can be used."""
        updates = []
        for _, generative_only in self.pickers:
            choices = workspace.model_names(self.registry, generative_only)
            usable = selected.generative or not generative_only
            updates.append(gr.Dropdown(choices=choices, value=selected.name) if usable else gr.Dropdown(choices=choices))
        return updates

    def model_picker(self, elem_id: str, generative_only: bool = False, **kwargs) -> gr.Dropdown:
        """A model dropdown that also lists the session's own models once it has some.

        Any value reaches the handlers (allow_custom_value), which check it against the session's
        models and explain, in the session's language, which names exist.
        """
        dropdown = gr.Dropdown(self.registry.names(generative_only), value=self.registry.default(generative_only),
                               allow_custom_value=True, elem_id=elem_id, **kwargs)
        self.pickers.append((dropdown, generative_only))
        return dropdown

    def on_open(self, fn, inputs: list, outputs: list, progress_on) -> gr.State:
        """Draw the current tab with `fn` (a form's event, see FORM_INPUTS) the first time a session
        opens it. Returns whether the session has opened it (a gr.State): the page's load sets it for
        the tab the page opens with, drawn there, and a language change redraws the tabs opened (see
        wiring.redraw_on_language).

        A page load then costs one tab's figures, not every tab's, which matters when a whole
        class opens the app at once.
        """
        opened = gr.State(False)
        self.tab.select(_first_opening, [opened, self.linked_view], [opened], **CHECK, **PRIVATE).success(
            fn, inputs, outputs, **light(progress_on), **FORM_INPUTS, **PRIVATE)
        return opened


def _first_opening(opened: bool, linked_view: str) -> bool:
    """Let the drawing that follows run only the first time, and only once the page's link is
    applied (before that, the page-load drawing is the one to come; a silent error stops the chain)."""
    if opened or not linked_view:
        raise gr.Error("already drawn", visible=False, print_exception=False)
    return True
