"""The class room's two light pages, served beside the main page by the same app (gr.Blocks.route):

- `room-board` (the teacher's projector): open a room, its code and QR code, rounds (a model and a
  passage), the live board (how many answered, the class's guesses beside the model's probabilities),
  the reveal (the answer, both log-losses, the model's attention at that step) and the match;
- `room` (a student's phone or laptop, `room?code=CODE`): join, the text to continue, a guess typed or
  picked from the model's vocabulary, the student's own record.

Each page's config holds only its own components, so joining from a phone does not load the nine
tabs, and every event here writes only the room page's own components. The pages poll (gr.Timer) and
send nothing when the room has not changed since the last poll. The room's API (room_open, room_join,
room_guess, room_student, room_round, room_poll, room_reveal, room_board, room_close) is served on
the student's page; see room_api.
"""
from __future__ import annotations

import html
from urllib.parse import urljoin

import gradio as gr

from ..page.language import LANGUAGE_ID, PROBE_ID, detect_language
from ..page.qr import qr_svg
from ..page.runtime import guarded
from ..inputs.validation import fail
from ..text.i18n import DEFAULT_LANGUAGE, LANGUAGES, label, text
from ..text.markup import literal, literal_fields
from .room_api import RoomActions, language
from .room_board import board, plain_token, poll_picks, student_view
from .room_polls import poll_choices
from .room_rules import CODE_LENGTH, MAX_GUESS_CHARS, MAX_NICKNAME_CHARS, RoomRefused

STUDENT_PATH = "room"
BOARD_PATH = "room-board"
ROOM = {"concurrency_id": "room", "concurrency_limit": 8, "api_visibility": "private"}
API = {"concurrency_id": "room", "concurrency_limit": 8}
STUDENT_POLL_SECONDS = 3.0
BOARD_POLL_SECONDS = 1.0
SCHEMES = ("http://", "https://")

# Gradio draws a bar of links to an app's pages (.nav-holder) on each page once it has more than one, and
# gr.Navbar(visible=False) does not remove it in Gradio 6.31 (a hidden Navbar is never mounted to say so).
# The room's pages are reached by the header's button and by links: no page shows the bar.
CSS = """
.nav-holder { display: none !important; }
#room-title .prose, #room-title p { font-size: 1.5rem; font-weight: 600; }
#room-code-big { font-size: clamp(2rem, 4.5vw, 5rem); font-weight: 700; letter-spacing: 0.1em; text-align: center;
  line-height: 1.1; }
#room-join svg { width: min(38vh, 100%); height: auto; aspect-ratio: 1; display: block; margin: 0 auto; }
#room-join .room-link { text-align: center; overflow-wrap: anywhere; }
#room-board .prose, #room-play .prose { font-size: 1.15rem; }
"""

# Page js on load: the language a link names (else the probe's), then, for a student, the code a link
# names and, for the board, its address and the token that hands a session's models over.
LINKED_LANGUAGE_JS = f"""
const params = new URLSearchParams(location.search);
const probe = document.querySelector('#{PROBE_ID}');
const wanted = params.get('lang');
const linked = {list(LANGUAGES)!r}.includes(wanted) ? wanted : (probe ? probe.innerText.trim() : '');
"""
READ_STUDENT_JS = f"""
(code, lang, kept) => {{
  {LINKED_LANGUAGE_JS}
  return [params.get('code') || params.get('room') || '', linked, kept];
}}
"""
READ_BOARD_JS = f"""
(address, host, lang, kept) => {{
  {LINKED_LANGUAGE_JS}
  return [location.href, params.get('host') || '', linked, kept];
}}
"""

# Event js of Open a room: the board's address and handover token read from the address bar itself, so a
# click made before the page's load event has answered still knows them.
OPEN_ROOM_JS = """
(nicknames, lang, address, host) => [nicknames, lang, location.href,
                                      new URLSearchParams(location.search).get('host') || '']
"""


def _header(title_key: str):
    gr.Markdown(label("locale_code"), elem_id=PROBE_ID, visible="hidden")
    with gr.Row():
        gr.Markdown(label(title_key), elem_id="room-title", scale=4)
        lang = gr.Radio([(name, code) for code, name in LANGUAGES.items()], value=DEFAULT_LANGUAGE,
                        label=label("lbl_language"), elem_id=LANGUAGE_ID, scale=1, min_width=240)
    return lang


