"""The page's events: the controls that draw a view the same way share one event."""
from functools import partial

from playground.ui.app import TABS
from playground.ui.page.drawing import ask_redraw_js, drawn_js, pick_js

from .test_page_load import by_elem_id


def block_ids(demo) -> dict:
    """The id of the page's block with each element id, by element id."""
    return {elem_id: block._id for elem_id, block in by_elem_id(demo).items()}


def name(function) -> str:
    """A handler's name ("js" for an event without one); a partial's with the arguments it fixes."""
    if isinstance(function, partial):
        return f"{name(function.func)}{function.args}{sorted(function.keywords.items())}"
    return getattr(function, "__name__", "js")


def alike(demo) -> dict:
    """The events that are not chained after another one, by what they do: handler, inputs, outputs,
    trigger mode, queue and the handlers chained after them. Each with the triggers it answers."""
    events = demo.get_config_file()["dependencies"]
    followers = {}
    for event in events:
        if event["trigger_after"] is not None:
            function = demo.fns[event["id"]].fn
            followers.setdefault(event["trigger_after"], []).append(name(function))
    doing = {}
    for event in events:
        block_function = demo.fns[event["id"]]
        if block_function.fn is None or event["trigger_after"] is not None:
            continue
        key = (name(block_function.fn), tuple(event["inputs"]), tuple(event["outputs"]), event["trigger_mode"],
               block_function.concurrency_id, tuple(sorted(followers.get(event["id"], []))))
        doing.setdefault(key, []).append([tuple(target) for target in event["targets"]])
    return doing


def test_no_two_events_do_the_same_thing(demo):
    repeated = {key[0]: triggers for key, triggers in alike(demo).items() if len(triggers) > 1}
    assert not repeated, f"one event each could answer these triggers: {repeated}"


def test_enter_in_either_text_box_and_a_new_kind_are_one_attention_event(demo):
    ids = block_ids(demo)
    answering = [triggers for triggers in alike(demo).values() if (ids["attention-text"], "submit") in triggers[0]]
    assert len(answering) == 1
    assert {(ids["attention-target"], "submit"), (ids["attention-kind"], "input")} <= set(answering[0][0])


def progress_targets(event: dict) -> list[int]:
    """The components whose loading state Gradio's page tracks for an event: the ones it shows its
    progress on, else every output."""
    return event.get("show_progress_on") or event["outputs"]


def test_every_event_tracks_its_progress_on_a_few_components(demo):
    # The page refreshes the loading state of every component some event has tracked, on each status
    # change of any event, each by a search of the page's tree: an event that tracked all of a tab's
    # outputs made every later event of the page cost more (a link opened ~0.5 s later).
    wide = {event.get("api_name") or event["id"]: len(progress_targets(event))
            for event in demo.get_config_file()["dependencies"]
            if event["backend_fn"] and len(progress_targets(event)) > 3}
    assert not wide, f"events tracking their progress on many components: {wide}"


def holders(layout: dict) -> set[int]:
    """The ids of the page's blocks that hold others (rows, tabs, groups...)."""
    children = layout.get("children") or []
    return ({layout["id"]} if children else set()).union(*(holders(child) for child in children))


def test_no_event_tracks_its_progress_on_a_block_that_holds_others(demo):
    # On each status change of any event, Gradio's page refreshes the loading state of every component
    # some event has tracked and, for one that holds others, copies the state of each block inside it:
    # a tab's draw tracked on the tabs copied every figure of the page several times per event.
    config = demo.get_config_file()
    holding = holders(config["layout"])
    on_holders = {event.get("api_name") or event["id"]: sorted(set(progress_targets(event)) & holding)
                  for event in config["dependencies"]
                  if event["backend_fn"] and set(progress_targets(event)) & holding}
    assert not on_holders, f"events tracking their progress on blocks that hold others: {on_holders}"


def test_every_tabs_draw_tracks_its_progress_on_one_hidden_leaf(demo):
    # Gradio's page refreshes every component some event has tracked on each status message of every
    # later event: the nine draws share one, so a tour of the tabs adds one refresh to each later click.
    ids = block_ids(demo)
    redraws = {ids[f"{key}-redraw"] for key, _ in TABS}
    draws = [event for event in demo.get_config_file()["dependencies"]
             if event["backend_fn"] and redraws & {target for target, _ in event["targets"]}]
    assert len(draws) == len(TABS)
    tracked = {tuple(progress_targets(event)) for event in draws}
    assert tracked == {(ids["draws-progress"],)}
    assert by_elem_id(demo)["draws-progress"].visible == "hidden"


def drawing_events(demo) -> dict:
    """The events that draw a tab or ask the tab on screen to be drawn: a tab's redraw button clicked
    (by a pick, the page opening or a header event), the language chosen."""
    ids = block_ids(demo)
    redraws = {ids[f"{key}-redraw"] for key, _ in TABS}
    events = {}
    for event in demo.get_config_file()["dependencies"]:
        if not event["backend_fn"] or event["trigger_after"] is not None or demo.fns[event["id"]].page != "":
            continue
        for target, trigger in event["targets"]:
            if (target in redraws and trigger == "click") or (target == ids["language"] and trigger == "input") \
                    or trigger == "load":
                events[event["id"]] = event
    return events


def test_the_panels_are_busy_from_each_draw_until_the_tab_on_screen_is_drawn(demo):
    # The panels are marked busy (aria-busy) from the event's own script; a tab's draw ends with a
    # browser-only step that marks them free, and a header event's with one that hands its mark to the
    # draw of the tab on screen it asks for (see drawing.py).
    events = {event["id"]: event for event in demo.get_config_file()["dependencies"]}
    drawing = drawing_events(demo)
    assert {trigger for event in drawing.values() for _, trigger in event["targets"]} >= {"input", "click"}
    for event_id, event in drawing.items():
        assert "draws.count += 1" in (event["js"] or ""), f"{event['targets']} does not mark the panels busy"
        chain, last = [], event_id
        while (after := [e for e in events.values() if e["trigger_after"] == last]):
            assert len(after) == 1, f"{event['targets']} branches into {len(after)} steps"
            last = after[0]["id"]
            chain.append(after[0])
        draws = any(trigger == "click" for _, trigger in event["targets"])
        ending = drawn_js(by_id(demo, event)) if draws else ask_redraw_js()
        assert chain and not chain[-1]["backend_fn"] and chain[-1]["js"] == ending, event["targets"]
        assert all(step["backend_fn"] for step in chain[:-1])


def test_a_picked_tab_asks_for_its_draw_in_the_browser(demo):
    # Gradio sends a tab's select also as the page mounts its first tab and as an answer selects a tab:
    # the selects run in the browser alone, which clicks the picked tab's redraw button.
    ids = block_ids(demo)
    selects = {(ids[f"tab-{key}"], "select") for key, _ in TABS}
    picks = [event for event in demo.get_config_file()["dependencies"] if event["js"] == pick_js()]
    assert len(picks) == 1 and not picks[0]["backend_fn"]
    assert set(map(tuple, picks[0]["targets"])) == selects
    assert not [event["id"] for event in demo.get_config_file()["dependencies"]
                if event["backend_fn"] and selects & set(map(tuple, event["targets"]))]


def by_id(demo, event: dict) -> str:
    """The view of a tab's draw event (from its redraw button's id)."""
    ids = {block._id: block.elem_id for block in demo.blocks.values() if block.page == "" and block.elem_id}
    return next(ids[target].removesuffix("-redraw") for target, trigger in event["targets"] if trigger == "click")
