"""Byte-level BPE tokenizer trained with the Hugging Face `tokenizers` library.

Text is first turned into UTF-8 bytes, so every string (Chinese, emoji, accents) has an
exact encoding and decoding; no character is ever unknown. The library writes each byte
as a printable stand-in character (a space is "Ġ", a newline "Ċ"); ``merges()`` returns
those raw symbols by default and display strings with ``display=True``.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable

from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers, trainers

from playground.data.tokenizer import NUM_SPECIAL, SPECIAL_TOKENS, TokenSpan, Tokenizer, bytes_to_display

BYTE_ALPHABET_SIZE = 256
MIN_VOCAB_SIZE = BYTE_ALPHABET_SIZE + NUM_SPECIAL + 1
MAX_VOCAB_SIZE = 65_536


@lru_cache(maxsize=1)
def _symbol_to_byte() -> dict[str, int]:
    """Inverse of the byte -> printable character table used by byte-level BPE (GPT-2's)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    codepoints = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            codepoints.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, codepoints)}


def symbols_to_display(symbols: str) -> str:
    """Display string of a raw byte-level token such as "Ġthe" (-> "␣the")."""
    table = _symbol_to_byte()
    return bytes_to_display(bytes(table[s] for s in symbols))


class BPETokenizer(Tokenizer):
    """Byte-level BPE; ids 0..4 are the special tokens, then the 256 bytes, then merges."""

    kind = "bpe"

    def __init__(self, hf_tokenizer: HFTokenizer):
        for i, name in enumerate(SPECIAL_TOKENS):
            if hf_tokenizer.id_to_token(i) != name:
                raise ValueError(f"BPE vocabulary must have {name} at id {i}; train it with BPETokenizer.train")
        self._hf = hf_tokenizer
        model = json.loads(hf_tokenizer.to_str())["model"]
        self._merges: list[tuple[str, str]] = [(a, b) for a, b in model["merges"]]
        self._pieces: dict[int, str] = {}         # id -> display piece, filled as ids are shown

    @classmethod
    def train(
        cls, text_or_iter: str | Iterable[str], vocab_size: int, min_frequency: int = 2
    ) -> "BPETokenizer":
        """Learn merges from a text (or an iterable of texts) until ``vocab_size`` tokens exist.

        The vocabulary may stay smaller when the text has no pair left that occurs at least
        ``min_frequency`` times.
        """
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
            raise TypeError(f"vocab_size must be an int, got {vocab_size!r}")
        if not MIN_VOCAB_SIZE <= vocab_size <= MAX_VOCAB_SIZE:
            raise ValueError(
                f"vocab_size must be between {MIN_VOCAB_SIZE} and {MAX_VOCAB_SIZE}: byte-level BPE already "
                f"uses {BYTE_ALPHABET_SIZE} byte tokens + {NUM_SPECIAL} special tokens, got {vocab_size}"
            )
        if isinstance(min_frequency, bool) or not isinstance(min_frequency, int) or min_frequency < 1:
            raise ValueError(f"min_frequency must be an int >= 1, got {min_frequency!r}")
        texts = [text_or_iter] if isinstance(text_or_iter, str) else list(text_or_iter)
        if not all(isinstance(t, str) for t in texts):
            raise TypeError("BPE training needs a str or an iterable of str")
        if not any(texts):
            raise ValueError("cannot train BPE on empty text; give some text")

        hf = HFTokenizer(models.BPE())
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        hf.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            special_tokens=list(SPECIAL_TOKENS),
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
        hf.train_from_iterator(texts, trainer)
        # The special tokens stay in the vocabulary at ids 0..4 but are no longer matched
        # inside text: "<mask>" typed by a user is ordinary text and round-trips exactly.
        state = json.loads(hf.to_str())
        state["added_tokens"] = []
        return cls(HFTokenizer.from_str(json.dumps(state)))

    @property
    def vocab_size(self) -> int:
        return self._hf.get_vocab_size()

    def merges(self, display: bool = False) -> list[tuple[str, str]]:
        """The learned merges in the order they were learned (and are applied).

        Raw byte-level symbols by default; ``display=True`` gives display strings instead.
        """
        if display:
            return [(symbols_to_display(a), symbols_to_display(b)) for a, b in self._merges]
        return list(self._merges)

    def _encode_text(self, text: str) -> list[int]:
        return self._hf.encode(text, add_special_tokens=False).ids

    def _decode_plain(self, ids: list[int]) -> str:
        return self._hf.decode(ids, skip_special_tokens=False)

    def token_spans(self, text: str) -> list[TokenSpan]:
        enc = self._hf.encode(text, add_special_tokens=False)
        return [
            TokenSpan(id=i, piece=self.id_to_piece(i), start=start, end=end)
            for i, (start, end) in zip(enc.ids, enc.offsets)
        ]

    def id_to_piece(self, id: int) -> str:
        piece = self._pieces.get(id)
        if piece is None:
            (id,) = self._check_ids([id])
            piece = SPECIAL_TOKENS[id] if id < NUM_SPECIAL else symbols_to_display(self._hf.id_to_token(id))
            self._pieces[id] = piece
        return piece

    def unknown_chars(self, text: str) -> list[str]:
        return []

    def _state(self) -> dict[str, Any]:
        return {"tokenizer": json.loads(self._hf.to_str())}

    @classmethod
    def _from_state(cls, state: dict[str, Any]) -> "BPETokenizer":
        if not isinstance(state.get("tokenizer"), dict):
            raise ValueError('bpe tokenizer JSON needs a "tokenizer" object (the tokenizers library format)')
        try:
            hf = HFTokenizer.from_str(json.dumps(state["tokenizer"]))
        except Exception as exc:
            raise ValueError(f"bpe tokenizer JSON is not a valid tokenizers-library tokenizer: {exc}") from exc
        return cls(hf)
