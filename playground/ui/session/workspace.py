"""One Workspace per browser session, kept in a store bounded in count and idle lifetime.

A Workspace holds what a session changes: its own models (uploaded or trained; the shared
pretrained ones are never copied until a session changes them), its generation state, its
training and its labs. A workspace the store forgets (tab closed, idle, too many sessions) is closed, which
stops its training.
Events of one session are serialised by the workspace's lock; different sessions never share
anything mutable, so nothing one session does changes what another sees.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from .registry import ModelEntry, ModelRegistry

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
        self.generation: Any = None
        self.training: Any = None
        self.labs: Any = None
        self.lock = threading.RLock()
        self._added_drawn: dict[str, ModelEntry] = {}     # view -> the added model it last drew
        self._language: str | None = None                  # the language the session's page was last drawn in

    def close(self) -> None:
        """Stop the session's training and lab, if any (the session is being forgotten)."""
        for work in (self.training, self.labs):
            if work is not None:
                work.close()

    def add_model(self, entry: ModelEntry) -> None:
        """Keep `entry` as one of this session's models; the oldest goes beyond MAX_SESSION_MODELS."""
        self.models.pop(entry.name, None)
        self.models[entry.name] = entry
        while len(self.models) > MAX_SESSION_MODELS:
            self.models.popitem(last=False)

    def newest_model(self) -> ModelEntry | None:
        """The model this session added last (uploaded, or published again by a training), None before any."""
        return next(reversed(self.models.values()), None)

    def switch_language(self, lang: str) -> bool:
        """Record that the session's page is now drawn in `lang`; False when it already was (the
        page may report the language it opened with as a change)."""
        with self.lock:
            changed, self._language = self._language != lang, lang
            return changed

    def first_drawing(self, view: str, entry: ModelEntry) -> bool:
        """True the first time `view` is asked to draw `entry` as the model the session added, False
        after: the page may report one addition more than once, and a repeat must neither replace
        what the user typed since nor take the picker back to the added model."""
        with self.lock:
            if self._added_drawn.get(view) is entry:
                return False
            self._added_drawn[view] = entry
            return True

    def model_names(self, registry: ModelRegistry, generative_only: bool = False) -> list[str]:
        """The shared models, then this session's own."""
        own = [n for n, e in self.models.items() if e.generative or not generative_only]
        return registry.names(generative_only) + own

    def find_model(self, registry: ModelRegistry, name: str) -> ModelEntry | None:
        return self.models.get(name) or registry.get(name)

    def model(self, name: str) -> ModelEntry | None:
        """The model called `name` that this session can use: its own, else a shared one."""
        return self.find_model(self.registry, name)


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
