"""Gradio's per-session state without the copies of component configs it keeps up to date.

Gradio's SessionState holds a config of every component of the page for its own deep-link button:
it builds all of them when a session starts, and rebuilds a component's whenever an event reads or
updates it. This app has about 500 components and links of its own (playground.ui.page.links), so that
work cost every new session about 20 ms of server CPU and 0.75 MB of memory (kept for an hour after
the page closed), and every event a few milliseconds more: a class opening the page at once queued
behind it. LeanSessionState records which blocks an event replaced and builds the configs only when
all of them are asked for. It keeps no copy of a block an event left as it was, and none of the
values events wrote (every figure's JSON, kept by Gradio only to put it in a deep link): a session
holds only the controls its events changed, and sessions share one copy of a control their events
changed alike (SharedCopies: a class switching language or model makes the same few dozen copies).
"""
from __future__ import annotations

import asyncio
import datetime
import os
import threading
import weakref
from contextlib import asynccontextmanager
from copy import copy
from typing import Any, Iterator

from gradio.blocks import Block
from gradio.components import Audio, DownloadButton, File, Gallery, Image, State, UploadButton, Video
from gradio.state_holder import SessionState, StateHolder

from .housekeeping import keep_house


class LeanSessionState(SessionState):
    """SessionState whose component configs are built on demand (`components`)."""

    def __init__(self, blocks, shared: SharedCopies | None = None):
        self.shared = shared if shared is not None else SharedCopies()
        self.blocks_config = copy(blocks.default_config)
        self.page_blocks = blocks.blocks                  # the page's own components (not ones rendered later)
        self.added: set[int] = set()                      # blocks the session set (SessionState built their configs)
        self.state_data: dict[int, Any] = {}
        self._state_ttl: dict = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    def __setitem__(self, key: int, value: Any) -> None:
        block = self.blocks_config.blocks.get(key)
        if isinstance(block, State):
            self._state_ttl[key] = (block.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
        else:
            self.blocks_config.blocks[key] = self._kept(key, value, block)
        if block:
            self.added.add(key)

    def _kept(self, key: int, value: Any, held: Any) -> Any:
        """What the session keeps of `value`, Gradio's new copy of block `key` (`held`: the block it held)."""
        if not isinstance(value, Block):
            return value
        arguments = compared_arguments(value)
        if built_alike(held, value, arguments):
            return held
        if value is not self.page_blocks.get(key):
            del value._constructor_args[1:]     # its parent classes' arguments: Gradio reads only the first
            return self.shared.copy_of(key, value, arguments)
        return value

    def _update_config(self, key: int) -> None:
        """Nothing to rebuild: `components` reads each block as it is when asked."""

    def _update_value_in_config(self, key: int, value: Any) -> None:
        """Nothing kept: the page has no deep-link button of Gradio's (its links are the app's own)."""

    @property
    def components(self) -> Iterator[dict]:
        """Every component's config as the session's events left its properties (not the values they wrote)."""
        for key, block in self.blocks_config.blocks.items():
            if key not in self.page_blocks and key not in self.added:
                continue
            config = self.blocks_config.config_for_block(key, [], block)
            if config:
                yield config


# Arguments a copy differs in from the block it was made of: Gradio builds every copy unrendered, and
# without its value.
UNCOMPARED = ("render", "value")


def compared_arguments(block: Block) -> dict:
    """The arguments `block` was built from, but those every copy differs in (UNCOMPARED)."""
    return {name: value for name, value in block.constructor_args.items() if name not in UNCOMPARED}


def built_alike(held: Any, made: Block, arguments: dict) -> bool:
    """Whether `held` is a block of `made`'s type built from the same `arguments` (made's
    compared_arguments). Gradio rebuilds an output an event left as it was (gr.skip(), or an output
    missing from the event's dict) all the same: the session then keeps the block it holds (the page's
    own, unless an earlier event changed it) instead of a copy per skipped output per session."""
    if not isinstance(held, Block) or type(held) is not type(made):
        return False
    try:
        return bool(arguments == compared_arguments(held))
    except (TypeError, ValueError):         # a value without a plain equality (an array): not the same
        return False


# Copies never shared: Gradio records in a copy the files it moved into its cache for its session
# (a shared copy's record would grow with every session's files).
UNSHARED_TYPES = (Audio, DownloadButton, File, Gallery, Image, UploadButton, Video)
COPIES_PER_BLOCK = 64       # distinct copies of one block looked through for a match; more are kept unshared


class SharedCopies:
    """One copy per block and set of arguments, for every session of the server.

    Gradio builds a new copy of a control for each session whose event changed its properties, and a
    class makes the same changes (each language's labels, each model's choices and ranges): held
    apart, the copies grew with every session up to its bound (1.1 MiB at most, 200 sessions). A copy
    is only read after it is made (preprocessing an input, postprocessing an output), so sessions can
    hold the same one; a copy goes when no session holds it (weak references).
    """

    def __init__(self, per_block: int = COPIES_PER_BLOCK):
        self.per_block = per_block
        self._copies: dict[int, list[weakref.ref]] = {}     # block id -> live copies, oldest first
        self._lock = threading.Lock()

    def copy_of(self, key: int, made: Block, arguments: dict | None = None) -> Block:
        """The copy already held with `made`'s type and arguments (its compared_arguments, when the
        caller has them), else `made` (now shared)."""
        if isinstance(made, UNSHARED_TYPES):
            return made
        arguments = compared_arguments(made) if arguments is None else arguments
        with self._lock:
            alive = [ref for ref in self._copies.get(key, ()) if ref() is not None]
            for ref in alive:
                held = ref()
                if built_alike(held, made, arguments):
                    return held
            if len(alive) < self.per_block:
                alive.append(weakref.ref(made))
            if alive:
                self._copies[key] = alive
            else:
                self._copies.pop(key, None)
        return made

    def __len__(self) -> int:
        """Copies held by some session."""
        with self._lock:
            return sum(ref() is not None for refs in self._copies.values() for ref in refs)


class LeanStateHolder(StateHolder):
    """StateHolder that starts sessions as LeanSessionState, and at its capacity forgets first the
    states of sessions the app no longer keeps (`store`: closed, expired or given way), so new
    sessions never push out the state of a session the app still serves."""

    store = None            # the app's WorkspaceStore, when there is one

    def __init__(self):
        super().__init__()
        self.shared = SharedCopies()

    def __getitem__(self, session_id: str) -> SessionState:
        if session_id not in self.session_data:
            self.session_data[session_id] = LeanSessionState(self.blocks, self.shared)
        return super().__getitem__(session_id)

    def update(self, session_id: str) -> None:
        with self.lock:
            if session_id in self.session_data:
                self.session_data.move_to_end(session_id)
            while len(self.session_data) > self.capacity:
                others = [(s, state) for s, state in self.session_data.items() if s != session_id]
                evicted = next((s for s, state in others
                                if state.is_closed or (self.store is not None and s not in self.store)),
                               others[0][0])
                del self.session_data[evicted]
                self.time_last_used.pop(evicted, None)


@asynccontextmanager
async def lean_sessions(app):
    """A lifespan for Gradio's app (launch's app_kwargs): sessions start lean from the first request,
    Gradio keeps as many sessions' states as the app keeps workspaces (Gradio's own default is
    10,000, each with the last outputs of its events, however long ago the session ended), and the
    server's housekeeping runs while it serves (server.housekeeping)."""
    holder = LeanStateHolder()
    holder.set_blocks(app.blocks)
    workspaces = getattr(app.blocks, "workspaces", None)
    if workspaces is not None:
        holder.capacity = workspaces.capacity
        holder.store = workspaces
    app.state_holder = holder
    chores = asyncio.create_task(keep_house(app.blocks, workspaces)) if workspaces is not None else None
    try:
        yield
    finally:
        if chores is not None:
            chores.cancel()
