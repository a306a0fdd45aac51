"""Byte-level BPE tokenizer trained with the Hugging Face `tokenizers` library.

Text is first turned into UTF-8 bytes, so every string (Chinese, emoji, accents) has an
exact encoding and decoding; no character is ever unknown. Every BPETokenizer read from JSON runs
one fixed pipeline, the one ``train`` builds: no normalizer, GPT-2's byte-level pre-tokenizer, the
BPE merges, the byte-level decoder. A saved tokenizer contributes only its vocabulary and merges;
one that carries anything else (a normalizer, a Split regex, added tokens beyond the specials,
another decoder, BPE options) is refused with ForeignTokenizer, which names what it carries. The library writes each byte
as a printable stand-in character (a space is "Ġ", a newline "Ċ"); ``merges()`` returns
those raw symbols by default and display strings with ``display=True``.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterable

from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers, trainers

from playground.data.tokenizer import NUM_SPECIAL, SPECIAL_TOKENS, TokenSpan, Tokenizer, bytes_to_display

BYTE_ALPHABET_SIZE = 256
_SHOWN_NAME = 40                # characters of a component's type name shown in a refusal
# The parts of a tokenizers-library JSON and the value each must have in the Playground's pipeline
# (None: absent); the pre-tokenizer is the one ``_pipeline`` sets, compared field by field.
_FIXED_PRE_TOKENIZER = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
_BPE_DEFAULTS = {"dropout": None, "unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None,
                 "fuse_unk": False, "byte_fallback": False, "ignore_merges": False}


class ForeignTokenizer(ValueError):
    """A tokenizer JSON carrying parts the Playground's fixed BPE pipeline does not run. ``parts`` names
    each as the file does, e.g. ("normalizer Replace", "pre_tokenizer Sequence(Split, ByteLevel)")."""

    def __init__(self, parts: list[str]):
        self.parts = tuple(parts)
        super().__init__("the tokenizer carries parts the Playground does not run (it reads only its own "
                         "byte-level BPE, a vocabulary and merges): " + ", ".join(self.parts))
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

        hf = _pipeline(models.BPE())
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
        return self._library_encode(text).ids

    def _library_encode(self, text: str):
        """The library's encoding of `text`. A panic inside the library (a pyo3 PanicException, which is a
        BaseException: a regex past its retry limit, say) becomes a ValueError with a message."""
        try:
            return self._hf.encode(text, add_special_tokens=False)
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as error:                      # noqa: BLE001 - pyo3's PanicException
            raise ValueError(f"the tokenizer failed on this text ({type(error).__name__}: {str(error)[:200]})") from None

    def _decode_plain(self, ids: list[int]) -> str:
        return self._hf.decode(ids, skip_special_tokens=False)

    def token_spans(self, text: str) -> list[TokenSpan]:
        enc = self._library_encode(text)
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
        """The tokenizer rebuilt from the saved vocabulary and merges on the fixed pipeline (ForeignTokenizer
        when the JSON carries anything else, ValueError when it is not a byte-level BPE of this project)."""
        saved = state.get("tokenizer")
        if not isinstance(saved, dict):
            raise ValueError('bpe tokenizer JSON needs a "tokenizer" object (the tokenizers library format)')
        foreign = _foreign_parts(saved)
        if foreign:
            raise ForeignTokenizer(foreign)
        vocab, merges = _vocabulary(saved["model"]), _merges(saved["model"])
        try:
            bpe = models.BPE(vocab, merges)
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as error:                      # noqa: BLE001 - the library may panic
            raise ValueError(f"bpe tokenizer JSON is not a valid BPE: {str(error)[:200]}") from None
        return cls(_pipeline(bpe))


def _pipeline(bpe: models.BPE) -> HFTokenizer:
    """The Playground's fixed pipeline around `bpe`: no normalizer, byte-level pre-tokenizer and decoder."""
    hf = HFTokenizer(bpe)
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    return hf


