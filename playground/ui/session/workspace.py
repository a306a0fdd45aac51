"""One Workspace per browser session, kept in a store bounded in count and idle lifetime.

A Workspace is the session's single source of truth: its own models (uploaded or trained; the
shared pretrained ones are never copied until a session changes them), the model it works with now
(the one picked, uploaded or trained last: every tab that shows models follows it when it is next
shown), each tab's form as last drawn, what each tab and each of its derived panels was drawn for,
its generation state, its guessing game (one, of a few rounds, holding the shared models and text),
its training and its labs. A tab draws itself from its workspace when it is shown; nothing is pushed
into a hidden tab. A workspace the store forgets (tab closed, idle, too many sessions) is closed, which
stops its training.
Events of one session are serialised by the workspace's lock; different sessions never share
anything mutable, so nothing one session does changes what another sees.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Hashable

from playground.zoo import ModelEntry, ModelRegistry

MAX_SESSIONS = 100
IDLE_SECONDS = 30 * 60
MAX_SESSION_MODELS = 2


class Workspace:
    """What one session owns: its models, its generation state, its training and its labs (objects
    with a close() method that stops them and frees what they hold)."""

    def __init__(self, session_id: str, registry: ModelRegistry | None = None):
        self.session_id = session_id
        self.registry = registry          # the shared models (read-only), for handlers that take a workspace
        self.models: OrderedDict[str, ModelEntry] = OrderedDict()
        self.current_model: str | None = None     # picked, uploaded or trained last (None: each tab's own)
        self.forms: dict[str, Any] = {}           # view -> its form as last drawn
        self.drawn: dict[str, Hashable] = {}      # view -> what its page shows was drawn for (see drawing_key)
        self.derived: dict[tuple[str, str], Hashable] = {}   # (view, panel) -> what the panel shows was computed for
        self.shown_view: str | None = None        # the tab on screen
        self.language: str | None = None          # the language the page was last drawn in
        self.lessons: dict | None = None          # the learner's place and answers (the browser keeps a copy)
        self.generation: Any = None
        self.beam: Any = None                     # the last beam search run (tabs.generate.views.BeamRun)
        self.game: Any = None                     # the guessing game (views.guessing.GameState): one a session
        self.training: Any = None
        self.labs: Any = None
        self.lock = threading.RLock()
        self._models_version = 0                  # grows with every model the session adds

    def close(self) -> None:
        """Stop the session's training and lab, if any (the session is being forgotten)."""
        for work in (self.training, self.labs):
            if work is not None:
                work.close()

    def add_model(self, entry: ModelEntry) -> None:
        """Keep `entry` as one of this session's models, and work with it from now on; the oldest goes
        beyond MAX_SESSION_MODELS."""
        with self.lock:
            self.models.pop(entry.name, None)
            self.models[entry.name] = entry
            while len(self.models) > MAX_SESSION_MODELS:
                self.models.popitem(last=False)
            self.current_model = entry.name
            self._models_version += 1

    def choose_model(self, name: str) -> None:
        """Work with the model called `name` from now on (picked in a tab, or named by a link)."""
        with self.lock:
            if self.model(name) is not None:
                self.current_model = name

    def drawing_key(self, form, lang: str) -> Hashable:
        """What a tab's drawing of `form` in `lang` depends on besides the form: the session's models
        (a new one changes every picker's choices)."""
        return form, lang, self._models_version

    def remember(self, view: str, form, lang: str | None = None) -> None:
        """`form` is what the tab `view` shows now (drawn in `lang`, when given)."""
        with self.lock:
            self.forms[view] = form
            if lang is not None:
                self.drawn[view] = self.drawing_key(form, lang)

    def newest_model(self) -> ModelEntry | None:
        """The model this session added last (uploaded, or published again by a training), None before any."""
        return next(reversed(self.models.values()), None)

    def model_names(self, registry: ModelRegistry, generative_only: bool = False) -> list[str]:
        """The shared models, then this session's own."""
        own = [n for n, e in self.models.items() if e.generative or not generative_only]
        return registry.names(generative_only) + own

    def find_model(self, registry: ModelRegistry, name: str) -> ModelEntry | None:
        return self.models.get(name) or registry.get(name)

    def model(self, name: str) -> ModelEntry | None:
        """The model called `name` that this session can use: its own, else a shared one."""
        return self.find_model(self.registry, name)

    @property
    def catalog(self) -> "Catalog":
        """The models this session can use, with the registry's interface."""
        return Catalog(self)


class Catalog:
    """The registry as one session sees it: its own models beside (and over) the shared ones, so that a
    form fitted to its model (Form.fit) fits a session's own model as it fits a shipped one."""

    def __init__(self, workspace: Workspace):
        self._workspace = workspace
        self._registry = workspace.registry

    def get(self, name: str) -> ModelEntry | None:
        return self._workspace.model(name)

    def names(self, generative_only: bool = False) -> list[str]:
        return self._workspace.model_names(self._registry, generative_only)

    def default(self, generative_only: bool = False) -> str:
        return self._registry.default(generative_only)

    def timeline_steps(self, name: str) -> list[int]:
        return self._registry.timeline_steps(name)

    def timeline_entry(self, name: str, step: int) -> ModelEntry:
        return self._registry.timeline_entry(name, step)


class WorkspaceStore:
    """Session id -> Workspace; at most `max_sessions`, each forgotten after `idle_seconds` unused."""

    def __init__(self, max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic, registry: ModelRegistry | None = None):
        if max_sessions < 1 or idle_seconds <= 0:
            raise ValueError(f"need max_sessions >= 1 and idle_seconds > 0, got {max_sessions}, {idle_seconds}")
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._clock = clock
        self.registry = registry
        self._workspaces: OrderedDict[str, tuple[Workspace, float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session_id: str) -> Workspace:
        """The session's workspace (a fresh one when it is new or was forgotten)."""
        if not session_id:
            raise ValueError("a workspace needs a session id")
        now = self._clock()
        with self._lock:
            self._expire(now)
            workspace = self._workspaces.pop(session_id, (None, now))[0] or Workspace(session_id, self.registry)
            self._workspaces[session_id] = (workspace, now)
            while len(self._workspaces) > self.max_sessions:
                self._workspaces.popitem(last=False)[1][0].close()
            return workspace

    def drop(self, session_id: str) -> None:
        """Forget a session (its tab was closed)."""
        with self._lock:
            workspace, _ = self._workspaces.pop(session_id, (None, 0.0))
        if workspace is not None:
            workspace.close()

    def _expire(self, now: float) -> None:
        while self._workspaces:
            _, (_, last_used) = next(iter(self._workspaces.items()))
            if now - last_used <= self.idle_seconds:
                break
            self._workspaces.popitem(last=False)[1][0].close()

    def __len__(self) -> int:
        return len(self._workspaces)

    def __contains__(self, session_id: str) -> bool:
        return session_id in self._workspaces
