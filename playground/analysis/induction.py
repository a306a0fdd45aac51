"""Induction in a decoder-only model, measured on random tokens that repeat.

A random block of ``period`` tokens written again and again: the first copy cannot be predicted
(better than 1 / vocabulary), every later token can, by looking up what followed the same token one
period earlier. So the model's loss on the second copy against the first, and the heads' induction
scores, say whether the model does that look-up. ``induction_verdict`` applies the naming rule of
``head_scores.induction_heads`` to the standard measurement.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from playground.analysis.head_scores import INDUCTION_THRESHOLD, head_scores, induction_heads
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import DECODER_SELF, Trace

VERDICT_PERIOD = 24       # the standard measurement: 24 random tokens written twice ...
VERDICT_SEQUENCES = 32    # ... in 32 sequences
VERDICT_SEED = 0
LOGITS_BUDGET_BYTES = 16 * 2**20   # the logits one forward pass of the measurement holds: sequences go in groups


@dataclass(frozen=True)
class RepeatMeasurement:
    """What a model does on ``n_sequences`` blocks of ``period`` tokens repeated to ``length`` tokens.

    previous_token, induction: [L, H] head scores, averaged over the sequences.
    first_copy_loss: mean cross-entropy of the predictions of tokens 2..period of the first copy.
    second_copy_loss: mean cross-entropy of the predictions of the second copy (tokens
        period+1..2*period, cut at ``length``).
    uniform_induction: the induction score of a head that spreads its weight evenly over the keys
        it can see, on the same sequences: what the score is worth by chance (high for short
        periods, where many earlier copies offer the right key).
    """

    period: int
    length: int
    n_sequences: int
    previous_token: np.ndarray
    induction: np.ndarray
    first_copy_loss: float
    second_copy_loss: float
    uniform_induction: float


def random_blocks(n_sequences: int, period: int, vocab_size: int, seed: int) -> torch.Tensor:
    """Blocks of ``period`` ordinary tokens (ids NUM_SPECIAL..vocab_size-1) drawn uniformly. [B, period]"""
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(NUM_SPECIAL, vocab_size, (n_sequences, period), generator=generator)


@torch.no_grad()
def measure_repeats(model: nn.Module, blocks: torch.Tensor, length: int) -> RepeatMeasurement:
    """The scores and losses of a decoder-only ``model`` on each row of ``blocks`` [B, n] written again
    and again until ``length`` tokens (2 <= n < length <= the model's max_len)."""
    n_sequences, period = blocks.shape
    if not 2 <= period < length <= model.config.max_len:
        raise ValueError(f"a period of {period} tokens repeated to {length} tokens needs 2 <= period < length <= "
                         f"{model.config.max_len} (the model's max_len)")
    ids = blocks[:, torch.arange(length) % period]                               # [B, T]
    model.eval()
    group = max(1, LOGITS_BUDGET_BYTES // (length * model.config.target_vocab_size * 4))
    losses, weights = [], []
    for part in ids.split(group):                  # [b, T]: a wide vocabulary never holds every sequence's logits
        trace = Trace(include=("*.weights",))
        logits = model(part, trace=trace)                                        # [b, T, V]
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), part[:, 1:].flatten(), reduction="none")
        losses.append(loss.view(len(part), length - 1))                          # [b, T-1]: predicting token t+1
        weights.append(trace.attention(DECODER_SELF).float())                    # [L, b, H, T, T]
        del logits, trace
    losses = torch.cat(losses)                                                   # [B, T-1]
    weights = torch.cat(weights, dim=1).numpy()                                  # [L, B, H, T, T]
    per_sequence = [head_scores(weights[:, b], "self", ids=ids[b].tolist(), causal=True) for b in range(n_sequences)]
    uniform = np.tril(np.ones((length, length))) / np.arange(1, length + 1)[:, None]     # [T, T]
    chance = [head_scores(uniform[None, None], "self", ids=row.tolist(), causal=True)["induction"][0, 0]
              for row in ids]
    return RepeatMeasurement(
        period=period, length=length, n_sequences=n_sequences,
        previous_token=np.mean([s["previous_token"] for s in per_sequence], axis=0),
        induction=np.mean([s["induction"] for s in per_sequence], axis=0),
        first_copy_loss=float(losses[:, : period - 1].mean()),
        second_copy_loss=float(losses[:, period - 1: min(2 * period, length) - 1].mean()),
        uniform_induction=float(np.mean(chance)),
    )


Reason = Literal["named", "low_score", "no_copy_gain"]


@dataclass(frozen=True)
class InductionVerdict:
    """The naming rule applied to the standard measurement.

    heads: the induction heads (layer, head), empty when none qualifies; best: the head with the
    highest induction score; reason: "named" (some head qualifies), "low_score" (no head reaches
    INDUCTION_THRESHOLD) or "no_copy_gain" (a head scores high but the second copy is not
    predicted clearly better than the first).
    """

    measurement: RepeatMeasurement
    heads: list[tuple[int, int]]
    best: tuple[int, int]
    reason: Reason

    @property
    def best_score(self) -> float:
        return float(self.measurement.induction[self.best])


def induction_verdict(model: nn.Module) -> InductionVerdict:
    """The induction heads of a decoder-only model, measured on VERDICT_SEQUENCES sequences of
    VERDICT_PERIOD random tokens written twice (shorter when the context is, at least 2 tokens)."""
    config = model.config
    if config.arch != "decoder_only":
        raise ValueError(f"induction is measured on decoder-only models, got arch={config.arch!r}")
    period = max(2, min(VERDICT_PERIOD, config.max_len // 2))
    if config.vocab_size <= NUM_SPECIAL or 2 * period > config.max_len:
        raise ValueError(f"the model's max_len ({config.max_len}) or vocabulary ({config.vocab_size}) is too small "
                         "to write random tokens twice")
    blocks = random_blocks(VERDICT_SEQUENCES, period, config.vocab_size, VERDICT_SEED)
    measurement = measure_repeats(model, blocks, 2 * period)
    heads = induction_heads(measurement.induction, measurement.first_copy_loss, measurement.second_copy_loss)
    best = tuple(int(i) for i in np.unravel_index(int(np.argmax(measurement.induction)), measurement.induction.shape))
    if heads:
        reason = "named"
    elif measurement.induction[best] >= INDUCTION_THRESHOLD:
        reason = "no_copy_gain"
    else:
        reason = "low_score"
    return InductionVerdict(measurement, heads, best, reason)
