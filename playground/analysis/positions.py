"""Adding positions to token embeddings against concatenating them: where a trained model puts them.

Concatenating [token; position] keeps the two apart by construction and widens every layer after
it. Adding them keeps the width, and they stay apart only if they use different directions of
the D dimensions. This measures that on a trained table: take the principal directions of the
(centred) token embeddings, and count how much of the (centred) position vectors' energy falls
into the first k of them, next to the k / D a random set of directions would catch.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from playground.data.tokenizer import NUM_SPECIAL

TOKEN_SHARE = 0.9       # the directions that hold this share of the token embeddings' variance


@dataclass(frozen=True)
class PositionTokenOverlap:
    """Shares of energy in the first k principal directions of the token embeddings, for k = 1..D:
    of the token embeddings themselves, of the position vectors, and of random directions (k / D).
    directions: the k at which the token embeddings reach TOKEN_SHARE."""

    width: int
    positions: int
    directions: int
    token_share: list[float]
    position_share: list[float]
    random_share: list[float]


@torch.no_grad()
def position_token_overlap(model: nn.Module) -> PositionTokenOverlap:
    """The overlap of a model's additive position vectors (learned or sinusoidal, at every position it
    holds) with its ordinary tokens' embeddings, as the first stack adds them (see the module doc)."""
    stack = model.encoder if model.has_encoder else model.decoder
    embed = stack.embed
    positions = embed.positions.table(model.config.max_len)
    if positions is None:
        raise ValueError(f"a model with {model.config.positional!r} positions adds no position vectors to "
                         f"its embeddings; give one with sinusoidal or learned positions")
    tokens = embed.tokens.weight[NUM_SPECIAL:].double() * embed.scale                 # [N, D]
    positions = positions.double()                                                    # [T, D]
    tokens = tokens - tokens.mean(dim=0)
    positions = positions - positions.mean(dim=0)
    _, singular, directions = torch.linalg.svd(tokens, full_matrices=False)          # directions [D', D]
    width = tokens.size(1)
    token_energy = singular.pow(2).cumsum(0) / singular.pow(2).sum()                  # [D']
    position_energy = (positions @ directions.T).pow(2).sum(dim=0).cumsum(0) / positions.pow(2).sum()
    k = int((token_energy < TOKEN_SHARE).sum()) + 1
    n = directions.size(0)
    return PositionTokenOverlap(width, positions.size(0), k, token_energy.tolist(), position_energy.tolist(),
                                [(i + 1) / width for i in range(n)])
