"""Repeated random sequences: a random block of ``period`` tokens written again and again until the
context is full. Only the first copy is unpredictable; every later token is the one that followed
the same token one period earlier, which is what an induction head looks up.

    data = RepeatedSequences(block_size=64, min_period=8, max_period=32)
    x, y = data.batch(64, torch.Generator().manual_seed(0))      # one period for the whole batch
"""
from __future__ import annotations

import string

import torch

from playground.data.char_tokenizer import CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL

ALPHABET = string.printable[:95] + "\n"   # printable ASCII (letters, digits, punctuation, space) and newline
MAX_BLOCK_SIZE = 4096


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an int between {low} and {high}, got {value!r}")
    return value


def repeat_to_length(blocks: torch.Tensor, length: int) -> torch.Tensor:
    """Each row of ``blocks`` [B, n] written again and again, cut at ``length`` tokens. [B, length]"""
    return blocks[:, torch.arange(length) % blocks.shape[1]]


class RepeatedSequences:
    """Next-token prediction windows of ``block_size`` tokens, each a random block repeated.

    The tokenizer is a CharTokenizer of ``alphabet`` (one token per character), so typed text can
    be read by the trained model too. Every batch draws one period n uniformly from
    ``min_period..max_period`` and B blocks of n tokens uniformly from the ordinary tokens.
    """

    def __init__(self, block_size: int = 64, min_period: int = 8, max_period: int = 32, alphabet: str = ALPHABET):
        self.block_size = _check_int("block_size", block_size, 2, MAX_BLOCK_SIZE)
        self.max_period = _check_int("max_period", max_period, 1, block_size)
        self.min_period = _check_int("min_period", min_period, 1, max_period)
        self.tokenizer = CharTokenizer(alphabet)

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.vocab_size

    @property
    def knobs(self) -> dict:
        """The construction arguments but the alphabet."""
        return {"block_size": self.block_size, "min_period": self.min_period, "max_period": self.max_period}

    def random_blocks(self, batch_size: int, period: int, generator: torch.Generator) -> torch.Tensor:
        """``batch_size`` blocks of ``period`` random ordinary tokens. [B, period]"""
        _check_int("batch_size", batch_size, 1, 65_536)
        _check_int("period", period, 1, MAX_BLOCK_SIZE)
        if not isinstance(generator, torch.Generator):
            raise TypeError("pass a torch.Generator so batches are reproducible, e.g. torch.Generator().manual_seed(0)")
        return torch.randint(NUM_SPECIAL, self.vocab_size, (batch_size, period), generator=generator)

    def batch(self, batch_size: int, generator: torch.Generator,
              period: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Inputs x [B, T] and next-token targets y [B, T] (T = block_size); the period is drawn
        from the training range unless given."""
        if period is None:
            period = int(torch.randint(self.min_period, self.max_period + 1, (1,), generator=generator))
        window = repeat_to_length(self.random_blocks(batch_size, period, generator), self.block_size + 1)  # [B, T+1]
        return window[:, :-1], window[:, 1:]
