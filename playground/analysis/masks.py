"""The attention masks of a padded batch, built with the model's own mask functions.

For a batch of sequences right-padded to one length (as `playground.data.pad_sequences` pads
them), each attention site hides some (query, key) pairs:

    key padding  padding_mask(ids, pad)           [B, 1, 1, Tk]  hides pad keys from every query
    causal       causal_mask(T, T)[None, None]    [1, 1, Tq, Tk] hides later keys
    combined     padding & causal                 [B, 1, Tq, Tk] both (broadcast)

Encoder self-attention and cross-attention use the key padding of the source; the decoder's
self-attention uses the causal mask alone. With right padding that is enough: a real query sits
before every pad, so causality already hides the pads from it, and the rows of pad queries are
ignored by the loss. A row with no visible key would make softmax divide 0 by 0 (NaN); with right
padding every row keeps at least one key (the first token, or the query itself).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from playground.data import PAD_ID
from playground.model import AttentionSite, attend, causal_mask, padding_mask


@dataclass(frozen=True)
class SiteMasks:
    """The masks of one attention site for a padded batch, each with the shape it is built in.

    panels: name ("key_padding", "causal", "combined") -> bool tensor as built; `applied` names the
    one the model uses. `expanded(name)` broadcasts a mask to [B, Tq, Tk] for drawing.
    """

    site: AttentionSite
    panels: dict[str, torch.Tensor]
    applied: str
    n_queries: int
    n_keys: int

    def expanded(self, name: str) -> torch.Tensor:
        """The mask `name` broadcast over the batch and queries: [B, Tq, Tk] (head axis dropped)."""
        mask = self.panels[name]
        batch = max(m.size(0) for m in self.panels.values())
        return mask.expand(batch, 1, self.n_queries, self.n_keys)[:, 0]


@dataclass(frozen=True)
class PaddedBatch:
    """Two or more sequences right-padded: what each site reads. target is None without a decoder."""

    source: torch.Tensor | None         # [B, S]
    target: torch.Tensor | None         # [B, T]


def site_masks(site: AttentionSite, batch: PaddedBatch, pad_id: int = PAD_ID) -> SiteMasks:
    """The key-padding, causal and combined masks of `site` for `batch`, and which one the model applies."""
    queries = batch.source if site.query_side == "source" else batch.target
    keys = batch.source if site.key_side == "source" else batch.target
    n_queries, n_keys = queries.size(1), keys.size(1)
    key_padding = padding_mask(keys, pad_id)                                 # [B, 1, 1, Tk]
    if not site.causal:
        return SiteMasks(site, {"key_padding": key_padding}, "key_padding", n_queries, n_keys)
    causal = causal_mask(n_queries, n_keys)[None, None]                      # [1, 1, Tq, Tk]
    panels = {"key_padding": key_padding, "causal": causal, "combined": key_padding & causal}  # combined [B, 1, Tq, Tk]
    return SiteMasks(site, panels, "causal", n_queries, n_keys)


def empty_rows(mask: torch.Tensor) -> torch.Tensor:
    """Which (batch, query) rows of a [B, Tq, Tk] mask let no key through: [B, Tq] bool."""
    return ~mask.any(dim=-1)


def left_padded_rows(sequences: list[list[int]], pad_id: int = PAD_ID) -> tuple[torch.Tensor, torch.Tensor]:
    """The combined causal & key-padding mask of the same batch padded on the LEFT, and what
    softmax makes of it: (mask [B, T, T], weights [B, T, T] with NaN rows where nothing is visible).

    The weights come from the model's own `attend` with all scores 0, so every visible key of a row
    gets the same weight and a row without one is exactly the 0/0 case.
    """
    length = max(len(s) for s in sequences)
    ids = torch.tensor([[pad_id] * (length - len(s)) + list(s) for s in sequences])     # [B, T]
    mask = (padding_mask(ids, pad_id) & causal_mask(length, length)[None, None])[:, 0]  # [B, T, T]
    zeros = torch.zeros(ids.size(0), 1, length, 1)                                       # [B, 1, T, 1]: scores all 0
    _, _, weights = attend(zeros, zeros, zeros, mask[:, None])                           # [B, 1, T, T]
    return mask, weights[:, 0]
