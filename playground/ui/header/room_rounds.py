"""A class room's round from a model and a passage: the model's next-token probabilities and attention.

A round hides the passage's last token: the class and the model both see the text before it and
guess it. One forward pass of a decoder-only model over the prompt (at most its `max_len` last
tokens) records every layer's self-attention; the last position's row, averaged over heads, is what
the model read when it made its prediction:

    round_spec(entry, "To be, or not to be")  -> RoundSpec(prompt_tokens, vocabulary, probabilities, answer, attention)

No web stack here: the page (room_page) turns a ValueError into a message.
"""
from __future__ import annotations

from functools import lru_cache

import torch

from playground.data import Tokenizer
from playground.model import Trace
from playground.zoo import ModelEntry

from .room_rules import RoundSpec, vocabulary_index

MAX_PASSAGE_CHARS = 400
PICKER_TOKENS = 400           # tokens a phone offers to pick from (a character model's are all of them)
SPECIAL_IDS = 5               # ids 0..4 are the project's special tokens (pad, unk, bos, eos, mask)


def playable(entry: ModelEntry) -> bool:
    """A model that writes text left to right (decoder-only): the only kind a round can ask."""
    return entry.model.has_decoder and not entry.model.has_encoder


@lru_cache(maxsize=16)
def vocabulary(tokenizer: Tokenizer) -> tuple[tuple[str, ...], dict[str, int]]:
    """The tokenizer's tokens as text, by id, and their index (computed once per tokenizer)."""
    tokens = tuple(tokenizer.decode([i], skip_special=False) for i in range(tokenizer.vocab_size))
    return tokens, vocabulary_index(tokens)


@lru_cache(maxsize=16)
def picker_tuple(tokenizer: Tokenizer) -> tuple[str, ...]:
    """picker_tokens, computed once per tokenizer."""
    return tuple(picker_tokens(tokenizer))


def picker_tokens(tokenizer: Tokenizer) -> list[str]:
    """What a phone offers to pick: every token of a character model; of a larger vocabulary its first
    PICKER_TOKENS whole words (a leading space and letters: a BPE vocabulary's early ids are its most
    common merges), then other pieces. Special tokens left out."""
    tokens, _ = vocabulary(tokenizer)
    pieces = [t for t in tokens[SPECIAL_IDS:] if t.strip() and t.isprintable()]
    if len(pieces) > PICKER_TOKENS:
        words = [t for t in pieces if t.startswith(" ") and t[1:].isalpha()]
        pieces = words + pieces                   # the words first; dict.fromkeys keeps each once
    return list(dict.fromkeys(pieces))[:PICKER_TOKENS]


@torch.no_grad()
def round_spec(entry: ModelEntry, passage: str) -> RoundSpec:
    """The round that hides `passage`'s last token from `entry`; ValueError when the passage is too short
    or too long, or the model cannot play."""
    if not playable(entry):
        raise ValueError("room_model_not_playable")
    if not isinstance(passage, str) or len(passage) > MAX_PASSAGE_CHARS:
        raise ValueError("room_bad_passage")
    ids = entry.tokenizer.encode(passage)
    if len(ids) < 2:
        raise ValueError("room_bad_passage")
    prompt, answer = ids[:-1][-entry.config.max_len:], ids[-1]
    trace = Trace(include=("decoder.*.self_attn.weights",))
    logits = entry.model(torch.tensor([prompt]), trace=trace)                    # [1, T, V]
    probabilities = torch.softmax(logits[0, -1].double(), dim=-1)               # [V]
    site = next(s for s in entry.model.sites() if s.key(0, "weights").startswith("decoder"))
    weights = trace.attention(site)[:, 0, :, -1, :].mean(dim=1)                 # [L, T]: last query, mean over heads
    tokens, index = vocabulary(entry.tokenizer)
    return RoundSpec(model=entry.name, prompt_tokens=tuple(tokens[i] for i in prompt), vocabulary=tokens,
                     probabilities=tuple(probabilities.tolist()), answer=answer,
                     attention=tuple(tuple(row) for row in weights.double().tolist()), index=index,
                     picker=picker_tuple(entry.tokenizer))
