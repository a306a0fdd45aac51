"""What every tab's build() receives: the shared models, the session store, the language control
and the event groups that bound concurrency."""
from __future__ import annotations

from dataclasses import dataclass, field

import gradio as gr

from .registry import ModelEntry, ModelRegistry
from .validation import fail
from .workspace import Workspace, WorkspaceStore

LIGHT_CONCURRENCY = 4   # an attention view, one generation step: quick, run side by side
HEAVY_CONCURRENCY = 1   # run to the end, beam search, uploads: one at a time, the rest queue visibly
LIGHT = {"concurrency_id": "light", "concurrency_limit": LIGHT_CONCURRENCY}
HEAVY = {"concurrency_id": "heavy", "concurrency_limit": HEAVY_CONCURRENCY}
QUIET = {**LIGHT, "show_progress": "hidden"}           # small control updates: no spinner
PRIVATE = {"api_visibility": "private"}                # secondary triggers of an event with an API name
LOCAL_SESSION = "local"
LATEX = [{"left": "$$", "right": "$$", "display": True}, {"left": "$", "right": "$", "display": False}]


@dataclass
class AppContext:
    """Shared by the tabs while the page is declared.

    language: the radio holding the session's language ("en" / "zh-CN"); every handler takes it
        as an input and makes its text in that language.
    started: the page-load event after the language is known; tabs chain their first render on it.
    """

    registry: ModelRegistry
    store: WorkspaceStore
    language: gr.Radio
    started: gr.events.Dependency
    pickers: list[tuple[gr.Dropdown, bool]] = field(default_factory=list)   # (dropdown, generative only)

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

    def model_picker(self, elem_id: str, generative_only: bool = False, **kwargs) -> gr.Dropdown:
        """A model dropdown that also lists the session's own models once it has some.

        Any value reaches the handlers (allow_custom_value), which check it against the session's
        models and explain, in the session's language, which names exist.
        """
        dropdown = gr.Dropdown(self.registry.names(generative_only), value=self.registry.default(generative_only),
                               allow_custom_value=True, elem_id=elem_id, **kwargs)
        self.pickers.append((dropdown, generative_only))
        return dropdown

    def on_language(self, fn, inputs: list, outputs: list) -> None:
        """Run `fn` once the page has loaded and again whenever the user changes the language."""
        self.started.then(fn, inputs, outputs, **LIGHT, **PRIVATE)
        self.language.input(fn, inputs, outputs, **LIGHT, **PRIVATE)
