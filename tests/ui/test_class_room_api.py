"""The class room through its API (gradio_client, as a teacher's and students' browsers call it): the
teacher's key, one vote a student a round, an expired room, escaping, and the class's distribution and
log-loss on a hand-computed round of the tiny test model."""
import dataclasses
import math

import pytest
from gradio_client import Client

from playground.ui.header import room_rules
from playground.ui.header.room_rounds import round_spec


PASSAGE = "abcab"            # tiny-gpt reads "abca"; the true next token is "b"


@pytest.fixture(scope="module")
def demo(served):
    """The served app: its rooms are those the clients' calls open."""
    return served.app


@pytest.fixture(scope="module")
def url(served):
    return served.url


@pytest.fixture(scope="module")
def client(url):
    return Client(url, verbose=False)


def refused(client, api, *args):
    """The message of the refusal an API call gets."""
    with pytest.raises(Exception) as caught:
        client.predict(*args, api_name=f"/{api}")
    return str(caught.value)


def opened(client, nicknames=False, lang="en"):
    room = client.predict(lang, nicknames, api_name="/room_open")
    return room["code"], room["key"]


def joined(client, code, nickname="", lang="en"):
    return client.predict(code, nickname, "", lang, api_name="/room_join")["student"]


def test_a_round_scored_as_computed_by_hand(client, registry):
    code, key = opened(client)
    ann, bob, cy = (joined(client, code) for _ in range(3))
    started = client.predict(code, key, "tiny-gpt", PASSAGE, "en", api_name="/room_round")
    assert started["prompt"] == "abca" and started["round"] == 1
    for student, guess in ((ann, "a"), (bob, "a"), (cy, "b")):
        assert client.predict(code, student, guess, "en", api_name="/room_guess")["guess"] == guess
    board = client.predict(code, key, "en", api_name="/room_board")
    assert board["students"] == 3 and board["answered"] == 3
    rows = {token: (share, votes) for token, share, _, votes in board["histogram"]}
    assert rows["a"] == (pytest.approx(2 / 3), 2) and rows["b"] == (pytest.approx(1 / 3), 1)

    reveal = client.predict(code, key, "en", api_name="/room_reveal")
    spec = round_spec(registry.get("tiny-gpt"), PASSAGE)
    v = len(spec.vocabulary)
    p_class = (1 + 1 / v) / (3 + 1)                          # n(b) = 1 of N = 3, smoothed by one random guess
    assert reveal["answer"] == "b" and reveal["answered"] == 3
    assert reveal["class_share"] == pytest.approx(1 / 3)
    assert reveal["class_probability"] == pytest.approx(p_class)
    assert reveal["class_loss"] == pytest.approx(-math.log(p_class))
    assert reveal["model_probability"] == pytest.approx(spec.probabilities[spec.answer], rel=1e-4)
    assert reveal["model_loss"] == pytest.approx(-math.log(spec.probabilities[spec.answer]), rel=1e-4)
    assert client.predict(code, cy, "en", api_name="/room_student")["record"] == [[1, "b", True]]
    assert client.predict(code, ann, "en", api_name="/room_student")["record"] == [[1, "a", False]]
    match = client.predict(code, key, "en", api_name="/room_board")["match"]
    assert match["rounds"] == 1 and match["surprise_round"] == 1


def test_students_cannot_act_with_anything_but_the_key(client):
    code, key = opened(client)
    student = joined(client, code)
    for api, args in (("room_round", (code, student, "tiny-gpt", PASSAGE, "en")),
                      ("room_reveal", (code, student, "en")),
                      ("room_board", (code, student, "en")), ("room_close", (code, student, "en")),
                      ("room_close", (code, "", "en")), ("room_board", (code, code, "en"))):
        assert "Only the teacher who opened this room" in refused(client, api, *args)
    assert student not in key and "key" not in client.predict(code, student, "en", api_name="/room_student")
    assert key not in str(client.predict(code, "", "", "en", api_name="/room_join"))
    client.predict(code, key, "en", api_name="/room_close")
    assert "was closed by the teacher" in refused(client, "room_join", code, "", "", "en")
    assert "已被老师关闭" in refused(client, "room_guess", code, student, "a", "zh-CN")


def test_one_vote_a_student_a_round(client):
    code, key = opened(client)
    student = joined(client, code)
    client.predict(code, key, "tiny-gpt", PASSAGE, "en", api_name="/room_round")
    for guess in ("a", "c", "c", "b"):
        client.predict(code, student, guess, "en", api_name="/room_guess")
    board = client.predict(code, key, "en", api_name="/room_board")
    assert board["answered"] == 1
    assert {token: votes for token, _, _, votes in board["histogram"] if votes} == {"b": 1}
    for _ in range(room_rules.MAX_CHANGES - 4):
        client.predict(code, student, "a", "en", api_name="/room_guess")
    assert "your last guess counts" in refused(client, "room_guess", code, student, "c", "en")
    assert client.predict(code, key, "en", api_name="/room_board")["answered"] == 1
    # the same browser joining again is the same student
    assert client.predict(code, "", student, "en", api_name="/room_join")["student"] == student
    assert client.predict(code, key, "en", api_name="/room_board")["students"] == 1


