"""The page's load: one event, the draw of the tab it opens on, sets the language, applies the link, reads
what the browser kept and draws that tab."""
import dataclasses
import json

import gradio as gr
import pytest

from playground.ui import create_app
from playground.ui.app import TABS
from playground.ui.session.examples import ATTENTION_EXAMPLES, examples_for
from playground.ui.text.i18n import text

from playground.ui.page.wiring import TabWiring, value_of, with_value


def by_elem_id(demo) -> dict:
    """The main page's blocks by elem_id (the room's pages reuse some of its ids, such as the language's)."""
    return {block.elem_id: block for block in demo.blocks.values()
            if getattr(block, "elem_id", None) and block.page == ""}


def page_load(demo):
    """The main page's load events (the room's pages have their own)."""
    return [fn for fn in demo.fns.values() if fn.page == "" and any(trigger == "load" for _, trigger in fn.targets)]


def open_page(demo, query: str, session: str, accept_language: str = "en", kept=None) -> dict:
    """The updates of the page's opening for an address: the draw of the tab it names (the first tab when
    it names none), with what the page's js sends it: the language a link names (else none: the probe is
    still untranslated), the query, and what the browser kept (`kept`: the lessons' record; else the
    empty record of a first visit)."""
    request = gr.Request(session_hash=session, headers={"accept-language": accept_language})
    named = dict(pair.split("=", 1) for pair in query.lstrip("?").split("&") if "=" in pair)
    view = named.get("view") if named.get("view") in dict(TABS) else TABS[0][0]
    return draw_event(demo, view).fn(request, named.get("lang", ""), query, {} if kept is None else kept, {})


def draw_event(demo, view: str):
    """The draw event of the tab `view` (its redraw button clicked: by a pick, the opening or a header event)."""
    redraw = by_elem_id(demo)[f"{view}-redraw"]._id
    found = [fn for fn in demo.fns.values()
             if fn.fn is not None and (redraw, "click") in [tuple(target) for target in fn.targets]]
    assert len(found) == 1, view
    return found[0]


@pytest.fixture(scope="module")
def shipped_demo(shipped):
    """The app on the shipped models (the lessons draw them)."""
    return create_app()


def test_the_page_opens_in_one_event(demo):
    loads = page_load(demo)
    assert len(loads) == 1 and loads[0].fn is None           # the page's js asks the linked tab's draw


def test_a_link_draws_its_view_in_the_page_load(demo):
    out = open_page(demo, "?view=attention&model=copy&text=abcd&kind=cross&layer=1&head=0&lang=en", "link-a")
    blocks = by_elem_id(demo)
    assert out[blocks["tabs"]].constructor_args["selected"] == "attention"
    head = json.loads(out[blocks["attention-head-plot"]].plot)
    assert "layer 1, head 0" in head["layout"]["title"]["text"]
    assert json.loads(out[blocks["attention-grid"]].plot)["data"]
    assert out[blocks["attention-text"]] == "abcd"
    assert "view=attention" in out[blocks["attention-link"]]
    assert blocks["lesson-figure-0"] not in out                    # no other tab is drawn


def test_a_lesson_link_keeps_its_lesson_in_the_picker(shipped_demo):
    demo = shipped_demo
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
    def fails(self, handler, workspace, form, lang, link=True, shared=False):
        raise LookupError("the lesson's model 'reverse' is not shipped")

    monkeypatch.setattr(TabWiring, "updates", fails)
    out = open_page(demo, "?view=lessons&lesson=masks&lang=en", "link-d")
    blocks = by_elem_id(demo)
    assert out[blocks["tabs"]].constructor_args["selected"] == "lessons"
    assert value_of(out[blocks["lesson-picker"]]) == (True, "masks")
    note = out[blocks["lessons-note"]].constructor_args
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


def page_event(demo, name: str):
    """The function of the page's event called `name` (on_select, on_language, ...)."""
    found = [fn for fn in demo.fns.values() if getattr(fn.fn, "__name__", "") == name]
    assert len(found) == 1, name
    return found[0]


def pick(demo, view: str, session: str) -> dict:
    """The updates of picking the tab `view` in `session` (drawn in the session's language) once the page has
    opened: the page sends its language, no query and no kept state."""
    return draw_event(demo, view).fn(gr.Request(session_hash=session), "en", None, None, None)


