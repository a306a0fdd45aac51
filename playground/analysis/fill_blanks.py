"""A masked (encoder-only) model fills in blanks: each BLANK in the text becomes one <mask> token,
and the model's prediction at that position, a softmax over ordinary tokens, ranks the candidates."""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from playground.data import MASK_ID, Tokenizer
from playground.data.tokenizer import NUM_SPECIAL

BLANK = "_"     # one blank = one masked token (one character for a character model)


@dataclass(frozen=True)
class Blank:
    """One blank: its token position, the candidates best first, and their probabilities."""

    position: int
    candidates: list[int]
    probabilities: list[float]


def masked_ids(text: str, tokenizer: Tokenizer, blank: str = BLANK) -> list[int]:
    """The ids of `text` with every `blank` replaced by one <mask> token."""
    pieces = text.split(blank)
    ids = tokenizer.encode(pieces[0])
    for piece in pieces[1:]:
        ids += [MASK_ID, *tokenizer.encode(piece)]
    return ids


@torch.no_grad()
def fill_blanks(model: nn.Module, ids: list[int], top_k: int = 5) -> list[Blank]:
    """The top_k candidates for every <mask> in ids, from the model's prediction at its position.

    Special tokens are never candidates (a hidden token is always an ordinary one); the
    probabilities are the softmax over the ordinary tokens.
    """
    logits = model.decode(torch.tensor([ids]))[0].double()                  # [T, V]
    logits[:, :NUM_SPECIAL] = -math.inf
    probs = torch.softmax(logits, dim=-1)                                   # [T, V]
    blanks = []
    for position in (i for i, token in enumerate(ids) if token == MASK_ID):
        best = torch.topk(probs[position], min(top_k, probs.size(-1) - NUM_SPECIAL))
        blanks.append(Blank(position, best.indices.tolist(), best.values.tolist()))
    return blanks


def filled_text(ids: list[int], blanks: list[Blank], tokenizer: Tokenizer) -> str:
    """The text with every blank replaced by its most likely candidate."""
    filled = list(ids)
    for blank in blanks:
        filled[blank.position] = blank.candidates[0]
    return tokenizer.decode(filled)
