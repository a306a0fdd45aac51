"""The main page's events each touch their own tab: at most 60 outputs, never two tabs' components,
and the page is a plain gr.Blocks (no internal method of Gradio's overridden to afford wide events)."""
import gradio as gr

from playground.ui.app import TABS

MAX_OUTPUTS = 60


def tab_of(demo) -> dict[int, str | None]:
    """Each block of the main page by id -> the tab it sits in (None: the header, or a tab itself)."""
    tabs = {block._id: block.elem_id.removeprefix("tab-") for block in demo.blocks.values()
            if isinstance(block, gr.Tab) and block.page == ""}
    parent = {}
    for block in demo.blocks.values():
        for child in getattr(block, "children", []):
            parent[child._id] = block._id
    found = {}
    for block_id in demo.blocks:
        up = parent.get(block_id)
        while up is not None and up not in tabs:
            up = parent.get(up)
        found[block_id] = tabs.get(up)
    return found


def main_events(demo) -> list[dict]:
    return [event for event in demo.get_config_file()["dependencies"] if demo.fns[event["id"]].page == ""]


def test_no_event_has_more_than_60_outputs(demo):
    wide = {event.get("api_name") or event["id"]: len(event["outputs"]) for event in main_events(demo)
            if len(event["outputs"]) > MAX_OUTPUTS}
    assert not wide, f"events with more than {MAX_OUTPUTS} outputs: {wide}"


def test_every_event_writes_one_tab_at_most(demo):
    where = tab_of(demo)
    spanning = {}
    for event in main_events(demo):
        tabs = {where[output] for output in event["outputs"]} - {None}
        if len(tabs) > 1:
            spanning[event.get("api_name") or event["id"]] = sorted(tabs)
    assert not spanning, f"events whose outputs span tabs: {spanning}"


def test_each_tab_draws_itself_when_picked_or_asked(demo):
    where = tab_of(demo)
    ids = {block.elem_id: block._id for block in demo.blocks.values() if block.page == "" and block.elem_id}
    events = main_events(demo)
    for view, _ in TABS:
        drawing = [event for event in events if (ids[f"{view}-redraw"], "click") in {tuple(t) for t in event["targets"]}]
        assert len(drawing) == 1, view
        assert drawing[0]["outputs"] and {where[output] for output in drawing[0]["outputs"]} - {None} == {view}


def test_the_page_opens_in_one_round_trip_the_draw_of_the_linked_tab(demo):
    """The page's load runs no server function of its own: it asks the linked tab's draw, which records
    the opening (the header's language, query, tab and note among its outputs) and draws in one call."""
    ids = {block.elem_id: block._id for block in demo.blocks.values() if block.page == "" and block.elem_id}
    events = main_events(demo)
    on_load = [event for event in events if any(trigger == "load" for _, trigger in event["targets"])]
    assert on_load and not any(event["backend_fn"] for event in on_load)
    header = {ids["language"], ids["page-query"], ids["tabs"], ids["link-note"]}
    for view, _ in TABS:
        draw = next(event for event in events if (ids[f"{view}-redraw"], "click") in map(tuple, event["targets"]))
        assert header <= set(draw["outputs"]), view


def test_the_page_overrides_no_internal_method_of_gradios_blocks(demo):
    own = [(cls.__name__, name) for cls in type(demo).__mro__
           if issubclass(cls, gr.Blocks) and cls.__module__.startswith("playground")
           for name in vars(cls) if callable(getattr(gr.Blocks, name, None))]
    assert not own, f"Blocks methods overridden: {own}"