def join_address(address: str, code: str) -> str:
    """The student page's address for `code`, next to the board's `address` ("" when that is not a web address)."""
    if not isinstance(address, str) or not address.startswith(SCHEMES) or any(c.isspace() for c in address):
        return ""
    return urljoin(address.split("#")[0], f"{STUDENT_PATH}?code={code}")


def join_html(code: str, address: str, lang: str) -> str:
    """The code in large letters, the QR code of the student page's address and the address as text."""
    link = join_address(address, code)
    said = html.escape(text(lang, "room_join_at", link=link or code))
    qr = f'<div role="img" aria-label="{said}">{qr_svg(link)}</div>' if link else ""
    return (f'<div id="room-code-big">{html.escape(code)}</div>{qr}<p class="room-link">{said}</p>')


def build(demo: gr.Blocks, actions: RoomActions) -> None:
    """Add the student page and the teacher's board to `demo` (after its main page is declared)."""
    with demo.route(text(DEFAULT_LANGUAGE, "room_title"), STUDENT_PATH, show_in_navbar=False):
        _student_page(demo, actions)
        _api(actions)
    with demo.route(text(DEFAULT_LANGUAGE, "room_board_title"), BOARD_PATH, show_in_navbar=False):
        _board_page(demo, actions)


# ------------------------------------------------------------------------------------------ API

def _api(actions: RoomActions) -> None:
    """The room's actions under their API names (see room_api for what each returns)."""

    def room_open(lang: str, nicknames: bool) -> dict:
        return actions.open(lang, nicknames)

    def room_join(code: str, nickname: str, student: str, lang: str) -> dict:
        return actions.join(code, nickname, student or None, lang)

    def room_guess(code: str, student: str, guess: str, lang: str) -> dict:
        return actions.guess(code, student, guess, lang)

    def room_student(code: str, student: str, lang: str) -> dict:
        return actions.student(code, student, lang)

    def room_round(code: str, key: str, model: str, passage: str, lang: str) -> dict:
        return actions.start_round(code, key, model, passage, lang)

    def room_poll(code: str, key: str, poll: str, lang: str) -> dict:
        return actions.start_poll(code, key, poll, lang)

    def room_reveal(code: str, key: str, lang: str) -> dict:
        return actions.reveal(code, key, lang)

    def room_board(code: str, key: str, lang: str) -> dict:
        return actions.board(code, key, lang)

    def room_close(code: str, key: str, lang: str) -> str:
        return actions.close(code, key, lang)

    for fn in (room_open, room_join, room_guess, room_student, room_poll, room_reveal, room_board, room_close):
        gr.api(fn, api_name=fn.__name__, **API)
    gr.api(guarded(room_round), api_name="room_round", **API)


# ------------------------------------------------------------------------------------------ student