def test_an_expired_room_refuses(client, demo):
    code, key = opened(client)
    student = joined(client, code)
    real = demo.rooms.clock
    start = real()
    demo.rooms.clock = lambda: start + room_rules.IDLE_SECONDS + 1
    try:
        for api, args in (("room_join", (code, "", "", "en")), ("room_guess", (code, student, "a", "en")),
                          ("room_board", (code, key, "en")), ("room_round", (code, key, "tiny-gpt", PASSAGE, "en"))):
            assert "expired: nobody used it for 3 hours" in refused(client, api, *args)
    finally:
        demo.rooms.clock = real
    assert "There is no room QQQQQ" in refused(client, "room_join", "QQQQQ", "", "", "en")


def test_text_from_students_is_escaped(client, demo):
    code, key = opened(client, nicknames=True)
    hostile = "<img src=x onerror=alert(1)>"
    student = client.predict(code, hostile, "", "en", api_name="/room_join")["student"]
    client.predict(code, key, "tiny-gpt", PASSAGE, "en", api_name="/room_round")
    message = refused(client, "room_guess", code, student, "<b>x</b>", "en")
    assert "not a token of this model" in message and "<b>" not in message
    from playground.ui.header.room_board import board
    status = board(demo.rooms.peek(code), "en").status
    assert "Joined:" in status and "<img" not in status and "img src=x" in status.replace("&lt;", "<").replace(
        "\\", "")
    assert len(demo.rooms.peek(code).students[student].nickname) <= room_rules.MAX_NICKNAME_CHARS


def test_a_round_refuses_what_it_cannot_ask(client):
    code, key = opened(client)
    assert "There is no model 'copy' here" in refused(client, "room_round", code, key, "copy", PASSAGE, "en")
    assert "at least two tokens" in refused(client, "room_round", code, key, "tiny-gpt", "a", "en")
    assert "no held-out text" in refused(client, "room_round", code, key, "tiny-gpt", "", "en")
    assert "No round is open" in refused(client, "room_reveal", code, key, "en")


def test_the_teachers_own_model_is_handed_to_the_board_once(registry):
    from playground.ui.header.room_api import RoomActions
    actions = RoomActions(registry)
    own = dataclasses.replace(registry.get("tiny-gpt"), name="my-trained-gpt", source="session")
    bert = dataclasses.replace(registry.get("tiny-bert"), name="my-bert", source="session")
    actions.handoffs.give("token-1", {own.name: own, bert.name: bert})
    first = actions.open("en")
    room = actions.rooms.peek(first["code"])
    actions.claim(room, "token-1")
    assert actions.model_names(room) == ["tiny-gpt", "my-trained-gpt"]        # an encoder-only model cannot play
    started = actions.start_round(first["code"], first["key"], "my-trained-gpt", PASSAGE, "en")
    assert started["model"] == "my-trained-gpt"
    second = actions.open("en")
    other = actions.rooms.peek(second["code"])
    actions.claim(other, "token-1")                                            # a token claims once
    assert actions.model_names(other) == ["tiny-gpt"]


def test_a_lessons_question_as_a_class_poll(client, demo):
    from playground.ui.header.room_board import board
    from playground.ui.header.room_polls import poll_question
    code, key = opened(client)
    ann, bob = joined(client, code), joined(client, code)
    _, question, _ = poll_question("attention:check")
    right = "ABCDEFG"[question.answer]
    wrong = "A" if right != "A" else "B"
    assert client.predict(code, key, "attention:check", "en", api_name="/room_poll")["round"] == 1
    client.predict(code, ann, right, "en", api_name="/room_guess")
    client.predict(code, bob, wrong, "en", api_name="/room_guess")
    assert "not a token" in refused(client, "room_guess", code, bob, "Z", "en")
    rows = client.predict(code, key, "en", api_name="/room_board")["histogram"]
    assert [row[0] for row in rows] == list("ABCDEFG"[:len(question.choices)])     # every choice, none from a model
    shown = board(demo.rooms.peek(code), "zh-CN")
    assert question.prompt.zh.split("$")[0][:10] in shown.status and len(shown.histogram.data) == 1
    reveal = client.predict(code, key, "en", api_name="/room_reveal")
    assert reveal["answer"] == right and reveal["class_share"] == 0.5 and reveal["model_probability"] is None
    assert question.choices[question.answer].feedback.en.split("$")[0][:20] in board(demo.rooms.peek(code), "en").reveal
    assert client.predict(code, key, "en", api_name="/room_board")["match"] == {"rounds": 0}   # polls are not the match
    assert "no such lesson question" in refused(client, "room_poll", code, key, "nothing:check", "en")


def test_the_rooms_pages_and_events_are_their_own(demo):
    """A phone that joins loads the student page's components only; every room event writes only its own
    page's components, and the main page's one room event (Class room) writes one hidden box."""
    config = demo.config
    pages = config["page"]
    by_id = {c["id"]: c for c in config["components"]}
    assert len(pages["room"]["components"]) < 80 and len(pages[""]["components"]) > 300
    room_ids = set(pages["room"]["components"]) | set(pages["room-board"]["components"])
    buttons = 0
    for dependency in config["dependencies"]:
        outputs = set(dependency["outputs"])
        if dependency["id"] in pages["room"]["dependencies"]:
            assert outputs <= set(pages["room"]["components"]), dependency["api_name"]
        elif dependency["id"] in pages["room-board"]["dependencies"]:
            assert outputs <= set(pages["room-board"]["components"]), dependency["api_name"]
        else:
            assert not outputs & room_ids
            if any(by_id[t[0]].get("props", {}).get("elem_id") == "class-room" for t in dependency["targets"]
                   if t[0] in by_id):
                assert [by_id[o]["props"]["elem_id"] for o in outputs] == ["class-room-token"]
                buttons += 1
    assert buttons == 1
