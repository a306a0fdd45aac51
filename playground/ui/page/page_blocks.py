"""gr.Blocks that sends the outputs an event leaves unchanged without building a component for each.

An event of this app returns its updates keyed by component and names only what it changes;
Gradio fills every other output with an empty update and, for each, builds a new component
from the old one's arguments (~0.3 ms each) only to send `{"__type__": "update"}`. The page's
load has an output for every control of every tab (267) and changes those of one tab: ~85 ms
of the server's CPU per page opened, before the linked view can be sent. Here only the outputs
an event names go through Gradio's processing; the others get the same empty update directly.
"""
from __future__ import annotations

import copy

import gradio as gr
from gradio.blocks import Block

UNCHANGED = {"__type__": "update"}       # what Gradio sends for an output an event leaves as it is (None for a State)


def named_outputs(outputs: list, predictions) -> list[int] | None:
    """Positions in `outputs` of the components that `predictions` (an event's return value) names,
    when it is a dict keyed by components that leaves some outputs out (an empty one leaves them all
    as they are), else None."""
    if not isinstance(predictions, dict) or not all(isinstance(k, Block) for k in predictions):
        return None
    if not predictions:
        return [] if len(outputs) > 1 else None
    named = {component._id for component in predictions}
    positions = [i for i, block in enumerate(outputs) if block._id in named]
    if len(positions) == len(outputs) or len(positions) < len(named):
        return None                           # nothing to leave out, or a name Gradio reports itself
    return positions


class PageBlocks(gr.Blocks):
    """gr.Blocks whose events' unchanged outputs cost nothing (see the module's docstring)."""

    async def postprocess_data(self, block_fn, predictions, state):
        positions = named_outputs(list(block_fn.outputs), predictions)
        if positions is None or block_fn.batch or block_fn.is_validator_function:
            return await super().postprocess_data(block_fn, predictions, state)
        output = [None if block.stateful else dict(UNCHANGED) for block in block_fn.outputs]
        if not positions:
            return output
        named = copy.copy(block_fn)
        named.outputs = [block_fn.outputs[i] for i in positions]
        sent = await super().postprocess_data(named, predictions, state)
        for position, value in zip(positions, sent):
            output[position] = value
        return output
