"""A repository's byte-level BPE (GPT-2, Llama 3 / SmolLM, Qwen2) as a project BPETokenizer, with ids
moved to fit the project.

The project's tokenizers share fixed special ids (pad=0, bos=1, eos=2, unk=3, mask=4). GPT-2,
SmolLM2 and Qwen2.5 have one end-of-text token (<|endoftext|>), used both to start and to end a
text; some families have a start token of their own. So:

    project id 2 (eos)            <- the source's end-of-text token
    project id 1 (bos)            <- its start token, or end-of-text as an input; never predicted
    project ids 0, 3, 4           <- pad, unk, mask: the source has no such tokens; never predicted
    project ids 5, 6, ...         <- the source's other tokens, in the source's order

`IdMap` holds that correspondence; the vocabulary strings and merges are the source's own, so a
text splits into exactly the same tokens. An embedding may have more rows than the tokenizer has
tokens (Qwen2.5 pads its 151,665 tokens to 151,936 rows): rows no token reaches are left out.
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
    """Where each project token id comes from in a source vocabulary of `source_vocab_size` tokens."""

    source_vocab_size: int
    end_of_text: int                       # the source's end-of-text id (GPT-2's <|endoftext|>)
    begin_of_text: int | None = None       # its own start token; None: texts start with end_of_text

    @property
    def taken(self) -> tuple[int, ...]:
        """Source ids that become project specials (eos, and bos when it is a token of its own)."""
        return tuple(sorted({self.end_of_text} | ({self.begin_of_text} - {None})))

    @property
    def vocab_size(self) -> int:
        """Project ids: the 5 special ones plus the source's other ids."""
        return self.source_vocab_size + len(SPECIAL_TOKENS) - len(self.taken)

    def source_rows(self) -> list[int | None]:
        """For each project id, the source id whose weights it takes (None: no weights, zeros)."""
        specials: list[int | None] = [None] * len(SPECIAL_TOKENS)
        specials[EOS_ID] = self.end_of_text
        specials[BOS_ID] = self.end_of_text if self.begin_of_text is None else self.begin_of_text
        taken = set(self.taken)
        return specials + [i for i in range(self.source_vocab_size) if i not in taken]

    def to_project(self, source_ids: torch.Tensor) -> torch.Tensor:
        """Source ids -> project ids (any shape)."""
        shifted = source_ids + len(SPECIAL_TOKENS) - sum((source_ids > t).long() for t in self.taken)
        shifted = torch.where(source_ids == self.end_of_text, torch.full_like(source_ids, EOS_ID), shifted)
        if self.begin_of_text is None:
            return shifted
        return torch.where(source_ids == self.begin_of_text, torch.full_like(source_ids, BOS_ID), shifted)

    def to_source(self, project_ids: torch.Tensor) -> torch.Tensor:
        """Project ids -> source ids (bos becomes the start token or end-of-text; pad, unk, mask have none)."""
        if bool(((project_ids < len(SPECIAL_TOKENS)) & (project_ids != BOS_ID) & (project_ids != EOS_ID)).any()):
            raise ValueError("pad, unk and mask have no id in the source vocabulary")
        rows = torch.tensor([-1 if r is None else r for r in self.source_rows()])
        return rows[project_ids]

    def gather(self, source_table: torch.Tensor) -> torch.Tensor:
        """A table with a row per source id [V (or more), D] -> one row per project id [V + 5 - taken, D]."""
        sources = self.source_rows()
        table = source_table.new_zeros(len(sources), source_table.size(1))
        present = [p for p, s in enumerate(sources) if s is not None]
        table[present] = source_table[[sources[p] for p in present]]
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


def _is_byte_level(pre_tokenizer: dict) -> bool:
    """ByteLevel itself, or a Sequence that ends the splitting with it (Qwen2's regex split, SmolLM's digits)."""
    if pre_tokenizer.get("type") == "Sequence":
        return any(part.get("type") == "ByteLevel" for part in pre_tokenizer.get("pretokenizers") or [])
    return pre_tokenizer.get("type") == "ByteLevel"


def import_tokenizer(tokenizer_file: Path | None, vocab_file: Path | None, merges_file: Path | None,
                     embedding_rows: int, end_of_text: int, begin_of_text: int | None = None,
                     exact_size: bool = True) -> tuple[BPETokenizer, IdMap]:
    """The repository's tokenizer (tokenizer.json, else vocab.json + merges.txt) with project ids.

    exact_size: the tokenizer must have one token per embedding row (GPT-2); otherwise it may have
    fewer, and the rows past its last token are left out.
    """
    state = json.loads(_library_tokenizer(tokenizer_file, vocab_file, merges_file).to_str())
    model, pre_tokenizer = state.get("model") or {}, state.get("pre_tokenizer") or {}
    if model.get("type") != "BPE" or not _is_byte_level(pre_tokenizer):
        raise HubImportError(f"the tokenizer is not a byte-level BPE like GPT-2's (model {model.get('type')}, "
                             f"pre-tokenizer {pre_tokenizer.get('type')}); SentencePiece-style tokenizers "
                             "(Llama 2, TinyLlama, Mistral) are not supported")
    by_id = {i: token for token, i in model["vocab"].items()}
    by_id.update({added["id"]: added["content"] for added in state.get("added_tokens") or []})
    n_tokens = len(by_id)
    if sorted(by_id) != list(range(n_tokens)) or len(set(by_id.values())) != n_tokens or \
            n_tokens > embedding_rows or (exact_size and n_tokens != embedding_rows):
        raise HubImportError(f"the tokenizer has {n_tokens} tokens but config.json says vocab_size="
                             f"{embedding_rows}; the embedding must have one row per token")
    for role, token in (("end of text", end_of_text), ("start of text", begin_of_text)):
        if token is not None and token not in by_id:
            raise HubImportError(f"config.json names token {token} as the {role}, outside the vocabulary")
    clashes = sorted(set(SPECIAL_TOKENS) & set(by_id.values()))
    if clashes:
        raise HubImportError(f"the vocabulary already has tokens named {clashes}, the project's special tokens")
    ids = IdMap(n_tokens, end_of_text, None if begin_of_text == end_of_text else begin_of_text)
    sources = ids.source_rows()
    model["vocab"] = {**{name: i for i, name in enumerate(SPECIAL_TOKENS)},
                      **{by_id[s]: p for p, s in enumerate(sources) if p >= len(SPECIAL_TOKENS)}}
    state["added_tokens"] = []              # "<|endoftext|>" typed in a text is ordinary text
    state["post_processor"] = None
    return BPETokenizer(HFTokenizer.from_str(json.dumps(state))), ids
