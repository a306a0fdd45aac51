"""The page's load: one event sets the language, applies the link and draws the tab it opens on."""
import json

import gradio as gr
import pytest

from playground.ui.page.wiring import TabWiring, with_value


def by_elem_id(demo) -> dict:
    return {block.elem_id: block for block in demo.blocks.values() if getattr(block, "elem_id", None)}


def page_load(demo):
    """The page's load events and the function of the one that opens the page."""
    loads = [fn for fn in demo.fns.values() if any(trigger == "load" for _, trigger in fn.targets)]
    return loads, loads[0].fn


def open_page(demo, query: str, session: str, accept_language: str = "en") -> dict:
    """The page-load event's updates for an address, with what the page's js reads: the language
    a link names (else none: the probe is still untranslated) and the query."""
    _, fn = page_load(demo)
    request = gr.Request(session_hash=session, headers={"accept-language": accept_language})
    named = dict(pair.split("=", 1) for pair in query.lstrip("?").split("&") if "=" in pair)
    return fn(named.get("lang", ""), query, request)


def test_the_page_opens_in_one_event(demo):
    loads, _ = page_load(demo)
    assert len(loads) == 1


def test_a_link_draws_its_view_in_the_page_load(demo):
    out = open_page(demo, "?view=attention&model=copy&text=abcd&kind=cross&layer=1&head=0&lang=en", "link-a")
    blocks = by_elem_id(demo)
    assert out[blocks["tabs"]].constructor_args["selected"] == "attention"
    head = json.loads(out[blocks["attention-head-plot"]].plot)
    assert "layer 1, head 0" in head["layout"]["title"]["text"]
    assert json.loads(out[blocks["attention-grid"]].plot)["data"]
    assert out[blocks["attention-text"]] == "abcd"
    assert "view=attention" in out[blocks["attention-link"]]
    opened = [value for block, value in out.items() if isinstance(block, gr.State) and value is True]
    assert len(opened) == 1                          # the linked tab is marked drawn; no other tab is drawn
    assert blocks["lesson-figure-0"] not in out                    # nor are the other tabs' figures


def test_a_lesson_link_keeps_its_lesson_in_the_picker(demo):
    out = open_page(demo, "?view=lessons&lesson=positions&lang=zh-CN", "link-b")
    blocks = by_elem_id(demo)
    picker = out[blocks["lesson-picker"]]
    assert picker.constructor_args["value"] == "positions"
    assert out[blocks["language"]] == "zh-CN"
    assert "第 3 课" in out[blocks["lesson-position"]]
    figure = out[blocks["lesson-figure-0"]]
    assert figure["visible"] and json.loads(figure["value"].plot)["data"]
    assert json.loads(figure["value"].plot)["config"]["toImageButtonOptions"]["filename"] == \
        "lessons-figure_0-positions"


def test_a_linked_view_that_cannot_be_drawn_opens_with_its_controls_and_says_why(demo, monkeypatch):
    def fails(self, workspace, form, lang):
        raise LookupError("the lesson's model 'reverse' is not shipped")

    monkeypatch.setattr(TabWiring, "redraw_updates", fails)
    out = open_page(demo, "?view=lessons&lesson=masks&lang=en", "link-d")
    blocks = by_elem_id(demo)
    assert out[blocks["tabs"]].constructor_args["selected"] == "lessons"
    assert out[blocks["lesson-picker"]] == "masks"
    note = out[blocks["link-note"]].constructor_args
    assert note["visible"] and "LookupError" in note["value"]


def test_without_a_link_the_first_tab_opens_drawn_in_the_browsers_language(demo):
    out = open_page(demo, "", "link-c", accept_language="zh-CN,zh;q=0.9")
    blocks = by_elem_id(demo)
    assert out[blocks["tabs"]].constructor_args["selected"] == "lessons"
    assert out[blocks["language"]] == "zh-CN"
    assert "第 1 课" in out[blocks["lesson-position"]]


def test_a_drawing_keeps_the_value_a_form_names():
    kept = with_value(gr.Dropdown(choices=["a", "b"]), "b")
    assert kept.constructor_args == {"choices": ["a", "b"], "value": "b"}
    assert with_value(gr.Dropdown(choices=["a"], value="a"), "b").constructor_args["value"] == "a"
    assert with_value("drawn", "linked") == "drawn"
    radio = gr.Radio(choices=["x"])
    assert with_value(radio, gr.Radio(choices=["y"])) is radio


def language_redraw(demo):
    redraws = [fn for fn in demo.fns.values() if getattr(fn.fn, "__name__", "") == "redraw"]
    assert len(redraws) == 1
    return redraws[0]


def is_opened_flag(block) -> bool:
    return isinstance(block, gr.State) and block.value is False


