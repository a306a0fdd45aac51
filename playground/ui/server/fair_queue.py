"""Gradio's queue made fair: no one browser or script can fill it for everyone.

Gradio refuses every new event once `max_size` events wait in all groups together, so one client
sending a few hundred requests made every student's next click fail with "Queue is full" for as long
as the slow ones took. Here each event that joins is counted against three limits of pending events
(waiting, running, or done with a reply the client has not read yet, which the server keeps for it):

- its session's (MAX_WAITING_PER_SESSION): more than a page's clicks ever queue at once;
- its client's (MAX_WAITING_PER_CLIENT): the address it comes from. On a Hugging Face Space every
  request comes through the platform's proxy, which appends the address it received the request from
  to X-Forwarded-For: that last entry is the client (the entries before it are the client's own
  claims). The header is trusted only where the platform sets it ($SPACE_ID, set on every Space) or
  where $PLAYGROUND_TRUST_FORWARDED_FOR=1 says a proxy of the operator's own does;
  elsewhere the address is the connection's. A class behind one school address shares this limit;
- its group's (GROUP_LIMITS, by concurrency id; waiting events only), each line bounded apart, so heavy
  work (run to the end, beam search, trainings, uploads) that fills its line never refuses a light event.

These limits replace Gradio's max_size, which stays unset: on a ZeroGPU Space Gradio's Blocks.queue
turns an unset max_size into 1 (gradio/blocks.py), which would refuse with "Queue is full" any event
that finds one other waiting, in any group: a class pressing Start together, and every viewer meanwhile.

A refused event gets HTTP 429 with the app's own message in the session's language (the page shows it
as an error toast); nobody else is told anything. Within a group an event joins ahead of the waiting
events that have more of their client's events before them, and when a worker is free the next event
is the first of the client with the fewest events running, so a client's backlog delays mostly itself.

Why it is kept: it is the only bound on what one client can queue (Gradio's max_size refuses everyone
alike); `python -m playground.bench app` measures light_p95_ms_during_queue_flood with it in place.
"""
from __future__ import annotations

import os
from collections import Counter

import fastapi
import gradio as gr

from ..session.workspace import WorkspaceStore
from ..text.i18n import language_from_accept, normalise_language, text

MAX_WAITING_PER_SESSION = 16
MAX_WAITING_PER_CLIENT = 160    # a class of 100 behind one school address, some with a second click queued
GROUP_LIMITS = {"light": 512, "checks": 512, "heavy": 64, "training": 64, "upload": 32}
DEFAULT_GROUP_LIMIT = 256          # any other group (Gradio's own events)
TRUST_FORWARDED_ENV = "PLAYGROUND_TRUST_FORWARDED_FOR"
REFUSED = 429                      # Too Many Requests: the page shows its detail as the message
SCAN = 256                         # waiting events looked at for the next one to start
_CLIENT = "playground_client"      # attributes set on Gradio's Event: its client, its place in the fair order
_RANK = "playground_rank"


def trusts_forwarded_for() -> bool:
    """Whether X-Forwarded-For is set by a proxy in front of the app (a Space's, or the operator's)."""
    return bool(os.environ.get("SPACE_ID")) or os.environ.get(TRUST_FORWARDED_ENV, "") == "1"


