"""PageBlocks sends what gr.Blocks sends for an event's updates, without rebuilding the
components an event leaves unchanged."""
import anyio
import gradio as gr
import pytest

from playground.ui.page.page_blocks import PageBlocks, named_outputs
from playground.ui.page.session_state import LeanSessionState


def build(blocks_type):
    with blocks_type() as demo:
        boxes = [gr.Textbox(label=f"box {i}") for i in range(6)]
        slider = gr.Slider(0, 10, step=1, label="layer")
        kept = gr.State()
        demo.load(lambda: {}, None, [*boxes, slider, kept])
    return demo, boxes, slider, kept


def sent(blocks_type, updates_of):
    """What the event sends for updates_of(boxes, slider, kept), and the components the session rebuilt."""
    demo, boxes, slider, kept = build(blocks_type)
    event = next(iter(demo.fns.values()))
    state = LeanSessionState(demo)
    output = anyio.run(demo.postprocess_data, event, updates_of(boxes, slider, kept), state)
    return output, state.added


@pytest.mark.parametrize("updates_of", [
    lambda boxes, slider, kept: {boxes[1]: "hello", slider: gr.Slider(maximum=3, value=2), kept: 7},
    lambda boxes, slider, kept: {boxes[4]: gr.Textbox(visible=False)},
    lambda boxes, slider, kept: {boxes[0]: "a", boxes[5]: gr.update(label="b")},
])
def test_the_same_updates_are_sent_and_unchanged_outputs_are_not_rebuilt(updates_of):
    plain, plain_rebuilt = sent(gr.Blocks, updates_of)
    page, page_rebuilt = sent(PageBlocks, updates_of)
    assert [drop_ids(value) for value in page] == [drop_ids(value) for value in plain]
    assert len(plain_rebuilt) > len(page_rebuilt)                    # Gradio rebuilds every unchanged one
    demo, boxes, slider, kept = build(PageBlocks)
    changed = updates_of(boxes, slider, kept)
    updated = sum(1 for component, update in changed.items()
                  if isinstance(update, (gr.components.Component, dict)))
    assert len(page_rebuilt) == updated + (kept in changed)


def drop_ids(value):
    return {k: v for k, v in value.items() if k != "_id"} if isinstance(value, dict) else value


def test_which_outputs_an_event_names():
    demo, boxes, slider, kept = build(PageBlocks)
    outputs = [*boxes, slider, kept]
    assert named_outputs(outputs, {boxes[2]: "x", kept: 1}) == [2, 7]
    assert named_outputs(outputs, {component: 1 for component in outputs}) is None   # all of them
    assert named_outputs(outputs, ["x"] * 8) is None                                  # a list, in order
    assert named_outputs(outputs, {"__type__": "update"}) is None                     # one skip for all
    assert named_outputs(outputs, {gr.Textbox(render=False): 1}) is None              # Gradio says it is not an output


def test_a_component_that_is_not_an_output_is_refused_as_gradio_refuses_it():
    demo, boxes, slider, kept = build(PageBlocks)
    event = next(iter(demo.fns.values()))
    with pytest.raises(ValueError, match="not specified as output"):
        anyio.run(demo.postprocess_data, event, {boxes[0]: "a", gr.Textbox(render=False): "b"},
                  LeanSessionState(demo))


def test_an_event_that_changes_nothing_sends_every_output_unchanged():
    """A tab picked when the page already shows its drawing returns no update at all."""
    output, rebuilt = sent(PageBlocks, lambda boxes, slider, kept: {})
    assert output == [{"__type__": "update"}] * 7 + [None] and not rebuilt
