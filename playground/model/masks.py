"""Attention masks. Convention: a bool tensor where True means "this query may attend to this key"."""
from __future__ import annotations

import torch


def causal_mask(n_queries: int, n_keys: int, device=None) -> torch.Tensor:
    """Lower-triangular mask [Tq, Tk]; the queries are the last Tq of the Tk positions.

    Query i (absolute position Tk - Tq + i) may attend to keys 0 .. Tk - Tq + i.
    """
    offset = n_keys - n_queries
    return torch.ones(n_queries, n_keys, dtype=torch.bool, device=device).tril(diagonal=offset)


def padding_mask(ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    """Key mask [B, 1, 1, Tk] that hides pad tokens, broadcastable over heads and queries."""
    return (ids != pad_id)[:, None, None, :]
