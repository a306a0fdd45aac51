"""The interface every tokenizer shares, the fixed special tokens, and JSON dispatch.

Special token ids are the same for every tokenizer in the project:
pad=0, bos=1, eos=2, unk=3, mask=4. Ordinary tokens start at id 5.

Display strings (``id_to_piece`` and ``TokenSpan.piece``) make whitespace visible:
space -> "␣", newline -> "↵", tab -> "⇥", carriage return -> "␍". Bytes that are only
part of a UTF-8 character (byte-level BPE) are shown as hex, e.g. "<E4><B8>".
Special tokens are shown as "<pad>", "<bos>", "<eos>", "<unk>", "<mask>".
"""
from __future__ import annotations

import json
import operator
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable

PAD_ID, BOS_ID, EOS_ID, UNK_ID, MASK_ID = 0, 1, 2, 3, 4
SPECIAL_TOKENS: tuple[str, ...] = ("<pad>", "<bos>", "<eos>", "<unk>", "<mask>")
NUM_SPECIAL = len(SPECIAL_TOKENS)

_VISIBLE_WHITESPACE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}


def visible(text: str) -> str:
    """Return ``text`` with whitespace replaced by visible symbols (see module docstring)."""
    return "".join(_VISIBLE_WHITESPACE.get(ch, ch) for ch in text)


def bytes_to_display(data: bytes) -> str:
    """Decode UTF-8 bytes for display: complete characters as text, stray bytes as <XX>."""
    out: list[str] = []
    i = 0
    while i < len(data):
        lead = data[i]
        length = 1 if lead < 0x80 else 2 if lead >> 5 == 0b110 else 3 if lead >> 4 == 0b1110 else 4
        try:
            out.append(visible(data[i:i + length].decode("utf-8")))
            i += length
        except UnicodeDecodeError:
            out.append(f"<{lead:02X}>")
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class TokenSpan:
    """One token of a text: its id, display string and character span ``text[start:end]``."""

    id: int
    piece: str
    start: int
    end: int


class Tokenizer(ABC):
    """Text <-> token ids, with the project's fixed special tokens at ids 0..4."""

    kind: ClassVar[str]
    pad_id: ClassVar[int] = PAD_ID
    bos_id: ClassVar[int] = BOS_ID
    eos_id: ClassVar[int] = EOS_ID
    unk_id: ClassVar[int] = UNK_ID
    mask_id: ClassVar[int] = MASK_ID

    _by_kind: ClassVar[dict[str, type["Tokenizer"]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Tokenizer._by_kind[cls.kind] = cls

    @property
    @abstractmethod
    def vocab_size(self) -> int:
        """Number of token ids, special tokens included."""

    @abstractmethod
    def _encode_text(self, text: str) -> list[int]:
        """Ids of ``text`` without any special tokens added."""

    @abstractmethod
    def _decode_plain(self, ids: list[int]) -> str:
        """Text of ids that contain no pad/bos/eos/mask."""

    @abstractmethod
    def token_spans(self, text: str) -> list[TokenSpan]:
        """Every token of ``text`` with its display string and character span."""

    @abstractmethod
    def id_to_piece(self, id: int) -> str:
        """Human-readable display string of one token id (see module docstring)."""

    @abstractmethod
    def unknown_chars(self, text: str) -> list[str]:
        """Distinct characters of ``text`` this tokenizer cannot represent, in order of appearance."""

    @abstractmethod
    def _state(self) -> dict[str, Any]:
        """JSON-serialisable state, without the "type" field."""

    @classmethod
    @abstractmethod
    def _from_state(cls, state: dict[str, Any]) -> "Tokenizer":
        """Inverse of ``_state``."""

    def encode(self, text: str, add_bos: bool = False, add_eos: bool = False) -> list[int]:
        """Token ids of ``text``, optionally wrapped in bos / eos."""
        if not isinstance(text, str):
            raise TypeError(f"encode() needs a str, got {type(text).__name__}")
        ids = self._encode_text(text)
        return ([BOS_ID] if add_bos else []) + ids + ([EOS_ID] if add_eos else [])

    def decode(self, ids: Iterable[int], skip_special: bool = True) -> str:
        """Text of ``ids`` (a list or a 1-D tensor).

        With ``skip_special`` pad, bos, eos and mask are dropped and unk becomes U+FFFD, so a
        reader still sees where an unknown character was. Without it every special token is
        written as its name, e.g. "<eos>".
        """
        ids = self._check_ids(ids)
        out: list[str] = []
        run: list[int] = []
        for i in ids:
            if i >= NUM_SPECIAL:
                run.append(i)
                continue
            if run:
                out.append(self._decode_plain(run))
                run = []
            if not skip_special:
                out.append(SPECIAL_TOKENS[i])
            elif i == UNK_ID:
                out.append("\ufffd")
        if run:
            out.append(self._decode_plain(run))
        return "".join(out)

    def to_json(self) -> str:
        """The tokenizer as a JSON string; ``tokenizer_from_json`` restores it exactly."""
        return json.dumps({"type": self.kind, **self._state()}, ensure_ascii=False)

    def _check_ids(self, ids: Iterable[int]) -> list[int]:
        if hasattr(ids, "tolist"):
            ids = ids.tolist()
        checked: list[int] = []
        for i in ids:
            try:
                if isinstance(i, bool):
                    raise TypeError
                i = operator.index(i)
            except TypeError:
                raise TypeError(f"token ids must be integers, got {i!r}") from None
            if not 0 <= i < self.vocab_size:
                raise ValueError(f"token id {i} is outside the vocabulary (0..{self.vocab_size - 1})")
            checked.append(i)
        return checked

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._state() == self._state()

    def __hash__(self) -> int:
        """The hash of the tokenizer's JSON, computed once: a tokenizer does not change once built, and
        its JSON is large (a BPE's merges; views key their caches by the tokenizer)."""
        if getattr(self, "_json_hash", None) is None:
            self._json_hash = hash(self.to_json())
        return self._json_hash

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the hash: another process hashes strings with its own seed."""
        return {name: value for name, value in self.__dict__.items() if name != "_json_hash"}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(vocab_size={self.vocab_size})"


def tokenizer_from_json(s: str) -> Tokenizer:
    """Rebuild a tokenizer saved with ``Tokenizer.to_json``, dispatching on its "type" field."""
    try:
        state = json.loads(s)
    except (TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"tokenizer JSON could not be parsed: {exc}") from exc
    except RecursionError:
        raise ValueError("tokenizer JSON is nested more deeply than any tokenizer") from None
    if not isinstance(state, dict) or "type" not in state:
        raise ValueError('tokenizer JSON must be an object with a "type" field ("char" or "bpe")')
    kind = state.pop("type")
    if kind not in Tokenizer._by_kind:
        raise ValueError(f"unknown tokenizer type {kind!r}; expected one of {sorted(Tokenizer._by_kind)}")
    return Tokenizer._by_kind[kind]._from_state(state)
