"""The class room's rules without a server: keys, one vote a student a round, bounds, expiry, and the
class's distribution and log-loss on a hand-computed case."""
import math

import pytest

from playground.ui.header import room_rules
from playground.ui.header.room_rules import RoomRefused, RoomStore, RoundSpec, clean_nickname, score_round

# V = 4; the model gives b a quarter; the true next token is b.
SPEC = RoundSpec(model="toy", prompt_tokens=("x",), vocabulary=("a", "b", "c", "d"),
                 probabilities=(0.5, 0.25, 0.125, 0.125), answer=1)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def refused(key):
    return pytest.raises(RoomRefused, match=f"^{key}")


def test_class_distribution_and_log_loss_hand_computed():
    # 3 answered: a, a, b. p_class(b) = (1 + 1/4) / (3 + 1) = 0.3125; -ln 0.3125 = 1.16315...
    reveal = score_round(SPEC, [0, 0, 1])
    assert reveal.answered == 3
    assert reveal.class_share == pytest.approx(1 / 3)
    assert reveal.class_probability == pytest.approx(0.3125)
    assert reveal.class_loss == pytest.approx(1.1631508098, abs=1e-9)
    assert reveal.model_probability == 0.25
    assert reveal.model_loss == pytest.approx(math.log(4))
    assert not reveal.class_right and not reveal.model_right          # both put "a" first
    # nobody chose the answer: a finite surprise, (0 + 1/4) / 4 = 1/16
    assert score_round(SPEC, [0, 2]).class_loss == pytest.approx(math.log(12))
    # nobody answered: the class is uniform, ln V
    assert score_round(SPEC, []).class_loss == pytest.approx(math.log(4))


def test_match_keeps_the_running_score_and_the_most_surprising_round():
    rooms = RoomStore()
    room = rooms.open("en")
    _, ann = rooms.join(room.code)
    for guess in ("b", "d"):                       # round 1 right, round 2 wrong (the surprising one)
        rooms.start_round(room.code, room.key, SPEC)
        rooms.guess(room.code, ann, guess)
        rooms.reveal(room.code, room.key)
    match = room.match()
    right, wrong = -math.log((1 + 0.25) / 2), -math.log(0.25 / 2)
    assert match["rounds"] == 2 and match["class_right"] == 1 and match["model_right"] == 0
    assert match["class_loss"] == pytest.approx((right + wrong) / 2)
    assert match["surprise_round"] == 2
    assert room.students[ann].record == [(1, "b", True), (2, "d", False)]


def test_only_the_key_controls_the_room():
    rooms = RoomStore()
    room = rooms.open("en")
    _, student = rooms.join(room.code)
    for key in (student, "", None, room.key[:-1] + "x", room.code):
        with refused("room_not_teacher"):
            rooms.start_round(room.code, key, SPEC)
        with refused("room_not_teacher"):
            rooms.close(room.code, key)
    rooms.start_round(room.code, room.key, SPEC)
    with refused("room_not_teacher"):
        rooms.reveal(room.code, student)


def test_one_vote_a_student_a_round_and_a_flood_counts_once():
    rooms = RoomStore()
    room = rooms.open("en")
    _, ann = rooms.join(room.code)
    _, bob = rooms.join(room.code)
    rooms.start_round(room.code, room.key, SPEC)
    rooms.guess(room.code, ann, "a")
    rooms.guess(room.code, ann, "b")               # changed: the last one counts
    for _ in range(room_rules.MAX_CHANGES):          # a flood from one browser
        rooms.guess(room.code, bob, "c")
    with refused("room_too_many_changes"):
        rooms.guess(room.code, bob, "a")
    assert room.current.votes == {ann: 1, bob: 2}
    rows = {token: votes for token, _, _, votes in room.current.histogram()}
    assert rows["b"] == 1 and rows["c"] == 1 and rows["a"] == 0
    rooms.reveal(room.code, room.key)
    with refused("room_no_open_round"):            # no change after the reveal
        rooms.guess(room.code, ann, "c")
    with refused("room_not_student"):
        rooms.guess(room.code, "made-up", "a")


def test_joining_again_from_the_same_browser_is_the_same_student():
    rooms = RoomStore()
    room = rooms.open("en")
    _, ann = rooms.join(room.code)
    assert rooms.join(room.code, student=ann)[1] == ann
    assert len(room.students) == 1


def test_bounds(monkeypatch):
    monkeypatch.setattr(room_rules, "MAX_STUDENTS", 2)
    monkeypatch.setattr(room_rules, "MAX_ROUNDS", 2)
    rooms = RoomStore(max_rooms=1)
    room = rooms.open("en")
    with refused("room_full_rooms"):
        rooms.open("en")
    rooms.join(room.code)
    rooms.join(room.code)
    with refused("room_full_students"):
        rooms.join(room.code)
    rooms.start_round(room.code, room.key, SPEC)
    with refused("room_round_open"):
        rooms.start_round(room.code, room.key, SPEC)
    rooms.reveal(room.code, room.key)
    rooms.start_round(room.code, room.key, SPEC)
    rooms.reveal(room.code, room.key)
    with refused("room_full_rounds"):
        rooms.start_round(room.code, room.key, SPEC)
    student = next(iter(room.students))
    with refused("room_bad_guess"):
        rooms.guess(room.code, student, "x" * (room_rules.MAX_GUESS_CHARS + 1))


def test_a_closed_or_expired_room_says_so():
    clock = Clock()
    rooms = RoomStore(idle_seconds=60, clock=clock)
    closed, idle, used = rooms.open("en"), rooms.open("en"), rooms.open("en")
    rooms.close(closed.code, closed.key)
    with refused("room_closed"):
        rooms.join(closed.code)
    clock.now += 40
    rooms.join(used.code)                          # a student's action keeps the room open
    clock.now += 40
    assert rooms.peek(idle.code) is None
    with refused("room_expired"):
        rooms.join(idle.code)
    with refused("room_expired"):
        rooms.teacher(idle.code, idle.key)
    rooms.join(used.code)
    with refused("room_unknown"):
        rooms.join("ZZZZZ")


def test_nicknames_are_plain_short_and_kept_only_where_allowed():
    assert clean_nickname("  Ann\u0000\n  Lee ") == "Ann Lee"
    assert len(clean_nickname("x" * 100)) == room_rules.MAX_NICKNAME_CHARS
    rooms = RoomStore()
    quiet, named = rooms.open("en"), rooms.open("en", nicknames=True)
    _, a = rooms.join(quiet.code, "Ann")
    _, b = rooms.join(named.code, "Bob")
    assert quiet.students[a].nickname == "" and named.students[b].nickname == "Bob"


def test_a_typed_word_finds_its_bpe_token():
    spec = RoundSpec("bpe", ("x",), ("a", " the", "the"), (0.2, 0.5, 0.3), 1)
    assert spec.token_id("the") == 2 and spec.token_id(" the") == 1
    spec = RoundSpec("bpe", ("x",), ("a", " cat"), (0.5, 0.5), 1)
    assert spec.token_id("cat") == 1 and spec.token_id("dog") is None


def test_a_link_naming_a_room_is_not_an_unknown_parameter():
    from playground.ui.page.links import parse_link
    page = parse_link("?room=ABCDE&lang=en", ("lessons",), {}, registry=None)
    assert page.ignored == [] and page.lang == "en"
