"""Sessions start lean: no component config is built until all of them are asked for, and then they
are the ones Gradio's own SessionState would give."""
import asyncio
import json

import gradio as gr
import pytest
from gradio.blocks import BlocksConfig
from gradio.state_holder import SessionState
from gradio_client import Client

from playground.ui.server.session_state import LeanSessionState, LeanStateHolder

from .serving import serve

# (api name, arguments by parameter name): a view, a step, and an event that updates a control's
# properties (another model: new slider ranges and choices), then the first model again
EVENTS = [
    ("attention", dict(model="copy", text="abcab", kind="cross", layer=1, head=1)),
    ("generate_step", dict(model="tiny-gpt", prompt="abc")),
    ("attention", dict(model="tiny-bert", text="hij", kind="encoder", layer=0, head=1, lang="zh-CN")),
    ("generate_step", dict(model="tiny-gpt", prompt="abc", lang="zh-CN")),
]


@pytest.fixture(scope="module")
def page(demo):
    """The page's config and API description (building them builds every component's config)."""
    return demo.get_config_file(), demo.get_api_info()["named_endpoints"]


def run_events(demo, page, state, session):
    """The EVENTS in a session of its own, through Gradio's own processing (inputs read, outputs
    written into `state`)."""
    config, api = page
    dependencies = {dependency.get("api_name"): dependency for dependency in config["dependencies"]}
    stateful = {component["id"] for component in config["components"] if component.get("type") == "state"}

    async def run():
        for name, values in EVENTS:
            dependency = dependencies[name]
            parameters = api[f"/{name}"]["parameters"]
            given = iter(values.get(p["parameter_name"], p.get("parameter_default")) for p in parameters)
            inputs = [None if i in stateful else next(given) for i in dependency["inputs"]]
            output = await demo.process_api(block_fn=demo.fns[dependency["id"]], inputs=inputs, state=state,
                                            request=gr.Request(session_hash=session))
            assert output["data"], name

    asyncio.run(run())


def test_a_new_session_and_its_events_build_no_component_config(demo, page, monkeypatch):
    built = []
    original = BlocksConfig.config_for_block
    monkeypatch.setattr(BlocksConfig, "config_for_block",
                        staticmethod(lambda *args, **kwargs: built.append(args[0]) or original(*args, **kwargs)))
    state = LeanSessionState(demo)
    run_events(demo, page, state, "counted")
    assert built == []
    assert len(list(state.components)) > 400 and len(built) > 400         # built when asked for


def test_the_components_are_gradios_own_after_the_same_events(demo, page):
    lean, plain = LeanSessionState(demo), SessionState(demo)
    run_events(demo, page, lean, "lean")
    run_events(demo, page, plain, "plain")

    def dumped(state):      # a component an event made has an id of its own in each run
        keys = [c["id"] if c["id"] in demo.blocks else "made" for c in state.components]
        return [(key, json.dumps({**c, "id": key}, sort_keys=True, default=repr))
                for key, c in zip(keys, state.components)]

    lean_configs, plain_configs = dumped(lean), dumped(plain)
    assert [key for key, _ in lean_configs] == [key for key, _ in plain_configs]
    differing = [key for (key, a), (_, b) in zip(lean_configs, plain_configs) if a != b]
    assert differing == []
    written = [key for key in lean.values if key in lean.page_blocks]
    assert written and any(c["props"].get("value") is not None for c in lean.components if c["id"] in written)


def test_the_served_app_starts_its_sessions_lean(demo):
    for url in serve(demo):
        client = Client(url, verbose=False)
        client.predict("abcab", api_name="/echo")
        holder = demo.server_app.state_holder
        assert isinstance(holder, LeanStateHolder) and demo.state_holder is holder
        assert all(isinstance(state, LeanSessionState) for state in holder.session_data.values())
        assert holder.session_data
        assert holder.capacity == demo.workspaces.capacity < 10_000          # as many as the app keeps workspaces

