"""The class room's actions, as the API names them and the room's pages call them.

Every action takes the language its messages are in and returns plain values (JSON for
gradio_client); a refusal is a gr.Error in that language. The teacher's actions take the room's
key; a student's take the student's token, which only that student's browser holds.

    room_open(lang, nicknames)                  -> {"code", "key"}
    room_join(code, nickname, student, lang)    -> {"code", "student", "nickname"}
    room_guess(code, student, guess, lang)      -> {"guess", "round"}
    room_student(code, student, lang)           -> {"round", "prompt", "guess", "revealed", "answer", "record"}
    room_round(code, key, model, passage, lang) -> {"round", "model", "prompt"}
    room_poll(code, key, poll, lang)            -> {"round", "poll", "choices"}: a lesson's question as a round
    room_reveal(code, key, lang)                -> the round scored (shares, probabilities, log-losses)
    room_board(code, key, lang)                 -> {"round", "students", "answered", "histogram", "reveal", "match"}
    room_close(code, key, lang)                 -> what the room's students are told
"""
from __future__ import annotations

import contextlib
import dataclasses
import random
import threading
import time
from collections import OrderedDict

from playground.data import CorpusUnavailable
from playground.zoo import ModelEntry, ModelRegistry

from ..inputs.validation import fail
from ..text.i18n import LANGUAGES, normalise_language, text
from ..views.probes import corpus_of, held_out
from .room_polls import poll_spec
from .room_rounds import playable, round_spec
from .room_rules import Room, RoomRefused, RoomStore

PASSAGE_CHARS = 120           # a passage drawn from held-out text: about this long, ending at a word's end
HANDOFF_SECONDS = 600         # a session's models handed to a new board are kept this long, unclaimed
MAX_HANDOFFS = 64
DEFAULT_MODELS = {"en": ("shakespeare-char", "shakespeare-bpe"), "zh-CN": ("tang-poems-char", "shakespeare-char")}


def language(lang) -> str:
    return lang if lang in LANGUAGES else normalise_language(lang if isinstance(lang, str) else None)


@contextlib.contextmanager
def refusals(lang: str):
    """A RoomRefused (or a round's ValueError naming a room message) as a gr.Error in `lang`."""
    try:
        yield
    except RoomRefused as error:
        raise fail(lang, error.key, **error.fields) from None
    except ValueError as error:
        key = str(error)
        if key.startswith("room_"):
            raise fail(lang, key) from None
        raise


class Handoffs:
    """Models a teacher's session hands to the board it opens (their own, GPT-2 from the Hub), by a
    one-time token; unclaimed ones are dropped after HANDOFF_SECONDS."""

    def __init__(self):
        self._kept: OrderedDict[str, tuple[float, dict[str, ModelEntry]]] = OrderedDict()
        self._lock = threading.Lock()

    def give(self, token: str, models: dict[str, ModelEntry]) -> None:
        with self._lock:
            self._drop_old()
            self._kept[token] = (time.monotonic(), models)
            while len(self._kept) > MAX_HANDOFFS:
                self._kept.popitem(last=False)

    def take(self, token) -> dict[str, ModelEntry]:
        with self._lock:
            self._drop_old()
            found = self._kept.pop(token, None) if isinstance(token, str) else None
            return found[1] if found else {}

    def _drop_old(self) -> None:
        now = time.monotonic()
        for token in [t for t, (when, _) in self._kept.items() if now - when > HANDOFF_SECONDS]:
            del self._kept[token]


