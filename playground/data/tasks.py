"""Synthetic sequence-to-sequence tasks: copy, reverse, sort, date normalisation, addition.

Each task draws (source, target) string pairs from a ``random.Random`` and owns one fixed
character tokenizer shared by source and target (so encoder and decoder can tie embeddings).
Difficulty knobs are given at construction: ``tasks.get("copy", length=10, symbols=10)``.

A typical training set-up::

    task = tasks.get("reverse", length=8)
    val = task.held_out(256, seed=0)                       # its own seed stream, unique sources
    seen = {source for source, _ in val}
    rng = random.Random(0)
    batch = task.sample_batch(64, rng, exclude=seen)       # training never shows a held-out source
"""
from __future__ import annotations

import datetime as dt
import inspect
import random
import string
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Collection

from playground.data.batching import Seq2SeqBatch
from playground.data.char_tokenizer import CharTokenizer
from playground.data.date_formats import ALL_FORMATS, HELD_OUT_FORMATS, MONTHS, TRAIN_FORMATS, WEEKDAYS, DateFormat, iso

SYMBOLS = string.ascii_lowercase
_MAX_REJECTIONS = 10_000

Pair = tuple[str, str]


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


class Task(ABC):
    """A seq2seq task: a sampler of (source, target) pairs plus its tokenizer."""

    name: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, alphabet: str, max_source_len: int, max_target_len: int):
        self.tokenizer = CharTokenizer(alphabet)
        self.max_source_len = max_source_len  # characters = tokens, no special tokens
        self.max_target_len = max_target_len  # without bos / eos

    @property
    @abstractmethod
    def knobs(self) -> dict[str, Any]:
        """The construction arguments; ``tasks.get(task.name, **task.knobs)`` rebuilds the task."""

    @abstractmethod
    def sample(self, rng: random.Random) -> Pair:
        """One (source, target) pair drawn with ``rng``."""

    def check_source(self, source: str) -> None:
        """Raise ValueError, saying what to change, when ``source`` cannot be a source of this task."""
        if not isinstance(source, str):
            raise TypeError(f"source must be a str, got {type(source).__name__}")
        if not source:
            raise ValueError("the source is empty; type a few characters")
        unknown = self.tokenizer.unknown_chars(source)
        if unknown:
            allowed = "".join(self.tokenizer.chars)
            raise ValueError(f"the {self.name} task has no characters {unknown!r}; use only {allowed!r}")
        if len(source) > self.max_source_len:
            raise ValueError(f"the source has {len(source)} characters; the {self.name} task allows at most {self.max_source_len}")

    def sample_pairs(self, n: int, rng: random.Random, exclude: Collection[str] = frozenset()) -> list[Pair]:
        """``n`` pairs whose sources are not in ``exclude`` (e.g. the held-out sources)."""
        _check_int("n", n, 1, 10**7)
        pairs: list[Pair] = []
        rejected_in_a_row = 0
        while len(pairs) < n:
            pair = self.sample(rng)
            if pair[0] in exclude:
                rejected_in_a_row += 1
                if rejected_in_a_row > _MAX_REJECTIONS:
                    raise ValueError(
                        f"almost every {self.name} example is excluded; hold out fewer examples "
                        "or make the task larger (longer sequences, more symbols)"
                    )
                continue
            rejected_in_a_row = 0
            pairs.append(pair)
        return pairs

    def held_out(self, n: int, seed: int = 0) -> list[Pair]:
        """``n`` pairs with distinct sources, drawn from a seed stream no training rng shares."""
        _check_int("n", n, 1, 10**6)
        rng = random.Random(f"held-out/{self.name}/{seed}")
        pairs: dict[str, str] = {}
        pairs_before = 0
        stale = 0
        while len(pairs) < n:
            source, target = self.sample(rng)
            pairs.setdefault(source, target)
            stale = stale + 1 if len(pairs) == pairs_before else 0
            pairs_before = len(pairs)
            if stale > _MAX_REJECTIONS:
                raise ValueError(
                    f"the {self.name} task with {self.knobs} has fewer than {n} distinct sources "
                    f"(found {len(pairs)}); ask for fewer held-out examples or make the task larger"
                )
        return list(pairs.items())

    def encode_pair(self, source: str, target: str) -> tuple[list[int], list[int]]:
        """Token ids of a pair, without special tokens."""
        return self.tokenizer.encode(source), self.tokenizer.encode(target)

    def batch(self, pairs: list[Pair]) -> Seq2SeqBatch:
        """Padded tensors for ``pairs``: src [B, S], tgt_in [B, T], tgt_out [B, T]."""
        return Seq2SeqBatch.from_ids([self.encode_pair(s, t) for s, t in pairs])

    def sample_batch(self, batch_size: int, rng: random.Random, exclude: Collection[str] = frozenset()) -> Seq2SeqBatch:
        """A fresh random batch of ``batch_size`` pairs whose sources are not in ``exclude``."""
        return self.batch(self.sample_pairs(batch_size, rng, exclude))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.knobs.items())
        return f"tasks.get({self.name!r}, {args})"


