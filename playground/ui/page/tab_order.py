"""One order per session and tab: a session's events that touch the same tab apply in the order the
learner made them, and a draw never replaces a newer result.

Each event of a tab takes a ticket when it starts (`TabOrder.event` / `TabOrder.draw`). Two rules:
- an event's result is sent only for the components no later-started event of the tab has written
  already (a slow click never replaces what a quicker, later one drew);
- a draw (the tab drawn from the session: picked, or asked by a header event) first waits until the
  tab's earlier events have ended, and if an event of the tab started while it drew (a click on the
  tab while its draw was on its way), its result is not sent: it waits for that event to end and
  draws again from the session, which then holds the click's form, and sends what the click did not
  write (the click's result shows the same, and text typed since it came stays). A draw that a
  later draw overtakes sends nothing (the later one draws from the same session).
Waits are bounded (WAIT_S); events never wait for later ones, so nothing waits for ever. Runs that
stream (a training, a generation run) take no ticket: a draw neither waits for them nor drops them.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping

from .per_workspace import PerWorkspace

WAIT_S = 10.0            # the longest a draw waits for the tab's other events (a slow draw, a busy queue)
REDRAWS = 2              # draws again at most this often when clicks keep arriving during it
DRAW, EVENT = "draw", "event"


class TabOrder:
    """The order of one session's events on one tab."""

    def __init__(self):
        self._changed = threading.Condition()
        self._last = 0                                   # the last ticket given
        self._running: dict[int, str] = {}               # ticket -> DRAW or EVENT, for events not ended
        self._kinds: dict[int, str] = {}                 # ticket -> kind, for tickets after the oldest running
        self._written: dict[int, int] = {}               # component id -> the ticket of the event that wrote it last

    def _start(self, kind: str) -> int:
        with self._changed:
            self._last += 1
            self._running[self._last] = kind
            self._kinds[self._last] = kind
            return self._last

    def _end(self, ticket: int) -> None:
        with self._changed:
            self._running.pop(ticket, None)
            oldest = min(self._running, default=self._last + 1)
            self._kinds = {t: k for t, k in self._kinds.items() if t >= oldest}
            self._changed.notify_all()

    def kept(self, ticket: int, updates: Mapping[Any, Any]) -> tuple[dict, bool]:
        """The updates (keyed by component) no later-started event has written, recorded as written by
        `ticket`; and whether all of them were kept."""
        with self._changed:
            kept = self._unwritten_since(ticket, updates)
            return kept, len(kept) == len(updates)

    @contextmanager
    def event(self) -> Iterator[int]:
        """An event of the tab (a click, an edit): its ticket while it runs."""
        ticket = self._start(EVENT)
        try:
            yield ticket
        finally:
            self._end(ticket)

    def draw(self, draw: Callable[[bool], dict], commit: Callable[[], None]) -> dict:
        """A draw of the tab: `draw(again)` computes its updates (again: an event of the tab ran since it
        was asked for, so nothing the page shows may be taken as drawn); `commit()` records in the session
        what the draw shows, and runs only for the result that is sent, while no later event can start."""
        ticket = self._start(DRAW)
        try:
            again = self._wait_for_earlier(ticket)
            for attempt in range(REDRAWS + 1):
                seen = self._last_ticket()
                updates = draw(again)
                with self._changed:
                    later = {kind for t, kind in self._kinds.items() if t > seen and t != ticket}
                    if DRAW in {kind for t, kind in self._kinds.items() if t > ticket}:
                        return {}                         # a later draw draws from the same session
                    if not later or attempt == REDRAWS:
                        commit()
                        return self._unwritten_since(ticket, updates)
                self._wait_for_earlier(self._last_ticket() + 1)
                again = True
            return {}
        finally:
            self._end(ticket)

    def _unwritten_since(self, ticket: int, updates: Mapping[Any, Any]) -> dict:
        """`updates` but for components a later-started event wrote, recorded as written by `ticket`
        (for a draw: that event's result, sent already, shows the same session, and the learner may
        have edited the page since). Called holding the lock."""
        kept = {component: update for component, update in updates.items()
                if self._written.get(component._id, 0) <= ticket}
        for component in kept:
            self._written[component._id] = ticket
        return kept

    def _last_ticket(self) -> int:
        with self._changed:
            return self._last

    def _wait_for_earlier(self, ticket: int) -> bool:
        """Wait (at most WAIT_S) until every event that started before `ticket` has ended, but for draws;
        whether any event other than a draw started before `ticket` and had not ended yet."""
        deadline = time.monotonic() + WAIT_S
        waited = False
        with self._changed:
            while True:
                earlier = [t for t, kind in self._running.items() if t < ticket and kind == EVENT]
                if not earlier:
                    return waited
                waited = True
                left = deadline - time.monotonic()
                if left <= 0:
                    return waited
                self._changed.wait(left)


_orders: PerWorkspace[TabOrder] = PerWorkspace(TabOrder)      # (workspace, view) -> its TabOrder


def order_of(workspace, view: str) -> TabOrder:
    """The order of `workspace`'s events on the tab `view` (kept as long as the workspace)."""
    return _orders.of(workspace, view)
