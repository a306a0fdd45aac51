"""A GPT-2 repository's byte-level BPE as a project BPETokenizer, with ids moved to fit the project.

The project's tokenizers share fixed special ids (pad=0, bos=1, eos=2, unk=3, mask=4). GPT-2
has one special token, <|endoftext|>, which it uses both to start and to end a text. So:

    project id 2 (eos)            <- GPT-2's <|endoftext|>
    project id 1 (bos)            <- also <|endoftext|> as an input; never predicted
    project ids 0, 3, 4           <- pad, unk, mask: GPT-2 has no such tokens; never predicted
    project ids 5, 6, ...         <- GPT-2's other tokens, in GPT-2's order

`IdMap` holds that correspondence; the vocabulary strings and merges are GPT-2's own, so a text
splits into exactly the same tokens.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import torch
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers

from playground.data import BOS_ID, EOS_ID, MASK_ID, PAD_ID, SPECIAL_TOKENS, UNK_ID, BPETokenizer

from .fetch import HubImportError

NEVER_PREDICTED = (PAD_ID, BOS_ID, UNK_ID, MASK_ID)


@dataclass(frozen=True)
class IdMap:
    """Where each project token id comes from in a GPT-2 vocabulary of `gpt2_vocab_size` ids."""

    gpt2_vocab_size: int
    end_of_text: int                       # GPT-2's <|endoftext|> id

    @property
    def vocab_size(self) -> int:
        """Project ids: the 5 special ones plus GPT-2's ids other than <|endoftext|>."""
        return self.gpt2_vocab_size + len(SPECIAL_TOKENS) - 1

    def source_rows(self) -> list[int | None]:
        """For each project id, the GPT-2 id whose weights it takes (None: no weights, zeros)."""
        specials: list[int | None] = [None] * len(SPECIAL_TOKENS)
        specials[BOS_ID] = specials[EOS_ID] = self.end_of_text
        return specials + [i for i in range(self.gpt2_vocab_size) if i != self.end_of_text]

    def to_project(self, gpt2_ids: torch.Tensor) -> torch.Tensor:
        """GPT-2 ids -> project ids (any shape)."""
        shifted = gpt2_ids + len(SPECIAL_TOKENS) - (gpt2_ids > self.end_of_text).long()
        return torch.where(gpt2_ids == self.end_of_text, torch.full_like(gpt2_ids, EOS_ID), shifted)

    def to_gpt2(self, project_ids: torch.Tensor) -> torch.Tensor:
        """Project ids -> GPT-2 ids (bos and eos both become <|endoftext|>; pad, unk, mask have none)."""
        if bool(((project_ids < len(SPECIAL_TOKENS)) & (project_ids != BOS_ID) & (project_ids != EOS_ID)).any()):
            raise ValueError("pad, unk and mask have no GPT-2 id")
        rows = torch.tensor([-1 if r is None else r for r in self.source_rows()])
        return rows[project_ids]

    def gather(self, gpt2_rows: torch.Tensor) -> torch.Tensor:
        """A GPT-2 table with one row per GPT-2 id [V, D] -> one row per project id [V + 4, D]."""
        sources = self.source_rows()
        table = gpt2_rows.new_zeros(len(sources), gpt2_rows.size(1))
        present = [p for p, s in enumerate(sources) if s is not None]
        table[present] = gpt2_rows[[sources[p] for p in present]]
        return table


def _library_tokenizer(tokenizer_file: Path | None, vocab_file: Path | None, merges_file: Path | None) -> HFTokenizer:
    try:
        if tokenizer_file is not None:
            return HFTokenizer.from_file(str(tokenizer_file))
        bpe = models.BPE.from_file(str(vocab_file), str(merges_file))
    except Exception as error:  # the library raises plain Exceptions for unreadable files
        name = tokenizer_file.name if tokenizer_file is not None else "vocab.json / merges.txt"
        raise HubImportError(f"{name} is not a readable tokenizer: {error}") from None
    tokenizer = HFTokenizer(bpe)
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    return tokenizer


def import_tokenizer(tokenizer_file: Path | None, vocab_file: Path | None, merges_file: Path | None,
                     gpt2_vocab_size: int, end_of_text: int) -> tuple[BPETokenizer, IdMap]:
    """The repository's tokenizer (tokenizer.json, else vocab.json + merges.txt) with project ids."""
    state = json.loads(_library_tokenizer(tokenizer_file, vocab_file, merges_file).to_str())
    model, pre_tokenizer = state.get("model") or {}, state.get("pre_tokenizer") or {}
    if model.get("type") != "BPE" or pre_tokenizer.get("type") != "ByteLevel":
        raise HubImportError(f"the tokenizer is not GPT-2's byte-level BPE (model {model.get('type')}, "
                             f"pre-tokenizer {pre_tokenizer.get('type')})")
    by_id = {i: token for token, i in model["vocab"].items()}
    by_id.update({added["id"]: added["content"] for added in state.get("added_tokens") or []})
    if sorted(by_id) != list(range(gpt2_vocab_size)) or len(set(by_id.values())) != len(by_id):
        raise HubImportError(f"the tokenizer has {len(by_id)} tokens but config.json says vocab_size="
                             f"{gpt2_vocab_size}; the embedding must have one row per token")
    if end_of_text not in by_id:
        raise HubImportError(f"config.json names token {end_of_text} as the end of text, outside the vocabulary")
    clashes = sorted(set(SPECIAL_TOKENS) & set(by_id.values()))
    if clashes:
        raise HubImportError(f"the vocabulary already has tokens named {clashes}, the project's special tokens")
    ids = IdMap(gpt2_vocab_size, end_of_text)
    sources = ids.source_rows()
    model["vocab"] = {**{name: i for i, name in enumerate(SPECIAL_TOKENS)},
                      **{by_id[s]: p for p, s in enumerate(sources) if p >= len(SPECIAL_TOKENS)}}
    state["added_tokens"] = []              # "<|endoftext|>" typed in a text is ordinary text
    state["post_processor"] = None
    return BPETokenizer(HFTokenizer.from_str(json.dumps(state))), ids