def test_a_tab_picked_before_the_page_has_opened_is_left_to_the_opening(demo):
    open_page(demo, "?view=attention&lang=en", "pick-early")
    early = draw_event(demo, "lessons").fn(gr.Request(session_hash="pick-early"), None, None, None, None)
    assert early == gr.skip()                                  # the page sent no language: not opened yet
    assert demo_workspace(demo, "pick-early").shown_view == "attention"


def title(update) -> str:
    figure = update.plot if hasattr(update, "plot") else update["value"].plot
    return json.loads(figure)["layout"]["title"]["text"]


def test_a_tab_picked_is_drawn_from_the_session_once_and_again_only_when_something_changed(demo):
    open_page(demo, "?view=lessons&lang=en", "pick-a")
    blocks = by_elem_id(demo)
    drawn = pick(demo, "attention", "pick-a")
    assert json.loads(drawn[blocks["attention-grid"]].plot)["data"]
    assert blocks["lesson-figure-0"] not in drawn and blocks["inside-emb-neighbours"] not in drawn
    assert pick(demo, "attention", "pick-a") == gr.skip()                # the page shows that drawing already
    positional = pick(demo, "positional", "pick-a")               # in the session's language
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in title(positional[blocks["pos-heatmap"]]))
    assert pick(demo, "attention", "pick-never-opened") == gr.skip()     # before the page has opened: its opening draws


def test_a_new_language_redraws_the_tab_on_screen_and_each_other_tab_when_it_is_picked(demo):
    open_page(demo, "?view=attention&model=copy&text=abcd&lang=en", "lang-a")
    blocks = by_elem_id(demo)
    out = page_event(demo, "on_language").fn("zh-CN", gr.Request(session_hash="lang-a"))
    assert out[blocks["tab-lessons"]].constructor_args["label"].key == "tab_lessons"     # every tab's name
    assert blocks["attention-grid"] not in out                    # the header writes no tab: it asks for the draw
    drawn = pick(demo, "attention", "lang-a")                     # the redraw it asks for, in the session's language
    assert any("\u4e00" <= ch <= "\u9fff" for ch in title(drawn[blocks["attention-grid"]]))
    lessons = pick(demo, "lessons", "lang-a")
    assert "第 1 课" in lessons[blocks["lesson-position"]]


def test_a_model_the_session_adds_is_shown_by_every_tab_when_it_is_next_picked(demo, registry):
    open_page(demo, "?view=attention&model=tiny-gpt&text=abc&lang=en", "added-a")
    blocks = by_elem_id(demo)
    pick(demo, "generate", "added-a")
    workspace = demo_workspace(demo, "added-a")
    copy = registry.get("copy")
    workspace.add_model(dataclasses.replace(copy, name="trained-copy", source="session"))
    attention = pick(demo, "attention", "added-a")
    picker = attention[blocks["attention-model"]].constructor_args
    assert picker["value"] == "trained-copy" and "trained-copy" in picker["choices"]
    assert attention[blocks["attention-summary"]].startswith("**trained-copy**")
    assert attention[blocks["attention-text"]] == "abc"                      # it reads the text: kept
    note = attention[blocks["attention-note"]].constructor_args
    assert note["visible"] and "trained-copy" in note["value"]
    generate = pick(demo, "generate", "added-a")
    assert generate[blocks["generate-model"]].constructor_args["value"] == "trained-copy"
    inside = pick(demo, "inside", "added-a")
    assert inside[blocks["inside-worked-model"]].constructor_args["value"] == "trained-copy"
    assert inside[blocks["inside-fill-model"]].constructor_args["value"] != "trained-copy"  # it fills no blanks


def test_a_model_that_cannot_read_a_tabs_input_shows_its_own_example_and_says_so(demo, registry):
    open_page(demo, "?view=attention&model=tiny-gpt&text=hij%20hij&lang=zh-CN", "added-b")
    blocks = by_elem_id(demo)
    workspace = demo_workspace(demo, "added-b")
    workspace.add_model(dataclasses.replace(registry.get("copy"), name="mine-copy", source="session"))
    shown = pick(demo, "attention", "added-b")
    assert shown[blocks["attention-text"]] != "hij hij"                  # ' ' is not one of its characters
    assert "mine-copy" in shown[blocks["attention-note"]].constructor_args["value"]
    assert json.loads(shown[blocks["attention-grid"]].plot)["data"]     # drawn, no error