class _SymbolSequenceTask(Task):
    """Source: a random string of ``min_length..length`` letters from the first ``symbols``."""

    def __init__(self, length: int = 10, symbols: int = 10, min_length: int | None = None):
        self.length = _check_int("length", length, 1, 256)
        self.symbols = _check_int("symbols", symbols, 2, len(SYMBOLS))
        self.min_length = _check_int("min_length", length if min_length is None else min_length, 1, length)
        super().__init__(SYMBOLS[:symbols], max_source_len=length, max_target_len=length)

    @property
    def knobs(self) -> dict[str, Any]:
        return {"length": self.length, "symbols": self.symbols, "min_length": self.min_length}

    @staticmethod
    @abstractmethod
    def transform(source: str) -> str:
        """The correct target for ``source``."""

    def sample(self, rng: random.Random) -> Pair:
        n = rng.randint(self.min_length, self.length)
        source = "".join(rng.choice(self.tokenizer.chars) for _ in range(n))
        return source, self.transform(source)


class CopyTask(_SymbolSequenceTask):
    name = "copy"
    description = "Write the source again: abc -> abc."

    @staticmethod
    def transform(source: str) -> str:
        return source


class ReverseTask(_SymbolSequenceTask):
    name = "reverse"
    description = "Write the source backwards: abc -> cba."

    @staticmethod
    def transform(source: str) -> str:
        return source[::-1]


class SortTask(_SymbolSequenceTask):
    name = "sort"
    description = "Sort the letters alphabetically: cab -> abc."

    @staticmethod
    def transform(source: str) -> str:
        return "".join(sorted(source))


class AdditionTask(Task):
    name = "addition"
    description = "Add two whole numbers: 38+405 -> 443."

    def __init__(self, digits: int = 3, min_digits: int = 1):
        self.digits = _check_int("digits", digits, 1, 18)
        self.min_digits = _check_int("min_digits", min_digits, 1, digits)
        super().__init__("0123456789+", max_source_len=2 * digits + 1, max_target_len=digits + 1)

    @property
    def knobs(self) -> dict[str, Any]:
        return {"digits": self.digits, "min_digits": self.min_digits}

    def _number(self, rng: random.Random) -> int:
        n = rng.randint(self.min_digits, self.digits)
        return rng.randint(0 if n == 1 else 10 ** (n - 1), 10**n - 1)

    def sample(self, rng: random.Random) -> Pair:
        a, b = self._number(rng), self._number(rng)
        return f"{a}+{b}", str(a + b)


def _date_alphabet() -> str:
    words = "".join(MONTHS) + "".join(WEEKDAYS) + "stndrdth" + "the of"
    return "".join(sorted(set(string.digits + words + words.upper() + words.lower() + " ,./-")))


class DatesTask(Task):
    """Human-written dates to ISO yyyy-mm-dd; some formats are kept out of training."""

    name = "dates"
    description = "Normalise a date: 21 Nov 2026 -> 2026-11-21."

    def __init__(self, min_year: int = 1950, max_year: int = 2050, held_out_formats: bool = False):
        self.min_year = _check_int("min_year", min_year, 1000, 9999)
        self.max_year = _check_int("max_year", max_year, min_year, 9999)
        if not isinstance(held_out_formats, bool):
            raise TypeError(f"held_out_formats must be True or False, got {held_out_formats!r}")
        self.held_out_formats = held_out_formats
        self._format_names = tuple(self.formats)       # names, not functions: the task pickles
        # Every 4-digit year writes with the same width, so one leap year covers every length.
        leap_year = [dt.date(2000, 1, 1) + dt.timedelta(days=k) for k in range(366)]
        longest = max(len(fmt(d)) for fmt in ALL_FORMATS.values() for d in leap_year)
        super().__init__(_date_alphabet(), max_source_len=longest, max_target_len=len("yyyy-mm-dd"))

    @property
    def formats(self) -> dict[str, DateFormat]:
        """The formats this task writes its sources in, by name."""
        return HELD_OUT_FORMATS if self.held_out_formats else TRAIN_FORMATS

    @property
    def knobs(self) -> dict[str, Any]:
        return {"min_year": self.min_year, "max_year": self.max_year, "held_out_formats": self.held_out_formats}

    def random_date(self, rng: random.Random) -> dt.date:
        """A uniformly random valid date between 1 Jan min_year and 31 Dec max_year."""
        first = dt.date(self.min_year, 1, 1).toordinal()
        last = dt.date(self.max_year, 12, 31).toordinal()
        return dt.date.fromordinal(rng.randint(first, last))

    def sample(self, rng: random.Random) -> Pair:
        fmt = ALL_FORMATS[rng.choice(self._format_names)]
        date = self.random_date(rng)
        return fmt(date), iso(date)


_TASKS: dict[str, type[Task]] = {cls.name: cls for cls in (CopyTask, ReverseTask, SortTask, DatesTask, AdditionTask)}


def names() -> list[str]:
    """Names accepted by ``get``."""
    return list(_TASKS)


def get(name: str, **knobs: Any) -> Task:
    """The task called ``name`` with the given difficulty knobs (see each task's arguments)."""
    if name not in _TASKS:
        raise ValueError(f"unknown task {name!r}; choose one of {names()}")
    cls = _TASKS[name]
    accepted = list(inspect.signature(cls).parameters)
    unknown = sorted(set(knobs) - set(accepted))
    if unknown:
        raise ValueError(f"the {name} task has no knob {unknown}; its knobs are {accepted}")
    return cls(**knobs)