def client_address(request: fastapi.Request | None, trust_forwarded: bool) -> str:
    """Where the request comes from: the last X-Forwarded-For entry when trusted, else the connection's."""
    if request is None:
        return "unknown"
    if trust_forwarded:
        forwarded = request.headers.get("x-forwarded-for", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.client.host if request.client else "unknown"


class FairQueue:
    """Installed over `blocks`' queue: checks and orders each event that joins (see the module's text)."""

    def __init__(self, blocks: gr.Blocks, store: WorkspaceStore, trust_forwarded: bool | None = None):
        self.blocks, self.store = blocks, store
        self.trust_forwarded = trusts_forwarded_for() if trust_forwarded is None else trust_forwarded
        self.queue = blocks._queue
        self.queue.max_size = None              # bounded here (Gradio sets 1 on ZeroGPU; see the module's text)
        self._push, self._get_events = self.queue.push, self.queue.get_events
        self.queue.push, self.queue.get_events = self.push, self.get_events
        self.refused = 0
        self._clients: dict[str, str] = {}      # session hash -> its client, while it has events pending

    def get_events(self):
        """Gradio's choice of the next event(s) to start (the first of a group's line), with the first
        waiting event of the client that has the fewest events running moved to the front of each line."""
        running = Counter(getattr(event, _CLIENT, None) for job in self.queue.active_jobs if job for event in job)
        if running:
            for event_queue in self.queue.event_queue_per_concurrency_id.values():
                line = event_queue.queue
                if len(line) > 1:
                    first = min(range(min(len(line), SCAN)), key=lambda i: (running[getattr(line[i], _CLIENT, None)], i))
                    if first:
                        line.insert(0, line.pop(first))
        return self._get_events()

    async def push(self, body, request: fastapi.Request, username: str | None):
        fn = self.blocks.fns.get(body.fn_index) if body.fn_index is not None else None
        if fn is None:
            return await self._push(body=body, request=request, username=username)
        client = client_address(request, self.trust_forwarded)
        group = fn.concurrency_id
        refusal = self._refusal(body.session_hash, client, group)
        if refusal is not None:
            self.refused += 1
            key, n = refusal
            raise fastapi.HTTPException(status_code=REFUSED, detail=text(self._language(body.session_hash, request),
                                                                         key, n=n))
        joined = await self._push(body=body, request=request, username=username)
        success, event_id, _ = joined
        event = self.queue.event_ids_to_events.get(event_id) if success else None
        if event is not None:
            setattr(event, _CLIENT, client)
            self._clients[event.session_hash] = client
            self._place_fairly(event)
        return joined

    def _waiting(self):
        for event_queue in self.queue.event_queue_per_concurrency_id.values():
            yield from event_queue.queue

    def _pending(self) -> dict[str, int]:
        """Session hash -> its events pending (waiting, running or unread), for sessions with some;
        sessions with none are forgotten here."""
        ids = self.queue.pending_event_ids_session
        pending = {session: len(ids.get(session) or ()) for session in self._clients}
        for session in [s for s, n in pending.items() if not n]:
            del self._clients[session], pending[session]
        return pending

    def _refusal(self, session: str | None, client: str, group: str) -> tuple[str, int] | None:
        """(message key, count) of the first limit the event would pass, None when it may join."""
        pending = self._pending()
        by_session = pending.get(session, 0)
        by_client = sum(n for s, n in pending.items() if self._clients[s] == client)
        by_group = sum(event.concurrency_id == group for event in self._waiting())
        if by_session >= MAX_WAITING_PER_SESSION:
            return "err_queue_session", by_session
        if by_client >= MAX_WAITING_PER_CLIENT:
            return "err_queue_client", by_client
        if by_group >= GROUP_LIMITS.get(group, DEFAULT_GROUP_LIMIT):
            return "err_queue_group", by_group
        return None

    def _place_fairly(self, event) -> None:
        """Move the newly queued `event` ahead of the waiting events of its group that had more of
        their client's events before them when they joined."""
        line = self.queue.event_queue_per_concurrency_id[event.concurrency_id].queue
        if not line or line[-1] is not event:
            return
        client = getattr(event, _CLIENT)
        rank = sum(getattr(other, _CLIENT, None) == client for other in line[:-1])
        setattr(event, _RANK, rank)
        line.pop()
        place = next((i for i, other in enumerate(line) if getattr(other, _RANK, 0) > rank), len(line))
        line.insert(place, event)

    def _language(self, session: str | None, request: fastapi.Request) -> str:
        workspace = self.store.find(session) if session else None
        if workspace is not None and workspace.language:
            return normalise_language(workspace.language)
        return language_from_accept(request.headers.get("accept-language"))
