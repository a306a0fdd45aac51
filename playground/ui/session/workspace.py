"""One Workspace per browser session, kept in a store bounded in count and idle lifetime.

A Workspace is the session's single source of truth: its own models (uploaded or trained; the
shared pretrained ones are never copied until a session changes them), the model it works with now
(the one picked, uploaded or trained last: every tab that shows models follows it when it is next
shown), each tab's form as last drawn, what each tab and each of its derived panels was drawn for,
its generation state, its guessing game (one, of a few rounds, holding the shared models and text),
its training and its labs. A tab draws itself from its workspace when it is shown; nothing is pushed
into a hidden tab. A workspace the store forgets (tab closed, idle, or idle and giving way to a newcomer) is
closed, which stops its training.
Events of one session are serialised by the workspace's lock; different sessions never share
anything mutable, so nothing one session does changes what another sees.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterator

from playground.zoo import ModelEntry, ModelRegistry

# The store's bounds; each workspace holds at most MAX_SESSION_MODELS models of the session's own
# (README, "Serving a class": the memory budget).
MAX_SESSIONS = 100            # browser tabs that opened the page
MAX_PASSING_SESSIONS = 100    # sessions that only call the API (scripts, the benchmarks' students)
IDLE_SECONDS = 30 * 60        # a session unused this long is forgotten
EVICTABLE_AFTER_SECONDS = 10 * 60   # a page unused this long may give way to a newcomer when the store is full
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
        # the header panels' messages by elem_id, as functions of the language (written again when it changes)
        self.header_notes: dict[str, Callable[[str], str]] = {}
        self.lessons: dict | None = None          # the learner's place and answers (the browser keeps a copy)
        self.generation: Any = None
        self.beam: Any = None                     # the last beam search run (views.generate.BeamRun)
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


class SessionsFull(RuntimeError):
    """The store holds as many sessions as it may and none can give way: each is in use (an event in the
    last EVICTABLE_AFTER_SECONDS), training, or holds a model it made or uploaded."""

    def __init__(self, sessions: int):
        super().__init__(f"the server already serves {sessions} sessions, none of them idle")
        self.sessions = sessions


@dataclass
class _Held:
    workspace: Workspace
    last_used: float                 # the store's clock at the session's last event
    opened: bool                     # the session opened the page (a browser tab), not only called the API


class WorkspaceStore:
    """Session id -> Workspace, each forgotten after `idle_seconds` unused.

    Sessions that opened the page (get(..., opens_page=True): a browser tab) count toward `max_sessions`;
    sessions that only call the API (scripts, benchmarks) toward `max_passing` of their own, so no number
    of them can push a student out. When a class is full, a newcomer takes the place of the least recently
    used session of its class that can give way: a page idle for `evictable_after` seconds, or any API
    session; never one that is training or holds a model it made or uploaded. When none can, the newcomer
    is refused (SessionsFull) and everyone already served keeps their session.
    """

    def __init__(self, max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic, registry: ModelRegistry | None = None,
                 max_passing: int = MAX_PASSING_SESSIONS, evictable_after: float = EVICTABLE_AFTER_SECONDS):
        if max_sessions < 1 or max_passing < 1 or idle_seconds <= 0 or evictable_after < 0:
            raise ValueError("need max_sessions >= 1, max_passing >= 1, idle_seconds > 0 and evictable_after >= 0, "
                             f"got {max_sessions}, {max_passing}, {idle_seconds}, {evictable_after}")
        self.max_sessions = max_sessions
        self.max_passing = max_passing
        self.idle_seconds = idle_seconds
        self.evictable_after = evictable_after
        self._clock = clock
        self.registry = registry
        self._held: OrderedDict[str, _Held] = OrderedDict()       # least recently used first
        self._lock = threading.Lock()

    @property
    def capacity(self) -> int:
        """The most sessions held at once (pages and API sessions)."""
        return self.max_sessions + self.max_passing

    def get(self, session_id: str, opens_page: bool = False) -> Workspace:
        """The session's workspace (a fresh one when it is new or was forgotten); `opens_page`: the
        session is a browser tab opening the page. Raises SessionsFull when a new session finds no room."""
        if not session_id:
            raise ValueError("a workspace needs a session id")
        now = self._clock()
        with self._lock:
            self._expire(now)
            held = self._held.pop(session_id, None)
            if held is None:
                self._make_room(opens_page, now)
                held = _Held(Workspace(session_id, self.registry), now, opens_page)
            elif opens_page and not held.opened:
                try:
                    self._make_room(True, now)
                except SessionsFull:
                    self._held[session_id] = held
                    raise
                held.opened = True
            held.last_used = now
            self._held[session_id] = held
            return held.workspace

    def find(self, session_id: str) -> Workspace | None:
        """The session's workspace if the store holds it (nothing is made, nothing counts as a use)."""
        held = self._held.get(session_id)
        return held.workspace if held is not None else None

    def drop(self, session_id: str) -> None:
        """Forget a session (its tab was closed)."""
        with self._lock:
            held = self._held.pop(session_id, None)
        if held is not None:
            held.workspace.close()

    def expire(self) -> None:
        """Forget the sessions unused for `idle_seconds` (also done by every get)."""
        with self._lock:
            self._expire(self._clock())

    def _make_room(self, opened: bool, now: float) -> None:
        """Room for one more session of the class `opened`: the least recently used one that can give
        way is forgotten when the class is full; SessionsFull when none can."""
        limit = self.max_sessions if opened else self.max_passing
        same_class = [(sid, held) for sid, held in self._held.items() if held.opened == opened]
        if len(same_class) < limit:
            return
        for session_id, held in same_class:
            if _keeps_work(held.workspace) or (opened and now - held.last_used < self.evictable_after):
                continue
            del self._held[session_id]
            held.workspace.close()
            return
        raise SessionsFull(len(same_class))

    def _expire(self, now: float) -> None:
        for session_id, held in list(self._held.items()):
            if now - held.last_used <= self.idle_seconds:
                break                          # the rest were used later
            if _training(held.workspace):
                continue                       # a run goes on (at most RUN_SECONDS) and is never cut off
            del self._held[session_id]
            held.workspace.close()

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, session_id: str) -> bool:
        return session_id in self._held

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._held))


def _training(workspace: Workspace) -> bool:
    return bool(getattr(workspace.training, "running", False))


def _keeps_work(workspace: Workspace) -> bool:
    """Whether forgetting the session would lose work: a running training, or a model it made or uploaded."""
    return bool(workspace.models) or _training(workspace)
