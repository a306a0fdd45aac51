"""Held-out measures reported beside the loss: perplexity, and BLEU for sequence-to-sequence models.

perplexity = exp(mean cross-entropy per token, in nats): the number of equally likely tokens the
    model is, on average, as unsure between (1 = always certain and right; the vocabulary size =
    uniform guessing).
BLEU (computed by sacrebleu, on characters): the geometric mean of the 1- to 4-gram precisions of
    all outputs against their targets, pooled over the whole held-out set (corpus-level), times a
    brevity penalty exp(1 - reference length / output length) when the outputs are shorter
    overall. On a 0-100 scale. It counts shared character n-grams; it says nothing about meaning,
    and an output can score high while still being wrong (exact match is the strict measure).
"""
from __future__ import annotations

import math
from typing import Sequence

import sacrebleu

MAX_LOG_PERPLEXITY = 700.0       # exp(700) is close to the largest float; a larger loss reads as that
BLEU_TOKENIZE = "char"           # every character is a token: the tasks' outputs are letters and digits


def perplexity(mean_loss: float) -> float:
    """exp(mean cross-entropy per token) of a loss in nats."""
    return math.exp(min(mean_loss, MAX_LOG_PERPLEXITY))


def bleu(outputs: Sequence[str], references: Sequence[str]) -> float:
    """Corpus-level character BLEU (0-100) of ``outputs`` against one reference each, by sacrebleu."""
    if len(outputs) != len(references):
        raise ValueError(f"BLEU needs one reference per output, got {len(outputs)} outputs and {len(references)} references")
    if not outputs:
        raise ValueError("BLEU needs at least one output")
    return float(sacrebleu.corpus_bleu(list(outputs), [list(references)], tokenize=BLEU_TOKENIZE).score)
