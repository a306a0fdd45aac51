"""Padding variable-length id sequences into LongTensor batches."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from playground.data.tokenizer import BOS_ID, EOS_ID, PAD_ID


def pad_sequences(seqs: Sequence[Sequence[int]], pad_id: int = PAD_ID, length: int | None = None) -> torch.Tensor:
    """Right-pad id lists to one length (the longest, or ``length``). Returns [B, L] int64."""
    if not seqs:
        raise ValueError("cannot pad an empty list of sequences; give at least one")
    longest = max(len(s) for s in seqs)
    length = longest if length is None else length
    if length < longest:
        raise ValueError(f"padding length {length} is shorter than the longest sequence ({longest})")
    out = torch.full((len(seqs), length), pad_id, dtype=torch.long)  # [B, L]
    for row, seq in enumerate(seqs):
        out[row, : len(seq)] = torch.as_tensor(list(seq), dtype=torch.long)
    return out


@dataclass(frozen=True)
class Seq2SeqBatch:
    """A padded seq2seq batch for teacher forcing; every tensor is padded with ``PAD_ID``.

    ``src`` holds the source ids without special tokens. ``tgt_in`` is bos + target (what the
    decoder reads) and ``tgt_out`` is target + eos (what it must predict), position by position.
    """

    src: torch.Tensor  # [B, S]
    tgt_in: torch.Tensor  # [B, T]
    tgt_out: torch.Tensor  # [B, T]

    def __len__(self) -> int:
        return self.src.shape[0]

    @classmethod
    def from_ids(cls, pairs: Sequence[tuple[Sequence[int], Sequence[int]]]) -> "Seq2SeqBatch":
        """Build a batch from (source ids, target ids) pairs without special tokens."""
        if not pairs:
            raise ValueError("a batch needs at least one (source, target) pair")
        src = pad_sequences([s for s, _ in pairs])  # [B, S]
        tgt_in = pad_sequences([[BOS_ID, *t] for _, t in pairs])  # [B, T]
        tgt_out = pad_sequences([[*t, EOS_ID] for _, t in pairs])  # [B, T]
        return cls(src=src, tgt_in=tgt_in, tgt_out=tgt_out)
