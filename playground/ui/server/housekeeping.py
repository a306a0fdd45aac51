"""The server's housekeeping, every few seconds on its event loop while it serves: freed memory given
back to the system (memory.Trimmer) and ended or expired sessions forgotten (session_end.sweep)."""
from __future__ import annotations

import asyncio
import logging

import gradio as gr

from ..session.workspace import WorkspaceStore
from . import memory, session_end

TICK_S = 5.0                 # how often the server is looked at
SWEEP_EVERY_S = 60.0         # how often ended and expired sessions are forgotten

log = logging.getLogger(__name__)


def busy(blocks: gr.Blocks) -> bool:
    """Whether an event waits or runs."""
    queue = blocks._queue
    return len(queue) > 0 or queue.get_active_worker_count() > 0


async def keep_house(blocks: gr.Blocks, store: WorkspaceStore, trimmer: memory.Trimmer | None = None) -> None:
    """Run until cancelled (at the server's shutdown)."""
    trimmer = trimmer or memory.Trimmer()
    since_sweep = 0.0
    while True:
        await asyncio.sleep(TICK_S)
        since_sweep += TICK_S
        try:
            served = blocks._queue.events_recorded
            if trimmer.due(served, busy(blocks)):
                await asyncio.to_thread(trimmer.tick, served, busy(blocks))   # a trim takes milliseconds
            if since_sweep >= SWEEP_EVERY_S:
                since_sweep = 0.0
                session_end.sweep(blocks, store)
        except Exception:                         # housekeeping never stops the server
            log.exception("housekeeping failed")