def _student_page(demo: gr.Blocks, actions: RoomActions) -> None:
    lang = _header("room_title")
    me = gr.BrowserState({}, storage_key="playground-room-student")     # {"code", "student"}
    seen = gr.State(-1)
    with gr.Group(elem_id="room-join-box") as join_box:
        code = gr.Textbox(label=label("lbl_room_code"), max_lines=1, max_length=CODE_LENGTH + 4,
                          elem_id="room-code")
        nickname = gr.Textbox(label=label("lbl_room_nickname"), info=label("info_room_nickname"), max_lines=1,
                              max_length=MAX_NICKNAME_CHARS, elem_id="room-nickname")
        join = gr.Button(label("btn_room_join"), variant="primary", elem_id="room-join-button")
    message = gr.Markdown(elem_id="room-message")
    with gr.Group(visible=False, elem_id="room-play") as play:
        round_text = gr.Markdown(elem_id="room-round")
        with gr.Group(visible=False, elem_id="room-guessing") as guessing:     # while a round is open
            guess = gr.Textbox(label=label("lbl_room_guess"), info=label("info_room_guess"), max_lines=1,
                               max_length=MAX_GUESS_CHARS, elem_id="room-guess")
            pick = gr.Dropdown([], value=None, label=label("lbl_room_pick"), filterable=True, elem_id="room-pick")
            send = gr.Button(label("btn_room_send"), variant="primary", elem_id="room-send")
        mine = gr.Markdown(elem_id="room-mine")
        record = gr.Markdown(elem_id="room-record")
    timer = gr.Timer(STUDENT_POLL_SECONDS, active=False)
    view = [message, join_box, play, guessing, round_text, mine, record, guess, pick, seen, timer]

    def drawn(room_code: str, student, lang_: str, force: bool, last_seen, clear_guess: bool = False) -> dict:
        """The student's view when the room changed since `last_seen` ([version, rounds]) or `force`; a
        closed or expired room says so and shows the join box again. A new round labels the guess box
        and the picker for a next-token guess or a poll's answer; `clear_guess` empties the box."""
        room = actions.rooms.peek(room_code)
        if room is None or student not in room.students:
            return {message: _gone(actions, room_code, lang_), join_box: gr.Group(visible=True),
                    play: gr.Group(visible=False), timer: gr.Timer(active=False), seen: -1}
        last = last_seen if isinstance(last_seen, list) else [-1, -1]
        if not force and room.version == last[0]:
            return gr.skip()                  # nothing changed: every output left as it is
        shown = student_view(room, student, lang_)
        out = {message: text(lang_, "room_in", code=room.code), join_box: gr.Group(visible=False),
               play: gr.Group(visible=True), round_text: shown.round, mine: shown.guess, record: shown.record,
               seen: [room.version, len(room.rounds)], timer: gr.Timer(active=True),
               guessing: gr.Group(visible=room.current is not None and room.current.reveal is None)}
        if room.current is not None and (force or len(room.rounds) != last[1]):
            spec = room.current.spec
            picks = poll_picks(room.current, lang_) if spec.poll else [(plain_token(t), t) for t in spec.picker]
            out[pick] = gr.Dropdown(choices=picks, value=None,
                                    label=label("lbl_room_pick_answer" if spec.poll else "lbl_room_pick"))
            out[guess] = gr.Textbox(label=label("lbl_room_answer" if spec.poll else "lbl_room_guess"),
                                    info=label("info_room_answer" if spec.poll else "info_room_guess"),
                                    **({"value": ""} if clear_guess else {}))
        elif clear_guess:
            out[guess] = ""
        return out

    def opened(code_, lang_, kept, request: gr.Request):
        lang_ = detect_language(lang_, request.headers.get("accept-language") if request else None)
        code_ = (code_ or "").strip().upper()[:CODE_LENGTH + 4]
        out = {lang: lang_, code: code_}
        if isinstance(kept, dict) and kept.get("code") == code_ and code_:
            out.update(drawn(code_, kept.get("student"), lang_, True, None))
        elif code_:
            room = actions.rooms.peek(code_)
            out[message] = text(lang_, "room_join_intro", code=literal(code_)) if room else _gone(actions, code_, lang_)
        return out

    def joined(code_, nickname_, kept, lang_):
        kept = kept if isinstance(kept, dict) else {}
        again = kept.get("student") if kept.get("code") == (code_ or "").strip().upper() else None
        result = actions.join(code_, nickname_, again, lang_)
        stored = {"code": result["code"], "student": result["student"]}
        return {me: stored, code: result["code"], **drawn(result["code"], result["student"], lang_, True, None)}

    def sent(typed, picked, kept, lang_):
        kept = kept if isinstance(kept, dict) else {}
        value = typed if isinstance(typed, str) and typed.strip() else picked
        if not value:
            raise fail(lang_, "room_bad_guess", limit=MAX_GUESS_CHARS)
        actions.guess(kept.get("code"), kept.get("student"), value, lang_)
        return drawn(kept.get("code", ""), kept.get("student"), lang_, False, None, clear_guess=True)

    def polled(kept, lang_, last_seen):
        kept = kept if isinstance(kept, dict) else {}
        return drawn(kept.get("code", ""), kept.get("student"), language(lang_), False, last_seen)

    def relabelled(kept, lang_, last_seen):
        kept = kept if isinstance(kept, dict) and kept.get("code") else None
        return drawn(kept["code"], kept.get("student"), language(lang_), True, last_seen) if kept else gr.skip()

    # each event shows its progress on the message line only: the page refreshes the loading state of
    # every component an event tracks, on each status change of any event
    shown_on = {"show_progress_on": [message]}
    demo.load(opened, [code, lang, me], [lang, code, *view], js=READ_STUDENT_JS, **shown_on, **ROOM)
    gr.on([join.click, code.submit], joined, [code, nickname, me, lang], [me, code, *view], **shown_on, **ROOM)
    gr.on([send.click, guess.submit], sent, [guess, pick, me, lang], view, **shown_on, **ROOM)
    timer.tick(polled, [me, lang, seen], view, show_progress="hidden", **shown_on, **ROOM)
    lang.change(relabelled, [me, lang, seen], view, show_progress="hidden", **shown_on, **ROOM)


