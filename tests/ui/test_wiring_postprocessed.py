"""An event whose outputs the handler postprocesses (postprocess=False) sends what Gradio's own
postprocessing sends for the same updates, and the app's light events are declared that way."""
import anyio
import gradio as gr
import plotly.graph_objects as go
import pytest

from playground.ui.server.session_state import LeanSessionState
from playground.ui.page.wiring import POSTPROCESSED_IN_HANDLER, postprocessed, with_export

FIGURE = go.Figure(go.Heatmap(z=[[0.1, 0.9], [0.5, 0.25]]))


def layout():
    return {
        "plot": gr.Plot(),
        "markdown": gr.Markdown("  text  "),
        "textbox": gr.Textbox(),
        "spans": gr.HighlightedText(combine_adjacent=True),
        "radio": gr.Radio(["a", "b"]),
        "checkbox": gr.Checkbox(),
        "button": gr.Button("Run"),
    }


UPDATES = [                      # made afresh for each event: Gradio takes the value out of a gr.update dict
    lambda: {"plot": with_export(FIGURE, "figure"), "markdown": "  **bold**\n  line", "textbox": 12,
     "spans": [("ab", "x"), ("c", "x"), ("d", None)], "radio": "b", "checkbox": 1, "button": "Stop"},
    lambda: {"plot": gr.Plot(with_export(FIGURE, "figure"), visible=False),
     "markdown": gr.Markdown("  hi", visible=True), "textbox": gr.update(value=3.5, label="three"),
     "spans": gr.HighlightedText(visible=False),
     "radio": gr.Radio(choices=["a", "c"], value="c"), "checkbox": gr.update(visible=False),
     "button": gr.Button(interactive=False)},
    lambda: dict.fromkeys(["plot", "markdown", "textbox", "spans", "radio", "checkbox", "button"]),
]


def sent(postprocess: bool, updates_by_name) -> list:
    with gr.Blocks() as demo:
        components = layout()
        outputs = list(components.values())
        demo.load(lambda: None, None, outputs, postprocess=postprocess)
    event = next(iter(demo.fns.values()))
    updates = {components[name]: update for name, update in updates_by_name().items()}
    if not postprocess:
        updates = {component: postprocessed(component, update) for component, update in updates.items()}
    return anyio.run(demo.postprocess_data, event, updates, LeanSessionState(demo))


@pytest.mark.parametrize("updates", UPDATES, ids=["values", "updates", "nones"])
def test_postprocessed_updates_are_sent_as_gradio_postprocesses_them(updates):
    by_gradio, by_handler = sent(True, updates), sent(False, updates)
    strip = lambda value: {k: v for k, v in value.items() if k != "_id"} if isinstance(value, dict) else value
    assert [strip(v) for v in by_handler] == [strip(v) for v in by_gradio]
    assert by_gradio != [None] * len(by_gradio)


def test_a_state_is_passed_as_it_is():
    state = gr.State()
    kept = object()
    assert postprocessed(state, kept) is kept


def test_a_kept_update_is_not_changed_by_postprocessing_it():
    update = gr.Markdown("  hi", visible=True)
    sent_update = postprocessed(gr.Markdown(), update)
    assert update.constructor_args["value"] == "  hi" and sent_update.constructor_args["value"] == "hi"


def test_the_light_events_are_postprocessed_by_their_handlers(demo):
    events = {fn.api_name: fn for fn in demo.fns.values() if fn.api_name}
    for name in ("attention", "generate_step", "generate_back"):
        assert not events[name].postprocess
        assert all(isinstance(output, POSTPROCESSED_IN_HANDLER) for output in events[name].outputs)
