"""A model's token embedding table: nearest neighbours by cosine similarity, and a 2-D projection (PCA).

Special tokens (<pad>, <bos>, ...) are left out: they mark structure, not text, and some are never
trained as inputs.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from playground.data.tokenizer import NUM_SPECIAL


def embedding_table(model: nn.Module) -> torch.Tensor:
    """The table that turns input ids into vectors: [V, D] (the encoder's when there is one)."""
    stack = model.encoder if model.has_encoder else model.decoder
    return stack.embed.tokens.weight.detach()


def cosine_to_all(table: torch.Tensor, token: int) -> torch.Tensor:
    """cos(table[token], table[j]) for every row j: [V] in float64 (0 for a zero row)."""
    table = table.double()
    norms = table.norm(dim=-1)                                              # [V]
    dots = table @ table[token]                                             # [V]
    return torch.where(norms > 0, dots / (norms * norms[token]).clamp_min(1e-300), torch.zeros_like(dots))


def nearest_neighbours(table: torch.Tensor, token: int, k: int) -> list[tuple[int, float]]:
    """The k ordinary tokens closest to `token` by cosine similarity, closest first: [(id, cosine)]."""
    similarity = cosine_to_all(table, token)
    similarity[:NUM_SPECIAL] = -torch.inf
    similarity[token] = -torch.inf
    best = torch.topk(similarity, min(k, table.size(0) - NUM_SPECIAL - 1))
    return list(zip(best.indices.tolist(), best.values.tolist()))


@dataclass(frozen=True)
class Projection:
    """The ordinary tokens' embeddings projected on their first two principal components."""

    ids: list[int]
    points: torch.Tensor         # [N, 2]
    explained: tuple[float, float]   # share of the variance along each component


def pca_2d(table: torch.Tensor) -> Projection:
    """PCA of the ordinary rows of `table` [V, D]: centre them, take the SVD, project on the top two directions.

    Each component's sign is fixed so that its largest coordinate is positive (SVD leaves it free).
    """
    rows = table[NUM_SPECIAL:].double()                                     # [N, D]
    centred = rows - rows.mean(dim=0)
    _, singular, vh = torch.linalg.svd(centred, full_matrices=False)       # vh [min(N, D), D]
    directions = vh[:2]                                                     # [2, D]
    largest = directions.gather(1, directions.abs().argmax(dim=1, keepdim=True))
    directions = directions * torch.sign(largest)
    variance = singular ** 2
    share = variance[:2] / variance.sum()
    ids = list(range(NUM_SPECIAL, table.size(0)))
    return Projection(ids, centred @ directions.T, (float(share[0]), float(share[1])))
