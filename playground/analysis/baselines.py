"""What a loss is worth: the losses of two models that know nothing of context.

- uniform: every one of the V outputs equally likely, loss ln V nats per token;
- unigram: each token as likely as it is frequent in the data, loss = the entropy of the token
  frequencies, -sum_v f_v ln f_v (what a model that has learned the alphabet's frequencies and
  nothing else scores on that data).

A trained model's loss below the unigram baseline is what it learned from context.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Iterable


def uniform_loss(vocab_size: int) -> float:
    """ln V: the loss of guessing uniformly among `vocab_size` outputs."""
    if not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive integer, got {vocab_size!r}")
    return math.log(vocab_size)


def unigram_loss(ids: Iterable[int]) -> float:
    """The entropy (nats) of the frequencies of the token ids in `ids`: the loss of predicting every
    token by its frequency alone, measured on the same tokens."""
    counts = Counter(ids)
    total = sum(counts.values())
    if total == 0:
        raise ValueError("unigram_loss needs at least one token id")
    return -sum(n / total * math.log(n / total) for n in counts.values())


def as_unsure_as(loss: float) -> float:
    """e^loss: the number of equally likely tokens a model with this loss is, on average, as unsure between."""
    return math.exp(min(loss, 700.0))