def redraw_values(redraw, opened_view: str, lang: str) -> list:
    """The event's values: the language, then each tab's opened flag (a State starting False; only
    `opened_view`'s set) and its controls as the page starts with them."""
    values = [lang]
    for index, block in enumerate(redraw.inputs[1:], start=1):
        if is_opened_flag(block):
            following = redraw.inputs[index + 1] if index + 1 < len(redraw.inputs) else None
            values.append(bool(following is not None and (following.elem_id or "").startswith(opened_view + "-")))
        else:
            values.append(block.value)
    return values


def test_a_language_change_redraws_the_opened_tabs_in_one_event(demo):
    redraw = language_redraw(demo)
    blocks = by_elem_id(demo)
    out = redraw.fn(gr.Request(session_hash="lang-a"), *redraw_values(redraw, "attention", "zh-CN"))
    title = json.loads(out[blocks["attention-grid"]].plot)["layout"]["title"]["text"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in title)
    assert blocks["lesson-figure-0"] not in out                       # the Lessons tab was not opened
    flags = [value for block, value in zip(redraw.inputs, redraw_values(redraw, "attention", "en")) if is_opened_flag(block)]
    assert len(flags) == 9 and flags.count(True) == 1                   # one flag per tab, the attention tab's set


def test_a_tab_that_cannot_be_redrawn_warns_and_the_others_are_redrawn(demo, monkeypatch):
    redraw = language_redraw(demo)
    blocks = by_elem_id(demo)
    original = TabWiring.redraw_updates

    def lessons_fail(self, workspace, form, lang):
        if form.VIEW == "lessons":
            raise LookupError("a lesson's model is missing")
        return original(self, workspace, form, lang)

    monkeypatch.setattr(TabWiring, "redraw_updates", lessons_fail)
    values = redraw_values(redraw, "attention", "en")
    values = [True if is_opened_flag(block) and (redraw.inputs[i + 1].elem_id or "").startswith("lesson")
              else value for i, (block, value) in enumerate(zip(redraw.inputs, values))]
    with pytest.warns(UserWarning, match="LookupError"):
        out = redraw.fn(gr.Request(session_hash="lang-b"), *values)
    assert blocks["attention-grid"] in out and blocks["lesson-figure-0"] not in out


def language_check(demo):
    checks = [fn for fn in demo.fns.values() if getattr(fn.fn, "__name__", "") == "language_changed"]
    assert len(checks) == 1
    return checks[0]


def test_the_language_the_page_opened_with_is_not_drawn_again(demo):
    check = language_check(demo)
    open_page(demo, "?view=attention&model=copy&lang=zh-CN", "lang-c")
    opened = [block.value for block in check.inputs[1:]]          # as on load: every flag False but the tab drawn
    opened[0] = True
    with pytest.raises(gr.Error):
        check.fn(gr.Request(session_hash="lang-c"), "zh-CN", *opened)      # reported on load: no change
    assert check.fn(gr.Request(session_hash="lang-c"), "en", *opened) is None


def test_a_page_that_has_drawn_no_tab_yet_redraws_nothing(demo):
    check = language_check(demo)
    with pytest.raises(gr.Error):
        check.fn(gr.Request(session_hash="lang-d"), "zh-CN", *(False for _ in check.inputs[1:]))


def test_the_resumed_lesson_is_drawn_only_where_the_lessons_tab_is_on_screen(demo):
    """A link to another tab does not wait behind a lesson's figures: the Lessons tab's first opening
    draws the lesson its picker holds."""
    gate = next(fn.fn for fn in demo.fns.values() if fn.name == "lesson_on_screen")
    assert gate(True, "") is None                                   # opened on Lessons: draw the kept lesson
    assert gate(True, "?lang=zh-CN") is None
    for opened, address in ((False, ""), (False, "?view=attention"), (True, "?view=lessons&lesson=positions")):
        with pytest.raises(gr.Error):                               # elsewhere, or the link's lesson is drawn
            gate(opened, address)


def test_the_lesson_to_resume_is_read_from_the_address_the_page_opened_with(demo):
    """The page rewrites its address bar to describe the view once it has opened (lesson=tokens on
    the plain address), and sends that address with every later event; the lesson to resume
    comes from the address the page opened with, which the load event keeps."""
    resume = next(fn for fn in demo.fns.values() if fn.name == "resume")
    load = next(fn for fn in demo.fns.values() if fn.name == "open_page")
    assert resume.inputs[1] is load.outputs[1]                          # the query the load event read
    assert resume.fn({"lesson": "masks", "answers": {}}, "?lang=zh-CN") == "masks"
    assert isinstance(resume.fn({"lesson": "masks", "answers": {}}, "?view=lessons&lesson=tokens"), gr.Dropdown)
