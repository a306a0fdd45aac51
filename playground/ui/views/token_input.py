"""Text typed for a model, checked and turned into its token ids, or a gr.Error saying what to change."""
from __future__ import annotations

from ..inputs.validation import MAX_INPUT_CHARS, check_known_chars, check_text, fail
from playground.zoo import ModelEntry
from ..text.i18n import text


def encode_checked(entry: ModelEntry, value, lang: str, limit: int, what: str = "input") -> list[int]:
    """The ids of `value`: non-empty text the model's tokenizer knows, at most `limit` tokens."""
    value = check_text(value, lang, MAX_INPUT_CHARS, what=what)
    check_known_chars(value, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(value)
    if len(ids) > limit:
        raise fail(lang, "err_too_many_tokens", what=text(lang, f"what_{what}"), n=len(ids), limit=limit)
    return ids


def pieces(entry: ModelEntry, ids: list[int]) -> list[str]:
    """The display text of each id (whitespace visible, special tokens by name)."""
    return [entry.tokenizer.id_to_piece(i) for i in ids]
