"""Character tokenizer: one token per Unicode character, unknown characters map to unk."""
from __future__ import annotations

from typing import Any, Iterable

from playground.data.tokenizer import NUM_SPECIAL, SPECIAL_TOKENS, UNK_ID, TokenSpan, Tokenizer, visible


class CharTokenizer(Tokenizer):
    """Ids 0..4 are the special tokens; ids 5.. are ``chars`` in sorted order."""

    kind = "char"

    def __init__(self, chars: Iterable[str]):
        chars = list(chars)
        bad = [c for c in chars if not isinstance(c, str) or len(c) != 1]
        if bad:
            raise ValueError(f"CharTokenizer needs single characters, got {bad[:5]!r}")
        if not chars:
            raise ValueError("CharTokenizer needs at least one character; pass a non-empty text or alphabet")
        self._chars: list[str] = sorted(set(chars))
        self._id_of: dict[str, int] = {c: NUM_SPECIAL + i for i, c in enumerate(self._chars)}

    @classmethod
    def from_text(cls, text: str, extra_chars: str = "") -> "CharTokenizer":
        """Vocabulary of the distinct characters of ``text`` plus ``extra_chars``."""
        if not isinstance(text, str) or not isinstance(extra_chars, str):
            raise TypeError("from_text() needs str arguments")
        if not text and not extra_chars:
            raise ValueError("cannot build a character vocabulary from empty text; give some text")
        return cls(text + extra_chars)

    @property
    def chars(self) -> list[str]:
        """The ordinary characters, in id order (id = index + 5)."""
        return list(self._chars)

    @property
    def vocab_size(self) -> int:
        return NUM_SPECIAL + len(self._chars)

    def _encode_text(self, text: str) -> list[int]:
        return [self._id_of.get(c, UNK_ID) for c in text]

    def _decode_plain(self, ids: list[int]) -> str:
        return "".join(self._chars[i - NUM_SPECIAL] for i in ids)

    def token_spans(self, text: str) -> list[TokenSpan]:
        ids = self.encode(text)
        return [
            TokenSpan(id=i, piece=visible(c) if i != UNK_ID else SPECIAL_TOKENS[UNK_ID], start=k, end=k + 1)
            for k, (i, c) in enumerate(zip(ids, text))
        ]

    def id_to_piece(self, id: int) -> str:
        (id,) = self._check_ids([id])
        return SPECIAL_TOKENS[id] if id < NUM_SPECIAL else visible(self._chars[id - NUM_SPECIAL])

    def unknown_chars(self, text: str) -> list[str]:
        return list(dict.fromkeys(c for c in text if c not in self._id_of))

    def _state(self) -> dict[str, Any]:
        return {"chars": "".join(self._chars)}

    @classmethod
    def _from_state(cls, state: dict[str, Any]) -> "CharTokenizer":
        if not isinstance(state.get("chars"), str):
            raise ValueError('char tokenizer JSON needs a "chars" string')
        return cls(state["chars"])
