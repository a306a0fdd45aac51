"""A session's entries in every per-session store, removed when the session ends or expires.

Per session hash, Gradio keeps: its state (app.state_holder: an hour after its tab closed, up to the
holder's capacity), the queue's message box and set of pending event ids (the set stays, empty, for
every session ever seen) and its media streams; the app keeps its workspace (WorkspaceStore). A tab
that closes ends Gradio's heartbeat, which runs the page's unload event: `end_session` then removes
the session from all of them, its queue entries once no stream of its messages is open (queue_streams:
Gradio's stream removes them itself when its client is gone). A session that never held a heartbeat
(a script) or whose tab vanished without one ends by expiry: `sweep` removes the entries of every
session that the workspace store no longer holds and that has no event waiting or running, and
states closed or unused for the store's idle lifetime.
Both run on the server's event loop, where Gradio's queue changes these dictionaries.
"""
from __future__ import annotations

import datetime

import gradio as gr

from ..session.workspace import WorkspaceStore


def _queue_stores(blocks: gr.Blocks) -> list[dict]:
    """Gradio's dictionaries keyed by session hash (the queue's and the media streams')."""
    queue = blocks._queue
    return [queue.pending_messages_per_session, queue.pending_event_ids_session, blocks.pending_streams,
            blocks.pending_diff_streams]


def _nothing_running(blocks: gr.Blocks, session_hash: str) -> bool:
    """Whether none of the session's events waits or runs (a completed event's undelivered messages
    do not count: the session that would read them has ended)."""
    queue = blocks._queue
    ids = queue.pending_event_ids_session.get(session_hash) or ()
    return not any(i in queue.event_ids_to_events for i in ids) and not blocks.pending_streams.get(session_hash)


def _forget_in_gradio(blocks: gr.Blocks, session_hash: str) -> None:
    holder = getattr(blocks, "state_holder", None)
    if holder is not None:
        with holder.lock:
            holder.session_data.pop(session_hash, None)
            holder.time_last_used.pop(session_hash, None)

    def forget_queue() -> None:
        if _nothing_running(blocks, session_hash):  # else its events end first; a later sweep takes the rest
            for store in _queue_stores(blocks):
                store.pop(session_hash, None)

    streams = getattr(blocks, "queue_streams", None)
    if streams is None:
        forget_queue()
    else:
        streams.after_last(session_hash, forget_queue)


def end_session(blocks: gr.Blocks, store: WorkspaceStore, session_hash: str) -> None:
    """The session's tab closed: forget it everywhere (its workspace is closed, stopping its training)."""
    store.drop(session_hash)
    _forget_in_gradio(blocks, session_hash)


def sweep(blocks: gr.Blocks, store: WorkspaceStore, now: datetime.datetime | None = None) -> int:
    """Forget every session that has ended (its Gradio state closed) or expired (the store no longer
    holds it: its state unused for the store's idle lifetime, or no state at all), in every store; how
    many were forgotten. A session with an event queued or running is left for a later sweep."""
    now = now or datetime.datetime.now()
    store.expire()
    ended: set[str] = set()
    holder = getattr(blocks, "state_holder", None)
    if holder is not None:
        idle = datetime.timedelta(seconds=store.idle_seconds)
        for session_hash, state in list(holder.session_data.items()):
            last_used = holder.time_last_used.get(session_hash, now)
            if state.is_closed or (session_hash not in store and now - last_used > idle):
                ended.add(session_hash)
    for gradio_store in _queue_stores(blocks):
        ended.update(h for h in list(gradio_store) if h not in store and (holder is None or h not in holder))
    for session_hash in ended:
        store.drop(session_hash)
        _forget_in_gradio(blocks, session_hash)
    return len(ended)
