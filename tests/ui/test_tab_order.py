"""One order per session and tab: a draw never replaces a newer result, and a slow event never
replaces what a later one drew. What a session keeps for its tabs (orders, next draws) goes with it."""
import gc
import threading
import time
import weakref

from playground.ui.page import next_draws, tab_order
from playground.ui.page.per_workspace import PerWorkspace
from playground.ui.page.tab_order import TabOrder


class Component:
    """A stand-in for a component: what the order reads of it is its id."""

    def __init__(self, _id: int):
        self._id = _id


GRID, HEAD = Component(1), Component(2)


def in_thread(fn):
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", fn()))
    thread.start()
    return thread, result


def test_a_click_during_a_draw_is_kept_and_the_draw_is_made_again_from_the_session():
    order, session, drawn, committed = TabOrder(), {"form": "link's"}, [], []
    started, clicked = threading.Event(), threading.Event()

    def draw(again):
        drawn.append((session["form"], again))
        started.set()
        clicked.wait(5)                                     # the click arrives while the first draw is on its way
        return {GRID: f"grid of {session['form']}", HEAD: f"head of {session['form']}"}

    thread, result = in_thread(lambda: order.draw(draw, lambda: committed.append(session["form"])))
    started.wait(5)
    with order.event() as ticket:
        session["form"] = "clicked"
        sent, whole = order.kept(ticket, {HEAD: "head of clicked"})
    clicked.set()
    thread.join(5)
    assert sent == {HEAD: "head of clicked"} and whole
    assert drawn == [("link's", False), ("clicked", True)]          # drawn again for the click's form,
    assert result["value"] == {GRID: "grid of clicked"}            # but for what the click's result shows
    assert committed == ["clicked"]


def test_a_draw_waits_for_the_tabs_earlier_events():
    order, log = TabOrder(), []
    clicked = threading.Event()

    def click():
        with order.event() as ticket:
            clicked.set()
            time.sleep(0.3)
            log.append("click")
            return order.kept(ticket, {HEAD: "clicked"})

    thread, _ = in_thread(click)
    clicked.wait(5)
    updates = order.draw(lambda again: log.append(("draw", again)) or {GRID: "grid"}, lambda: log.append("commit"))
    thread.join(5)
    assert log == ["click", ("draw", True), "commit"] and updates == {GRID: "grid"}


def test_a_draw_overtaken_by_a_later_draw_sends_nothing():
    order, committed = TabOrder(), []
    first_started, second_started = threading.Event(), threading.Event()

    def slow(again):
        first_started.set()
        second_started.wait(5)
        time.sleep(0.1)
        return {GRID: "first"}

    thread, result = in_thread(lambda: order.draw(slow, lambda: committed.append("first")))
    first_started.wait(5)

    def quick(again):
        second_started.set()
        return {GRID: "second"}

    assert order.draw(quick, lambda: committed.append("second")) == {GRID: "second"}
    thread.join(5)
    assert result["value"] == {} and committed == ["second"]


def test_a_slow_event_does_not_replace_what_a_later_one_wrote():
    order = TabOrder()
    with order.event() as older:
        with order.event() as newer:
            assert order.kept(newer, {HEAD: "layer 2"}) == ({HEAD: "layer 2"}, True)
        assert order.kept(older, {HEAD: "layer 1", GRID: "grid"}) == ({GRID: "grid"}, False)


class Session:
    """A stand-in for a workspace (the orders are kept as long as it is)."""


def test_each_session_and_tab_has_its_own_order():
    first, second = Session(), Session()
    assert tab_order.order_of(first, "attention") is tab_order.order_of(first, "attention")
    assert tab_order.order_of(first, "attention") is not tab_order.order_of(first, "generate")
    assert tab_order.order_of(first, "attention") is not tab_order.order_of(second, "attention")


def test_what_a_session_keeps_for_its_tabs_goes_with_it():
    session = Session()
    order, requests = weakref.ref(tab_order.order_of(session, "attention")), weakref.ref(next_draws.next_draws(session))
    assert next_draws.next_draws(session) is requests()
    del session
    gc.collect()
    assert order() is None and requests() is None


def test_sessions_asking_at_once_get_one_value_each():
    made = []

    def make():
        time.sleep(0.01)                       # a slow first ask: another thread asks meanwhile
        made.append(object())
        return made[-1]

    values, session = PerWorkspace(make), Session()
    threads = [threading.Thread(target=lambda: values.of(session, "attention")) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and values.of(session, "attention") is made[0]


def test_a_draw_made_while_the_language_switched_leaves_the_next_draw_to_draw_the_new_language():
    # switched to Chinese and straight back: the draw after the first switch read Chinese, the second
    # switch was recorded before it ended, and the draw after the second took the page as drawn in English
    from types import SimpleNamespace

    from playground.ui.page.showing import tab_drawer
    from playground.ui.session.workspace import Workspace

    workspace, drawn_in = Workspace("switching", None), []
    workspace.language = "zh-CN"

    class Wiring:
        components: dict = {}

        def drawing(self, workspace, lang, form=None, again=False):
            shown = workspace.drawn.get("attention") == workspace.drawing_key("form", lang)
            if not drawn_in:
                workspace.language = "en"               # the switch back, recorded while this draw runs
            drawn_in.append(lang)
            return ({} if shown else {GRID: f"grid in {lang}"}), "form"

    draw = tab_drawer(SimpleNamespace(views={"attention": Wiring()}), "attention", folds=False)
    assert draw(workspace) == {GRID: "grid in zh-CN"}
    assert draw(workspace) == {GRID: "grid in en"}
    assert draw(workspace).get("__type__") == "update"          # drawn in English now: nothing to send
