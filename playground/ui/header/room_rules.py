"""The class room's rules: rooms, students, rounds and votes, with no web stack and no model.

A teacher opens a room and gets its short code (for students) and a secret key (kept by the
teacher's browser). Students join with the code and get a student token of their own. Each round
asks "what comes next?" after a prompt: the model's probabilities over its vocabulary are fixed
when the round starts (see room_rounds), every student holds one vote per round (a new guess
replaces the old one until the reveal), and the reveal scores the class against the model.

The class as a model: a class of N students who answered, n(t) of them guessing token t, gives

    p_class(t) = (n(t) + 1/V) / (N + 1)          V: the model's vocabulary size

as if one more student had guessed uniformly at random, so a next token nobody chose costs a
finite (large) surprise. The class's log-loss on a round is -ln p_class(answer), the model's
-ln p_model(answer), in nats. A match's score is the mean of each over the rounds revealed.

Everything lives in one process, bounded: MAX_ROOMS rooms, MAX_STUDENTS students a room,
MAX_ROUNDS rounds a room, MAX_CHANGES guesses a student a round; a room idle for IDLE_SECONDS
expires. Every refusal is a RoomRefused whose `key` names the message (playground/ui/text).
"""
from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Sequence

MAX_ROOMS = 40                # rooms open at once in the process
MAX_STUDENTS = 150            # students in one room
MAX_ROUNDS = 30               # rounds in one room
MAX_CHANGES = 20              # guesses one student may send in one round (the last one counts)
MAX_GUESS_CHARS = 32          # a guess as typed
MAX_NICKNAME_CHARS = 20
IDLE_SECONDS = 3 * 3600       # a room nobody used for 3 hours expires
ENDED_KEPT = 500              # closed or expired codes remembered, so an old link says what happened
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read off a projector
CODE_LENGTH = 5
TOP_SHOWN = 8                 # tokens on the board: the class's and the model's most likely, at most this many


class RoomRefused(ValueError):
    """An action the room does not allow: `key` names the message, `fields` fill it in."""

    def __init__(self, key: str, **fields):
        self.key, self.fields = key, fields
        super().__init__(f"{key} {fields}" if fields else key)


@dataclass(frozen=True)
class RoundSpec:
    """What a round asks, fixed when it starts: the model and the prompt, the model's vocabulary
    (token texts, by id), its probability of each as the next token, the true next token (an id),
    and its attention at that step: per layer, the weight (mean over heads) the next-token position
    gives each prompt token ([L][T], rows sum to 1)."""

    model: str
    prompt_tokens: tuple[str, ...]
    vocabulary: tuple[str, ...]          # [V]
    probabilities: tuple[float, ...]     # [V], sums to 1
    answer: int
    attention: tuple[tuple[float, ...], ...] = ()     # [L, T]
    picker: tuple[str, ...] = ()         # the tokens a phone offers to pick from
    poll: bool = False                   # a lesson's question: `model` names it, the vocabulary is its letters,
                                         # and there are no probabilities ((): no model answers)

    index: dict[str, int] = field(default=None, compare=False, repr=False)   # token text -> its first id

    def __post_init__(self):
        if self.index is None:
            object.__setattr__(self, "index", vocabulary_index(self.vocabulary))

    @cached_property
    def model_top(self) -> tuple[int, ...]:
        """The TOP_SHOWN most likely next tokens' ids, most likely first (sorted once per round)."""
        return tuple(sorted(range(len(self.probabilities)), key=lambda i: -self.probabilities[i])[:TOP_SHOWN])

    def token_id(self, guess: str) -> int | None:
        """The vocabulary id a typed guess names: the token as written, else with a leading space (a word
        of a BPE model), else None."""
        for form in (guess, " " + guess, guess.strip(), " " + guess.strip()):
            if form in self.index:
                return self.index[form]
        return None


def vocabulary_index(vocabulary: Sequence[str]) -> dict[str, int]:
    """token text -> its first id (build it once per model and pass it to every RoundSpec of that model)."""
    index: dict[str, int] = {}
    for i, token in enumerate(vocabulary):
        index.setdefault(token, i)
    return index


@dataclass(frozen=True)
class Reveal:
    """A round scored: the answer's share of the class and the model's probability of it, both log-losses
    (nats), and whether the class's and the model's most likely token was the answer."""

    answer: str
    class_share: float
    class_probability: float
    model_probability: float | None       # None: a poll, which no model answers
    class_loss: float
    model_loss: float | None
    class_right: bool
    model_right: bool | None
    answered: int


def class_probability(counts: Counter, answered: int, token: int, vocabulary_size: int) -> float:
    """p_class(token) = (n(token) + 1/V) / (N + 1): the class as a model (see the module's docstring)."""
    return (counts.get(token, 0) + 1 / vocabulary_size) / (answered + 1)


