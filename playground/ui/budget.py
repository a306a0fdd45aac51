"""The server's memory budget: every bound read from the one place it is set, added up for a class.

Each cache and store is bounded where it is made (its module's constant); this module only gathers
them (a tab's own caches from its page_needs), with the sizes that are measured rather than set: the process itself
once started and its first page served, Gradio's state of one session and one session's generation. README ("Serving a class") gives the totals.
"""
from __future__ import annotations

from playground.limits import MAX_TRAIN_PARAMETERS

from .header.hub_models import MAX_HUB_MODELS, MAX_HUB_PARAMETERS
from .page.context import DEFAULT_TRAINING_SLOTS
from .page.view_cache import DEFAULT_MAX_BYTES as VIEW_CACHE_BYTES
from .server.fair_queue import MAX_WAITING_PER_SESSION
from .server.static_cache import KEPT_BYTES
from .session.workspace import MAX_PASSING_SESSIONS, MAX_SESSION_MODELS, MAX_SESSIONS
from .tabs import PAGE_NEEDS

MIB = 2**20
STARTED_BYTES = 650 * MIB          # measured: python app.py after its first page (torch, Gradio, shipped models)
# Gradio's state of one session: a copy of each component whose properties an event changed (at most
# the 341 outputs of the page, 1.1 MiB for all of them, measured by tests/ui/test_memory.py). The
# session keeps no copy of an output an event left as it was and none of the values events wrote, and
# sessions whose events changed a control alike hold one copy of it (server.session_state), so a
# class's clicks fill far less; the bound is sessions that each changed them all differently.
SESSION_STATE_BYTES = 3 * MIB // 2
GENERATION_BYTES = MIB // 2        # measured: a session's step-by-step generation and beam run on shipped models
                                   # (100 sessions of the soak's class held 51 MB)
REPLY_BYTES = 256 * 1024           # a large reply of a light event (an attention grid), kept until its client reads it
FLOAT_BYTES = 4


def own_model_bytes() -> int:
    """The largest model a session can make or upload."""
    return MAX_TRAIN_PARAMETERS * FLOAT_BYTES


def training_bytes() -> int:
    """One training beside its model: gradients and AdamW's two moments, plus as much for activations."""
    return 4 * own_model_bytes()


def budget(students: int, hub_models: bool = False, training_slots: int = DEFAULT_TRAINING_SLOTS) -> dict[str, int]:
    """Bytes by item for `students` tabs open at once (at most MAX_SESSIONS) beside as many API sessions
    as the store keeps, every session at its bounds; `hub_models`: the class loads models from the Hub."""
    sessions = min(students, MAX_SESSIONS) + MAX_PASSING_SESSIONS
    return {
        "process started, shipped models": STARTED_BYTES,
        "view cache": VIEW_CACHE_BYTES,
        **{name: size for needs in PAGE_NEEDS.values() for name, size in needs.caches.items()},
        "compressed page and files": KEPT_BYTES,
        "Gradio session states": sessions * SESSION_STATE_BYTES,
        "sessions' generations": sessions * GENERATION_BYTES,
        "replies not yet read": sessions * MAX_WAITING_PER_SESSION * REPLY_BYTES,   # a page reads at once
        "sessions' own models": sessions * MAX_SESSION_MODELS * own_model_bytes(),
        "trainings": training_slots * training_bytes(),
        "Hub models": MAX_HUB_MODELS * MAX_HUB_PARAMETERS * FLOAT_BYTES if hub_models else 0,
    }
