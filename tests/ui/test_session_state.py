"""Sessions start lean: no component config is built until all of them are asked for, and then they
are the ones Gradio's own SessionState would give."""
import asyncio
import gc
import json

import gradio as gr
import pytest
from gradio.blocks import BlocksConfig
from gradio.state_holder import SessionState
from gradio_client import Client

from playground.ui.server.session_state import LeanSessionState, LeanStateHolder, SharedCopies, compared_arguments

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


def copies_held(state, demo) -> dict:
    """Page block id -> the session's own copy of it, for the blocks the session holds a copy of."""
    return {key: block for key, block in state.blocks_config.blocks.items()
            if key in demo.blocks and block is not demo.blocks[key]}


# What Gradio's rebuilt copy of an untouched output loses: whether an event listens to its selection.
LOST_IN_A_REBUILT_COPY = ("_selectable",)


def test_the_components_are_gradios_own_after_the_same_events(demo, page):
    """The configs are Gradio's own but for their values (Gradio keeps what events wrote for its
    deep-link button; the lean state keeps none) and for outputs the events left as they were: Gradio
    rebuilds those as copies that lose what LOST_IN_A_REBUILT_COPY names; the lean state keeps the block
    it held."""
    lean, plain = LeanSessionState(demo), SessionState(demo)
    run_events(demo, page, lean, "lean")
    run_events(demo, page, plain, "plain")
    untouched = copies_held(plain, demo).keys() - copies_held(lean, demo).keys()
    assert untouched

    def dumped(state):          # a copy's config has the copy's id: named by its page block's, or "made"
        page_key = {block._id: key for key, block in copies_held(state, demo).items()}
        dumps = []
        for config in state.components:
            key = page_key.get(config["id"], config["id"])
            key = key if key in demo.blocks else "made"       # a component an event made
            props = {name: value for name, value in config.get("props", {}).items()
                     if name != "value" and (key not in untouched or name not in LOST_IN_A_REBUILT_COPY)}
            dumps.append((key, json.dumps({**config, "id": key, "props": props}, sort_keys=True, default=repr)))
        return dumps

    lean_configs, plain_configs = dumped(lean), dumped(plain)
    # Configs Gradio lists under the ids of the copies it built: the lean state lists a block once.
    assert sum(key == "made" for key, _ in lean_configs) < sum(key == "made" for key, _ in plain_configs)
    lean_configs, plain_configs = ([(key, dump) for key, dump in configs if key != "made"]
                                   for configs in (lean_configs, plain_configs))
    assert [key for key, _ in lean_configs] == [key for key, _ in plain_configs]
    differing = [key for (key, a), (_, b) in zip(lean_configs, plain_configs) if a != b]
    assert differing == []


def test_a_session_keeps_none_of_the_figures_its_events_drew(demo, page):
    """Gradio keeps each output's last value (a figure's whole JSON) in the session for its deep-link
    button, which the page has not: the lean state keeps none of them."""
    lean, plain = LeanSessionState(demo), SessionState(demo)
    run_events(demo, page, lean, "lean")
    run_events(demo, page, plain, "plain")
    plots = [key for key, block in demo.blocks.items() if isinstance(block, gr.Plot)]
    drawn = [key for key in plots if (plain.config_values.get(key) or {}).get("props", {}).get("value")]
    assert drawn                                                  # Gradio's state holds the figures drawn
    lean_values = {c["id"]: c.get("props", {}).get("value") for c in lean.components}
    assert [key for key in drawn if lean_values.get(key)] == []


def test_an_output_an_event_left_as_it_was_keeps_no_copy_in_the_session(demo, page):
    """Gradio rebuilds every output an event skipped; a session keeps a copy only of a block whose
    properties an event changed, so its memory grows with the controls it changed, not with every output."""
    lean, plain = LeanSessionState(demo), SessionState(demo)
    run_events(demo, page, lean, "lean")
    run_events(demo, page, plain, "plain")
    kept, rebuilt = copies_held(lean, demo), copies_held(plain, demo)
    assert 0 < len(kept) < len(rebuilt) // 2
    for key, block in kept.items():
        assert compared_arguments(block) != compared_arguments(demo.blocks[key])
        assert len(block._constructor_args) == 1             # its parent classes' arguments are not kept


def test_sessions_whose_events_changed_a_control_alike_hold_one_copy_of_it(demo, page):
    """A class makes the same changes (a language's labels, a model's choices): the server keeps one
    copy per distinct change, not one per session, and the copy goes with the last session holding it."""
    shared = SharedCopies()
    first, second = LeanSessionState(demo, shared), LeanSessionState(demo, shared)
    run_events(demo, page, first, "first")
    gc.collect()                                       # copies the events replaced
    copies_of_one_session = len(shared)
    run_events(demo, page, second, "second")
    first_copies, second_copies = copies_held(first, demo), copies_held(second, demo)
    assert first_copies and first_copies.keys() == second_copies.keys()
    assert [key for key in first_copies if second_copies[key] is not first_copies[key]] == []
    gc.collect()
    assert len(shared) == copies_of_one_session >= len(first_copies)

    alone = LeanSessionState(demo)                     # a registry of its own: a copy of its own
    run_events(demo, page, alone, "alone")
    assert all(copies_held(alone, demo)[key] is not block for key, block in first_copies.items())

    del first, second, first_copies, second_copies
    gc.collect()
    assert len(shared) == 0


def test_a_copy_is_shared_only_with_the_same_arguments(demo):
    shared = SharedCopies()
    english = gr.Radio(choices=["a", "b"], label="Layer", render=False)
    chinese = gr.Radio(choices=["a", "b"], label="层", render=False)
    assert shared.copy_of(1, english) is english
    assert shared.copy_of(1, gr.Radio(choices=["a", "b"], label="Layer", render=False)) is english
    assert shared.copy_of(1, chinese) is chinese
    assert shared.copy_of(2, gr.Radio(choices=["a", "b"], label="Layer", render=False)) is not english
    assert shared.copy_of(1, gr.Dropdown(choices=["a", "b"], label="Layer", render=False)) is not english
    download = gr.File(label="Layer", render=False)              # Gradio records its session's files in it
    assert shared.copy_of(3, download) is download
    assert shared.copy_of(3, gr.File(label="Layer", render=False)) is not download


def test_the_served_app_starts_its_sessions_lean(demo):
    for url in serve(demo):
        client = Client(url, verbose=False)
        client.predict("abcab", api_name="/echo")
        holder = demo.server_app.state_holder
        assert isinstance(holder, LeanStateHolder) and demo.state_holder is holder
        assert all(isinstance(state, LeanSessionState) for state in holder.session_data.values())
        assert holder.session_data
        assert holder.capacity == demo.workspaces.capacity < 10_000          # as many as the app keeps workspaces