class RoomActions:
    """The actions over one process's rooms and the shared models."""

    def __init__(self, registry: ModelRegistry, rooms: RoomStore | None = None):
        self.registry = registry
        self.rooms = rooms if rooms is not None else RoomStore()
        self.handoffs = Handoffs()

    # ------------------------------------------------------------------------------ models

    def model_names(self, room: Room) -> list[str]:
        """The models a round in `room` can ask: the shipped decoder-only ones, then those handed over."""
        shipped = [e.name for e in self.registry.entries() if e.source == "pretrained" and playable(e)]
        return shipped + [n for n in room.extras.get("models", {}) if n not in shipped]

    def default_model(self, room: Room, lang: str) -> str | None:
        """The model a board starts on: the language's character model when shipped (a passage can be drawn
        from text it never trained on), else the first one a round can ask."""
        names = self.model_names(room)
        for preferred in DEFAULT_MODELS.get(language(lang), ()):
            if preferred in names:
                return preferred
        return names[0] if names else None

    def model(self, room: Room, name, lang: str) -> ModelEntry:
        entry = room.extras.get("models", {}).get(name) or self.registry.get(name) if isinstance(name, str) else None
        if entry is None or name not in self.model_names(room):
            raise fail(lang, "room_unknown_model", model=str(name)[:40], choices=", ".join(self.model_names(room)))
        return entry

    def claim(self, room: Room, token) -> None:
        """The models handed over under `token`, kept with `room`."""
        models = {n: e for n, e in self.handoffs.take(token).items() if playable(e)}
        if models:
            room.extras.setdefault("models", {}).update(models)

    # ------------------------------------------------------------------------------ the teacher's

    def open(self, lang, nicknames=False) -> dict:
        lang = language(lang)
        with refusals(lang):
            room = self.rooms.open(lang, bool(nicknames))
        return {"code": room.code, "key": room.key}

    def start_round(self, code, key, model, passage, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            room = self.rooms.teacher(code, key)
            entry = self.model(room, model, lang)
            passage = passage if isinstance(passage, str) and passage.strip() else self.drawn_passage(entry, lang)
            spec = round_spec(entry, passage)
            self.rooms.start_round(code, key, spec)
        return {"round": len(room.rounds), "model": entry.name, "prompt": "".join(spec.prompt_tokens)}

    def start_poll(self, code, key, poll, lang) -> dict:
        """A lesson's question (see room_polls) as the next round."""
        lang = language(lang)
        with refusals(lang):
            spec = poll_spec(poll)
            self.rooms.start_round(code, key, spec)
            room = self.rooms.room(code)
        return {"round": len(room.rounds), "poll": spec.model, "choices": list(spec.vocabulary)}

    def drawn_passage(self, entry: ModelEntry, lang: str) -> str:
        """About PASSAGE_CHARS of text the model never trained on, ending where a word ends."""
        try:
            source = held_out(corpus_of(entry)) if corpus_of(entry) else ""
        except CorpusUnavailable:
            source = ""
        if len(source) < 2 * PASSAGE_CHARS:
            raise fail(lang, "room_type_passage", model=entry.name)
        start = random.randrange(len(source) - 2 * PASSAGE_CHARS)
        passage = source[start:start + PASSAGE_CHARS]
        while passage and not passage[-1].isalnum():
            passage = passage[:-1]
        return passage

    def reveal(self, code, key, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            return dataclasses.asdict(self.rooms.reveal(code, key))

    def board(self, code, key, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            room = self.rooms.teacher(code, key)
            round_ = room.current
            match = room.match()
            if "surprise" in match:
                match["surprise"] = dataclasses.asdict(match["surprise"])
            return {"round": len(room.rounds), "students": len(room.students),
                    "answered": len(round_.votes) if round_ else 0,
                    "histogram": [list(row) for row in round_.histogram()] if round_ else [],
                    "reveal": dataclasses.asdict(round_.reveal) if round_ and round_.reveal else None,
                    "match": match, "version": room.version}

    def close(self, code, key, lang) -> str:
        lang = language(lang)
        with refusals(lang):
            self.rooms.close(code, key)
        return text(lang, "room_closed_by_you")

    # ------------------------------------------------------------------------------ the students'

    def join(self, code, nickname, student, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            room, token = self.rooms.join(code, nickname, student)
        return {"code": room.code, "student": token, "nickname": room.students[token].nickname}

    def guess(self, code, student, guess, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            token_id = self.rooms.guess(code, student, guess)
            room = self.rooms.room(code)
        return {"guess": room.current.spec.vocabulary[token_id], "round": len(room.rounds)}

    def student(self, code, student, lang) -> dict:
        lang = language(lang)
        with refusals(lang):
            room = self.rooms.room(code)
            if not isinstance(student, str) or student not in room.students:
                raise RoomRefused("room_not_student")
        round_ = room.current
        me = room.students[student]
        vote = round_.votes.get(student) if round_ else None
        return {"round": len(room.rounds), "prompt": "".join(round_.spec.prompt_tokens) if round_ else "",
                "guess": round_.spec.vocabulary[vote] if vote is not None else None,
                "revealed": bool(round_ and round_.reveal), "answer": round_.reveal.answer if round_ and round_.reveal
                else None, "record": [list(r) for r in me.record], "version": room.version}
