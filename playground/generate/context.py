"""What decoding starts from: the prompt as ids, fitted into the model's context.

A model without an encoder (decoder-only): the prompt's ids (bos alone when the prompt is empty).
The context holds `max_len` tokens; a longer sequence keeps only its most recent
`window_after_slide(max_len)` tokens and is read again from position 0, which every positional
encoding allows. A model with an encoder (encoder-decoder): the prompt is the source (at most
`max_len` tokens are read); the decoder starts from bos and stops when its context is full.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from torch import nn

from playground.data import BOS_ID, Tokenizer
from playground.model import ModelConfig


def window_after_slide(max_len: int) -> int:
    """Tokens kept when the window slides: the most recent three quarters of the context (at least 1).

    Dropping a quarter at once means the window is re-read once every max_len / 4 steps, not every step.
    """
    return max(1, max_len - max_len // 4)


def check_model_and_tokenizer(model: nn.Module, tokenizer: Tokenizer) -> ModelConfig:
    """The model's config, after checking that it generates text with this tokenizer."""
    config = getattr(model, "config", None)
    if not isinstance(config, ModelConfig):
        raise TypeError(f"model must be a playground model with a ModelConfig, got {type(model).__name__}")
    if not model.has_decoder:
        raise ValueError(f"a {config.arch} model has no decoder, so it does not generate text token by token; "
                         f"pick a decoder_only or encoder_decoder model")
    if not isinstance(tokenizer, Tokenizer):
        raise TypeError(f"tokenizer must be a playground.data Tokenizer, got {type(tokenizer).__name__}")
    if tokenizer.vocab_size != config.target_vocab_size or tokenizer.vocab_size > config.vocab_size:
        raise ValueError(f"the tokenizer has {tokenizer.vocab_size} ids but the model's vocabulary has "
                         f"{config.target_vocab_size}; use the tokenizer the model was trained with")
    return config


@dataclass
class Prompt:
    """The prompt as decoding sees it."""

    decoder_ids: list[int]                    # the decoder's sequence so far (prompt ids, or bos)
    window_start: int                         # decoder_ids[window_start:] fits the context
    source_ids: list[int] | None = None       # encoder input (encoder-decoder only)
    unknown_chars: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def encode_prompt(model: nn.Module, tokenizer: Tokenizer, prompt: str, reserve: int = 0) -> Prompt:
    """Tokenise `prompt` and fit it into the context, leaving room for `reserve` more decoder tokens."""
    config = model.config
    if not isinstance(prompt, str):
        raise TypeError(f"the prompt must be a str, got {type(prompt).__name__}")
    unknown = tokenizer.unknown_chars(prompt)
    notices = []
    if unknown:
        notices.append(f"the tokenizer does not know {''.join(unknown)!r}; each became <unk> (id {tokenizer.unk_id})")
    ids = tokenizer.encode(prompt)
    if model.has_encoder:
        if not ids:
            raise ValueError("the source text is empty; type the text the model should transform")
        if len(ids) > config.max_len:
            notices.append(f"the source has {len(ids)} tokens but the model reads at most {config.max_len}; "
                           f"only the first {config.max_len} are used")
            ids = ids[:config.max_len]
        return Prompt([BOS_ID], 0, ids, unknown, notices)
    if not ids:
        ids = [BOS_ID]
    start = 0
    room = max(1, config.max_len - reserve)
    if len(ids) > room:
        start = len(ids) - min(window_after_slide(config.max_len), room)
        notices.append(f"the prompt has {len(ids)} tokens but the context holds {config.max_len}; "
                       f"the window slid past the first {start} and reads the last {len(ids) - start}")
    return Prompt(ids, start, None, unknown, notices)
