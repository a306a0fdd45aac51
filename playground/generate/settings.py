"""Validated decoding settings shared by the Stepper and beam search.

A refused setting raises the library's keyed InputError (a ValueError; playground.checks): a range
under "err_out_of_range", a strategy under "err_bad_choice", a repetition penalty with beam search
under "err_beam_repetition", anything else under "err_config", so a front end can say it in its own
language.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from playground.checks import InputError

STRATEGIES = ("greedy", "sample", "beam")
MAX_BEAM_WIDTH = 16          # the tree grows by up to 2 x width nodes per step; wider is slow (the UI allows less)
MAX_NEW_TOKENS = 2048
MAX_SEED = 2**63 - 1
MAX_LENGTH_PENALTY = 5.0
MAX_REPETITION_PENALTY = 10.0


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _out_of_range(message: str, field: str, value, low, high) -> InputError:
    return InputError(message, "err_out_of_range", field, value=value, low=low, high=high)


def _invalid(message: str, field: str) -> InputError:
    return InputError(message, "err_config", field, error=message)


@dataclass(frozen=True)
class SamplingConfig:
    """How the next token is chosen.

    strategy: "greedy" (the most likely token), "sample" (draw from the filtered distribution,
        reproducibly from `seed`), or "beam" (see `beam_search`).
    temperature: sampling divides the logits by it before the softmax; must be > 0. Near 0 the
        distribution collapses onto the most likely token, above 1 it flattens.
    top_k: sampling keeps only the k most likely tokens (None = off); k >= 1.
    top_p: sampling keeps the smallest set of most likely tokens whose mass reaches p (None = off);
        p in (0, 1]. Applied after top-k.
    seed: sampling seed; the draw at each position depends only on (seed, position), so going back
        and stepping again picks the same token.
    beam_width: hypotheses kept per step by beam search, 1 .. MAX_BEAM_WIDTH.
    max_new_tokens: the token budget, 1 .. MAX_NEW_TOKENS.
    length_penalty: beam search ranks finished hypotheses by log-prob / length ** length_penalty,
        in [0, MAX_LENGTH_PENALTY] (0 = raw log-prob, which favours short outputs).
    repetition_penalty: greedy and sampling divide the probability of every token already in the
        context by it before choosing (see `apply_repetition_penalty`), in [1, MAX_REPETITION_PENALTY]
        (1 = off); beam search does not use it.
    """

    strategy: str = "greedy"
    temperature: float = 1.0
    top_k: int | None = None
    top_p: float | None = None
    seed: int = 0
    beam_width: int = 4
    max_new_tokens: int = 64
    length_penalty: float = 1.0
    repetition_penalty: float = 1.0

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise InputError(f"strategy must be one of {STRATEGIES}, got {self.strategy!r}", "err_bad_choice",
                             "strategy", value=str(self.strategy), choices=", ".join(STRATEGIES))
        if not _is_number(self.temperature) or not math.isfinite(self.temperature):
            raise _invalid(f"temperature must be a finite number, got {self.temperature!r}", "temperature")
        if self.strategy == "sample" and self.temperature <= 0:
            raise _invalid(f"temperature must be > 0 for sampling (use strategy='greedy' for the most likely "
                           f"token), got {self.temperature}", "temperature")
        if self.top_k is not None and (not _is_int(self.top_k) or self.top_k < 1):
            raise _invalid(f"top_k must be an integer >= 1, or None to switch it off; got {self.top_k!r}", "top_k")
        if self.top_p is not None and (not _is_number(self.top_p) or not 0 < self.top_p <= 1):
            raise _invalid(f"top_p must be in (0, 1], or None to switch it off; got {self.top_p!r}", "top_p")
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise _out_of_range(f"seed must be an integer in [0, 2**63 - 1], got {self.seed!r}", "seed", self.seed,
                                0, MAX_SEED)
        if not _is_int(self.beam_width) or not 1 <= self.beam_width <= MAX_BEAM_WIDTH:
            raise _out_of_range(f"beam_width must be an integer from 1 to {MAX_BEAM_WIDTH}, got {self.beam_width!r}",
                                "beam_width", self.beam_width, 1, MAX_BEAM_WIDTH)
        if not _is_int(self.max_new_tokens) or not 1 <= self.max_new_tokens <= MAX_NEW_TOKENS:
            raise _out_of_range(f"max_new_tokens must be an integer from 1 to {MAX_NEW_TOKENS}, got "
                                f"{self.max_new_tokens!r}", "max_new_tokens", self.max_new_tokens, 1, MAX_NEW_TOKENS)
        if not _is_number(self.length_penalty) or not 0 <= self.length_penalty <= MAX_LENGTH_PENALTY:
            raise _out_of_range(f"length_penalty must be a number in [0, {MAX_LENGTH_PENALTY}], got "
                                f"{self.length_penalty!r}", "length_penalty", self.length_penalty, 0,
                                MAX_LENGTH_PENALTY)
        if not _is_number(self.repetition_penalty) or not 1 <= self.repetition_penalty <= MAX_REPETITION_PENALTY:
            raise _out_of_range(f"repetition_penalty must be a number in [1, {MAX_REPETITION_PENALTY}] (1 = off), "
                                f"got {self.repetition_penalty!r}", "repetition_penalty", self.repetition_penalty, 1,
                                MAX_REPETITION_PENALTY)
        if self.strategy == "beam" and self.repetition_penalty != 1:
            raise InputError("beam search ranks whole hypotheses by their log-probability and takes no repetition "
                             "penalty; set repetition_penalty=1 or choose strategy 'greedy' or 'sample'",
                             "err_beam_repetition", "repetition_penalty")

    def replace(self, **changes) -> "SamplingConfig":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)