def test_a_tab_first_drawn_for_the_sessions_model_shows_that_models_example_not_the_layouts(demo):
    # The Attention tab's layout shows the copy model's example; a session working with tiny-gpt (a
    # Generate link) sees tiny-gpt's own example there, as its picker and the examples row show.
    open_page(demo, "?view=generate&model=tiny-gpt&lang=en", "first-a")
    blocks = by_elem_id(demo)
    shown = pick(demo, "attention", "first-a")
    assert shown[blocks["attention-model"]].constructor_args["value"] == "tiny-gpt"
    assert blocks["attention-text"].value == "abcdefghij"               # what the layout shows
    entry = demo_workspace(demo, "first-a").catalog.get("tiny-gpt")
    assert shown[blocks["attention-text"]] == examples_for(entry, ATTENTION_EXAMPLES)[0] != "abcdefghij"
    note = shown[blocks["attention-note"]].constructor_args["value"]       # no text of the learner's was lost
    assert note == text("en", "note_followed", model="tiny-gpt")
    open_page(demo, "?view=attention&model=copy&text=hijhij&lang=en", "first-b")       # a text of one's own
    pick(demo, "generate", "first-b")
    demo_workspace(demo, "first-b").choose_model("tiny-gpt")
    assert pick(demo, "attention", "first-b")[blocks["attention-text"]] == "hijhij"    # tiny-gpt reads it: kept


def demo_workspace(demo, session: str):
    """The workspace of `session` in the app `demo`."""
    return demo.workspaces.get(session)


def test_the_lesson_the_browser_kept_opens_with_its_answers_unless_the_link_names_one(shipped_demo):
    demo = shipped_demo
    blocks = by_elem_id(demo)
    kept = {"lesson": "masks", "answers": {"masks": {"prediction": 1, "answer": 0}}}
    out = open_page(demo, "?lang=en", "kept-a", kept=kept)
    assert out[blocks["lesson-picker"]].constructor_args["value"] == "masks"
    assert out[blocks["lesson-prediction"]].constructor_args["value"] == 1
    assert out[blocks["lesson-answer"]].constructor_args["value"] == 0
    linked = open_page(demo, "?view=lessons&lesson=positions&lang=en", "kept-b", kept=kept)
    assert linked[blocks["lesson-picker"]].constructor_args["value"] == "positions"
    record = next(block for block in demo.blocks.values()
                  if isinstance(block, gr.BrowserState) and block.storage_key == "playground-lessons")
    assert linked[record]["lesson"] == "positions"                     # the link's lesson, every answer kept
    assert linked[record]["answers"]["masks"] == {"prediction": 1, "answer": 0}
    fresh = open_page(demo, "?view=lessons&lang=en", "kept-c")      # a first visit: the record starts
    assert fresh[record]["lesson"] == "tokens"


def test_the_opening_draws_the_lesson_once_with_what_the_browser_kept(shipped_demo):
    # The record is read in the opening's own draw: no second draw follows it, which would wipe an answer
    # the learner gave in between (its feedback cleared by a redraw computed before the answer).
    demo = shipped_demo
    blocks = by_elem_id(demo)
    query = "?view=lessons&lesson=masks&lang=en"
    assert open_page(demo, query, "kept-nothing")[blocks["lesson-title"]]       # a first visit: nothing kept
    assert pick(demo, "lessons", "kept-nothing") == gr.skip()
    linked = open_page(demo, query, "kept-linked", kept={"lesson": "tokens", "answers": {"tokens": {"answer": 1}}})
    assert linked[blocks["lesson-picker"]].constructor_args["value"] == "masks"     # the link names the lesson
    assert pick(demo, "lessons", "kept-linked") == gr.skip()
    placed = open_page(demo, "?lang=en", "kept-place", kept={"lesson": "masks", "answers": {}})
    assert placed[blocks["lesson-picker"]].constructor_args["value"] == "masks"     # the place the browser was on
    assert pick(demo, "lessons", "kept-place") == gr.skip()


def test_what_a_link_ignored_is_said_again_in_the_language_picked(demo):
    out = open_page(demo, "?view=attention&model=copy&layer=99&lang=en", "link-note-language")
    note = by_elem_id(demo)["link-note"]
    assert out[note].constructor_args["value"].startswith("**Parts of this link were ignored**")
    language = page_event(demo, "on_language")
    request = gr.Request(session_hash="link-note-language", headers={"accept-language": "en"})
    said = language.fn("zh-CN", request)[note]
    assert said.startswith("**此链接中的部分参数被忽略了**") and "99" in said