def _gone(actions: RoomActions, room_code: str, lang: str) -> str:
    """Why the student is not in room `room_code`: it was closed, it expired, there is no such room, or
    this browser never joined it."""
    try:
        actions.rooms.room(room_code)
    except RoomRefused as error:
        return text(lang, error.key, **literal_fields(error.fields))
    return text(lang, "room_join_intro", code=literal(room_code))


# ------------------------------------------------------------------------------------------ teacher

def _board_page(demo: gr.Blocks, actions: RoomActions) -> None:
    lang = _header("room_board_title")
    address, host = gr.Textbox(visible=False), gr.Textbox(visible=False)
    teacher = gr.BrowserState({}, storage_key="playground-room-teacher")       # {"code", "key"}
    seen = gr.State(-1)
    with gr.Row(elem_id="room-open-box") as open_box:
        nicknames = gr.Checkbox(False, label=label("lbl_room_nicknames"), elem_id="room-nicknames", scale=1)
        open_ = gr.Button(label("btn_room_open"), variant="primary", elem_id="room-open", scale=1)
    message = gr.Markdown(elem_id="room-board-message")
    with gr.Column(visible=False, elem_id="room-board") as room_box:
        with gr.Row(equal_height=False):
            with gr.Column(scale=2, min_width=300):
                join = gr.HTML(elem_id="room-join")
            with gr.Column(scale=5):
                with gr.Row():
                    model = gr.Dropdown([], label=label("lbl_room_model"), elem_id="room-model", scale=1,
                                        min_width=220)
                    passage = gr.Textbox(label=label("lbl_room_passage"), info=label("info_room_passage"),
                                         max_lines=3, max_length=400, elem_id="room-passage", scale=3)
                with gr.Row():
                    poll = gr.Dropdown([], value=None, label=label("lbl_room_poll"), elem_id="room-poll-pick",
                                       scale=3)
                    run_poll = gr.Button(label("btn_room_poll"), elem_id="room-run-poll", scale=1)
                with gr.Row():
                    start = gr.Button(label("btn_room_start"), variant="primary", elem_id="room-start")
                    reveal = gr.Button(label("btn_room_reveal"), elem_id="room-reveal")
                    close = gr.Button(label("btn_room_close"), variant="stop", elem_id="room-close")
                status = gr.Markdown(elem_id="room-status")
                revealed = gr.Markdown(elem_id="room-revealed")
        with gr.Row(equal_height=False):
            histogram = gr.Plot(show_label=False, elem_id="room-histogram", visible=False)
            attention = gr.Plot(show_label=False, elem_id="room-attention", visible=False)
        match = gr.Markdown(elem_id="room-match")
        gr.Markdown(label("room_explain"), elem_classes="explanation", elem_id="room-explanation")
    timer = gr.Timer(BOARD_POLL_SECONDS, active=False)
    drawn_parts = [status, histogram, revealed, attention, match, seen]
    view = [message, open_box, room_box, join, model, poll, timer, *drawn_parts]

    def drawn(kept, lang_: str, force: bool, last_seen) -> dict:
        """The board when the room changed since `last_seen` (or `force`); a room gone says so."""
        kept = kept if isinstance(kept, dict) else {}
        room = actions.rooms.peek(kept.get("code", ""))
        if room is None or room.key != kept.get("key"):
            return {message: _gone(actions, kept.get("code", ""), lang_) if kept.get("code") else "",
                    open_box: gr.Row(visible=True), room_box: gr.Column(visible=False), timer: gr.Timer(active=False),
                    seen: -1}
        if not force and room.version == last_seen:
            return gr.skip()                  # nothing changed: every output left as it is
        shown = board(room, lang_)
        return {status: shown.status, revealed: shown.reveal, match: shown.match, seen: room.version,
                histogram: gr.Plot(shown.histogram, visible=shown.histogram is not None),
                attention: gr.Plot(shown.attention, visible=shown.attention is not None)}

    def whole(kept, lang_: str, address_: str, picked: bool = False) -> dict:
        """The board and the room's header (its code, QR code and models; `picked`: the model picked stays)."""
        out = drawn(kept, lang_, True, -1)
        room = actions.rooms.peek(kept.get("code", "")) if isinstance(kept, dict) else None
        if room is None or room.key != kept.get("key"):
            return out
        names = actions.model_names(room)
        return {**out, message: "", open_box: gr.Row(visible=False), room_box: gr.Column(visible=True),
                join: join_html(room.code, address_, lang_), timer: gr.Timer(active=True),
                model: gr.Dropdown(choices=names) if picked else gr.Dropdown(choices=names,
                                                                              value=actions.default_model(room, lang_)),
                poll: gr.Dropdown(choices=poll_choices(lang_))}

    def opened(address_, host_, lang_, kept, request: gr.Request):
        lang_ = detect_language(lang_, request.headers.get("accept-language") if request else None)
        out = {lang: lang_, address: address_, host: host_}
        if isinstance(kept, dict) and kept.get("code"):
            room = actions.rooms.peek(kept["code"])
            if room is not None and room.key == kept.get("key"):
                actions.claim(room, host_)
            out.update(whole(kept, lang_, address_))
        return out

    def opened_room(wants_names, lang_, address_, host_):
        result = actions.open(lang_, wants_names)
        actions.claim(actions.rooms.peek(result["code"]), host_)
        return {teacher: result, **whole(result, lang_, address_)}

    def started(kept, name, text_, lang_):
        kept = kept if isinstance(kept, dict) else {}
        actions.start_round(kept.get("code"), kept.get("key"), name, text_, lang_)
        return drawn(kept, lang_, True, -1)

    def polled_class(kept, which, lang_):
        kept = kept if isinstance(kept, dict) else {}
        actions.start_poll(kept.get("code"), kept.get("key"), which, lang_)
        return drawn(kept, lang_, True, -1)

    def shown_reveal(kept, lang_):
        kept = kept if isinstance(kept, dict) else {}
        actions.reveal(kept.get("code"), kept.get("key"), lang_)
        return drawn(kept, lang_, True, -1)

    def closed(kept, lang_):
        kept = kept if isinstance(kept, dict) else {}
        said = actions.close(kept.get("code"), kept.get("key"), lang_)
        return {teacher: {}, message: said, open_box: gr.Row(visible=True), room_box: gr.Column(visible=False),
                timer: gr.Timer(active=False), seen: -1}

    def polled(kept, lang_, last_seen):
        return drawn(kept, language(lang_), False, last_seen)

    shown_on = {"show_progress_on": [message]}      # as on the student's page: one line shows progress
    demo.load(opened, [address, host, lang, teacher], [lang, address, host, *view], js=READ_BOARD_JS, **shown_on,
              **ROOM)
    open_.click(opened_room, [nicknames, lang, address, host], [teacher, *view], js=OPEN_ROOM_JS, **shown_on, **ROOM)
    start.click(guarded(started), [teacher, model, passage, lang], drawn_parts, **shown_on, **ROOM)
    run_poll.click(polled_class, [teacher, poll, lang], drawn_parts, **shown_on, **ROOM)
    reveal.click(shown_reveal, [teacher, lang], drawn_parts, **shown_on, **ROOM)
    close.click(closed, [teacher, lang], [teacher, *view], **shown_on, **ROOM)
    timer.tick(polled, [teacher, lang, seen], drawn_parts, show_progress="hidden", **shown_on, **ROOM)
    lang.change(lambda kept, lang_, address_: whole(kept, language(lang_), address_, picked=True),
                [teacher, lang, address], view,
                js="(kept, lang, address) => [kept, lang, location.href]", show_progress="hidden", **shown_on, **ROOM)