def score_round(spec: RoundSpec, votes: Sequence[int]) -> Reveal:
    """The round scored for the class whose votes (token ids, one a student) are `votes`."""
    counts = Counter(votes)
    answered = len(votes)
    v = len(spec.vocabulary)
    p_class = class_probability(counts, answered, spec.answer, v)
    top_class = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0] if counts else None
    share = counts.get(spec.answer, 0) / answered if answered else 0.0
    if not spec.probabilities:
        return Reveal(spec.vocabulary[spec.answer], share, p_class, None, -math.log(p_class), None,
                      top_class == spec.answer, None, answered)
    p_model = spec.probabilities[spec.answer]
    return Reveal(answer=spec.vocabulary[spec.answer], class_share=share, class_probability=p_class,
                  model_probability=p_model, class_loss=-math.log(p_class),
                  model_loss=-math.log(p_model) if p_model > 0 else math.inf, class_right=top_class == spec.answer,
                  model_right=spec.model_top[0] == spec.answer, answered=answered)


@dataclass
class Round:
    spec: RoundSpec
    votes: dict[str, int] = field(default_factory=dict)          # student token -> token id
    changes: Counter = field(default_factory=Counter)            # student token -> guesses sent
    reveal: Reveal | None = None

    def histogram(self, limit: int = TOP_SHOWN) -> list[tuple[str, float, float, int]]:
        """The board's rows: (token, class share, model probability, votes) for the class's most chosen
        tokens and the model's most likely ones, at most `limit`, the class's first."""
        counts = Counter(self.votes.values())
        answered = len(self.votes)
        if self.spec.poll:                  # every choice of the question, none from a model
            return [(token, counts.get(t, 0) / answered if answered else 0.0, 0.0, counts.get(t, 0))
                    for t, token in enumerate(self.spec.vocabulary)]
        probabilities = self.spec.probabilities
        model_top = self.spec.model_top[:limit]
        class_top = [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
        half = max(limit // 2, limit - len(model_top))
        chosen = list(dict.fromkeys([*class_top[:half], *model_top]))[:limit]
        return [(self.spec.vocabulary[t], counts.get(t, 0) / answered if answered else 0.0, probabilities[t],
                 counts.get(t, 0)) for t in chosen]


@dataclass
class Student:
    nickname: str
    record: list[tuple[int, str, bool]] = field(default_factory=list)   # (round number, guess, right)


@dataclass
class Room:
    code: str
    key: str
    lang: str
    nicknames: bool
    opened: float
    touched: float
    students: dict[str, Student] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    version: int = 0                      # grows with every change the board or a student would see
    extras: dict = field(default_factory=dict)    # what the page keeps with the room (models handed over)

    @property
    def current(self) -> "Round | None":
        return self.rounds[-1] if self.rounds else None

    def match(self) -> dict:
        """The match so far (the model's rounds, not the polls): rounds revealed, mean log-loss of the class and
        the model, how often each one's most likely token was right, and the round (1-based) that surprised the
        class most."""
        numbers = [k + 1 for k, r in enumerate(self.rounds) if r.reveal is not None and not r.spec.poll]
        done = [self.rounds[k - 1].reveal for k in numbers]
        if not done:
            return {"rounds": 0}
        worst = max(range(len(done)), key=lambda k: done[k].class_loss)
        return {"rounds": len(done), "class_loss": sum(r.class_loss for r in done) / len(done),
                "model_loss": sum(r.model_loss for r in done) / len(done),
                "class_right": sum(r.class_right for r in done), "model_right": sum(r.model_right for r in done),
                "surprise_round": numbers[worst], "surprise": done[worst]}


def clean_nickname(value) -> str:
    """A nickname as plain text: control characters dropped, spaces collapsed, cut to MAX_NICKNAME_CHARS
    (escaping is the page's, where it shows it)."""
    if not isinstance(value, str):
        return ""
    kept = "".join(ch for ch in value if ch.isprintable())
    return " ".join(kept.split())[:MAX_NICKNAME_CHARS]


def clean_code(value) -> str:
    """A room code as typed: upper case, spaces and dashes dropped."""
    return "".join(ch for ch in str(value or "").upper() if ch.isalnum())[:CODE_LENGTH + 4]


class RoomStore:
    """The process's rooms, by code. `clock` (seconds) is time.monotonic unless a test gives its own."""

    def __init__(self, max_rooms: int = MAX_ROOMS, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.max_rooms, self.idle_seconds, self.clock = max_rooms, idle_seconds, clock
        self._rooms: dict[str, Room] = {}
        self._ended: OrderedDict[str, str] = OrderedDict()      # code -> "closed" | "expired"
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._rooms)

    # ----------------------------------------------------------------------------- the teacher's

    def open(self, lang: str, nicknames: bool = False) -> Room:
        """A new room (its code and key are new); RoomRefused("room_full_rooms") beyond max_rooms."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            if len(self._rooms) >= self.max_rooms:
                raise RoomRefused("room_full_rooms", limit=self.max_rooms)
            code = self._new_code()
            room = Room(code, secrets.token_urlsafe(18), lang, bool(nicknames), now, now)
            self._rooms[code] = room
            return room

    def teacher(self, code, key) -> Room:
        """The room whose key is `key`; RoomRefused("room_not_teacher") for any other key."""
        room = self.room(code)
        if not isinstance(key, str) or not hmac.compare_digest(key.encode(), room.key.encode()):
            raise RoomRefused("room_not_teacher")
        return room

    def start_round(self, code, key, spec: RoundSpec) -> Round:
        with self._lock:
            room = self.teacher(code, key)
            if len(room.rounds) >= MAX_ROUNDS:
                raise RoomRefused("room_full_rounds", limit=MAX_ROUNDS)
            current = room.current
            if current is not None and current.reveal is None:
                raise RoomRefused("room_round_open")
            round_ = Round(spec)
            room.rounds.append(round_)
            self._changed(room)
            return round_

    def reveal(self, code, key) -> Reveal:
        """Close the open round and score it: from now on its votes do not change."""
        with self._lock:
            room = self.teacher(code, key)
            round_ = room.current
            if round_ is None or round_.reveal is not None:
                raise RoomRefused("room_no_open_round")
            round_.reveal = score_round(round_.spec, list(round_.votes.values()))
            number = len(room.rounds)
            for token, student in room.students.items():
                if token in round_.votes:
                    guess = round_.votes[token]
                    student.record.append((number, round_.spec.vocabulary[guess], guess == round_.spec.answer))
            self._changed(room)
            return round_.reveal

    def close(self, code, key) -> None:
        """Close the room: its students are told, its code refuses from now on."""
        with self._lock:
            room = self.teacher(code, key)
            del self._rooms[room.code]
            self._end(room.code, "closed")

    # ----------------------------------------------------------------------------- the students'

    def join(self, code, nickname="", student: str | None = None) -> tuple[Room, str]:
        """Join `code` as a new student (or again as `student`, a token this room gave before): the room
        and the student's token. The nickname is kept only where the room allows nicknames."""
        with self._lock:
            room = self.room(code)
            if isinstance(student, str) and student in room.students:
                return room, student
            if len(room.students) >= MAX_STUDENTS:
                raise RoomRefused("room_full_students", limit=MAX_STUDENTS)
            token = secrets.token_urlsafe(12)
            room.students[token] = Student(clean_nickname(nickname) if room.nicknames else "")
            self._changed(room)
            return room, token

    def guess(self, code, student, guess) -> int:
        """The student's vote in the open round (replacing any earlier one): the token id it names."""
        if not isinstance(guess, str) or not guess or len(guess) > MAX_GUESS_CHARS:
            raise RoomRefused("room_bad_guess", limit=MAX_GUESS_CHARS)
        with self._lock:
            room = self.room(code)
            if not isinstance(student, str) or student not in room.students:
                raise RoomRefused("room_not_student")
            round_ = room.current
            if round_ is None or round_.reveal is not None:
                raise RoomRefused("room_no_open_round")
            token_id = round_.spec.token_id(guess)
            if token_id is None:
                raise RoomRefused("room_not_in_vocabulary", guess=guess)
            if round_.changes[student] >= MAX_CHANGES:
                raise RoomRefused("room_too_many_changes", limit=MAX_CHANGES)
            round_.changes[student] += 1
            if round_.votes.get(student) != token_id:
                round_.votes[student] = token_id
                self._changed(room)
            return token_id

    # ----------------------------------------------------------------------------- shared

    def room(self, code) -> Room:
        """The open room `code` (touched: it stays open); RoomRefused saying it is closed, expired or unknown."""
        code = clean_code(code)
        with self._lock:
            now = self.clock()
            self._expire(now)
            room = self._rooms.get(code)
            if room is None:
                ended = self._ended.get(code)
                raise RoomRefused(f"room_{ended}" if ended else "room_unknown", code=code)
            room.touched = now
            return room

    def peek(self, code) -> Room | None:
        """The open room `code` without touching it (a poll does not keep a room alive), None if none."""
        with self._lock:
            self._expire(self.clock())
            return self._rooms.get(clean_code(code))

    def _changed(self, room: Room) -> None:
        room.version += 1
        room.touched = self.clock()

    def _expire(self, now: float) -> None:
        for code in [c for c, r in self._rooms.items() if now - r.touched > self.idle_seconds]:
            del self._rooms[code]
            self._end(code, "expired")

    def _end(self, code: str, how: str) -> None:
        self._ended[code] = how
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self._rooms and code not in self._ended:
                return code
