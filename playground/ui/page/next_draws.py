"""What the page's header events leave in a session for its tabs' next draws.

What concerns every tab (the page opened on a link, a new language, a model added, what the browser
kept) is recorded in the session, and the tab on screen is drawn (see showing.py); every other tab
draws itself from the session when it is next shown. Most of what they change lives in the Workspace (its
language, its models, each tab's form); what is left here is what one draw of a tab consumes:
- the form a link gives its tab, drawn as the link names it (not following the session's model);
- presenter mode's folded controls, folded at each tab's first draw only (a presenter may open them).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from .per_workspace import PerWorkspace


@dataclass
class NextDraws:
    """One session's requests for its tabs' next draws."""

    forms: dict[str, Any] = field(default_factory=dict)     # view -> the form a link gave it
    folds: set[str] = field(default_factory=set)            # views whose controls fold at their next draw
    opened: bool = False                                    # the page's opening has run (it may be asked again)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def take_form(self, view: str):
        """The form a link gave `view` (once), else None."""
        with self._lock:
            return self.forms.pop(view, None)

    def take_fold(self, view: str) -> bool:
        """Whether `view`'s controls are to fold at this draw (once)."""
        with self._lock:
            if view in self.folds:
                self.folds.discard(view)
                return True
            return False


_requests: PerWorkspace[NextDraws] = PerWorkspace(NextDraws)     # workspace -> its NextDraws


def next_draws(workspace) -> NextDraws:
    """The requests kept for `workspace`'s tabs (as long as the workspace)."""
    return _requests.of(workspace)
