"""What the page's header events leave in a session for its tabs' next draws.

A header event (the page opened on a link, a new language, a model added, what the browser kept)
concerns every tab but writes only the header's components: it records what it changed in the
session and asks the tab on screen to draw itself (see showing.py); every other tab draws itself
from the session when it is next shown. Most of what they change lives in the Workspace (its
language, its models, each tab's form); what is left here is what one draw of a tab consumes:
- the form a link gives its tab, drawn as the link names it (not following the session's model);
- presenter mode's folded controls, folded at each tab's first draw only (a presenter may open them).
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from typing import Any


@dataclass
class NextDraws:
    """One session's requests for its tabs' next draws."""

    forms: dict[str, Any] = field(default_factory=dict)     # view -> the form a link gave it
    folds: set[str] = field(default_factory=set)            # views whose controls fold at their next draw
    opened: bool = False                                    # the page's opening has run (it may be asked again)

    def take_form(self, view: str):
        """The form a link gave `view` (once), else None."""
        with _lock:
            return self.forms.pop(view, None)

    def take_fold(self, view: str) -> bool:
        """Whether `view`'s controls are to fold at this draw (once)."""
        with _lock:
            if view in self.folds:
                self.folds.discard(view)
                return True
            return False


_requests: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # workspace -> NextDraws
_lock = threading.Lock()


def next_draws(workspace) -> NextDraws:
    """The requests kept for `workspace`'s tabs (as long as the workspace)."""
    with _lock:
        return _requests.setdefault(workspace, NextDraws())
