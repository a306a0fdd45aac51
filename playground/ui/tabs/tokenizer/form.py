"""The Tokenizer tab's controls as one value, and how a link names them.

    ?view=tokenizer&text=The%20cat%20sat.&corpus=bundled&vocab_size=400&lang=en
"""
from __future__ import annotations

from dataclasses import dataclass

from ...page.forms import Choice, Form, Integer, String, param
from ...inputs.validation import BPE_VOCAB_RANGE, MAX_TOKENIZER_CHARS
from ...views.tokenizer import CORPUS_CHOICES, DEFAULT_TEXT, DEFAULT_VOCAB


@dataclass(frozen=True)
class TokenizerForm(Form):
    VIEW = "tokenizer"

    text: str = param(String(DEFAULT_TEXT, MAX_TOKENIZER_CHARS))
    corpus: str = param(Choice("bundled", CORPUS_CHOICES))
    vocab_size: int = param(Integer(DEFAULT_VOCAB, *BPE_VOCAB_RANGE))