def _type_name(component: Any, nested: bool = True) -> str:
    """A component's type as the file names it, a sequence's parts in brackets ("Sequence(Split, ByteLevel)"),
    reduced to letters, digits and _ and cut short: it is shown to the person who uploaded the file."""
    if not isinstance(component, dict):
        return type(component).__name__
    name = re.sub(r"[^A-Za-z0-9_]", "", str(component.get("type", "?")))[:_SHOWN_NAME] or "?"
    inner = component.get("pretokenizers") or component.get("normalizers") or component.get("processors") \
        or component.get("decoders")
    if nested and isinstance(inner, list):
        name += "(" + ", ".join(_type_name(part, False) for part in inner[:4]) + (", ..." if len(inner) > 4 else "") + ")"
    return name


def _foreign_parts(saved: dict) -> list[str]:
    """What `saved` (a tokenizers-library JSON) carries beyond a vocabulary and merges, named as in the file."""
    parts = [f"{key} {_type_name(saved[key])}" for key in ("normalizer", "post_processor", "truncation", "padding")
             if saved.get(key) is not None]
    pre = saved.get("pre_tokenizer")
    if pre is not None and pre != _FIXED_PRE_TOKENIZER:
        parts.append(f"pre_tokenizer {_type_name(pre)}")
    decoder = saved.get("decoder")
    if decoder is not None and not (isinstance(decoder, dict) and decoder.get("type") == "ByteLevel"):
        parts.append(f"decoder {_type_name(decoder)}")
    added = saved.get("added_tokens") or []
    beyond = [token for token in added if not (isinstance(token, dict) and token.get("id") in range(NUM_SPECIAL)
                                               and token.get("content") == SPECIAL_TOKENS[token["id"]])] \
        if isinstance(added, list) else [added]
    if beyond:
        parts.append(f"added_tokens {len(beyond)}")
    model = saved.get("model")
    if not isinstance(model, dict) or model.get("type", "BPE") != "BPE":
        parts.append(f"model {_type_name(model)}")
    else:
        parts += [f"model {key}" for key, default in _BPE_DEFAULTS.items() if model.get(key, default) != default]
    return parts


def _vocabulary(model: dict) -> dict[str, int]:
    """The saved vocabulary: token -> id, the ids 0..n-1 once each, every ordinary token made of byte symbols."""
    vocab = model.get("vocab")
    if not isinstance(vocab, dict) or not all(isinstance(k, str) and type(v) is int for k, v in vocab.items()):
        raise ValueError('bpe tokenizer JSON needs a "vocab" object of token -> id')
    if sorted(vocab.values()) != list(range(len(vocab))):
        raise ValueError("the bpe vocabulary's ids must be 0..n-1, each once")
    if not NUM_SPECIAL + BYTE_ALPHABET_SIZE <= len(vocab) <= MAX_VOCAB_SIZE:
        raise ValueError(f"a byte-level BPE has {NUM_SPECIAL + BYTE_ALPHABET_SIZE} to {MAX_VOCAB_SIZE} tokens, "
                         f"this one {len(vocab)}")
    symbols = _symbol_to_byte()
    strange = next((token for token, i in vocab.items() if i >= NUM_SPECIAL
                    and not (token and all(ch in symbols for ch in token))), None)
    if strange is not None:
        raise ValueError(f"the bpe vocabulary holds {strange[:_SHOWN_NAME]!r}, which is not written in byte symbols")
    return vocab


def _merges(model: dict) -> list[tuple[str, str]]:
    """The saved merges as pairs (["a", "b"] or the older "a b"), each of two tokens whose join is a token."""
    merges, vocab = model.get("merges"), model["vocab"]
    if not isinstance(merges, list):
        raise ValueError('bpe tokenizer JSON needs a "merges" list')
    pairs = []
    for merge in merges:
        pair = tuple(merge.split(" ")) if isinstance(merge, str) else tuple(merge) if isinstance(merge, list) else ()
        if len(pair) != 2 or not all(isinstance(p, str) and p in vocab for p in pair) or pair[0] + pair[1] not in vocab:
            raise ValueError(f"the bpe merge {str(merge)[:_SHOWN_NAME]!r} does not join two tokens of the vocabulary "
                             "into a third")
        pairs.append(pair)
    return pairs
