"""The Tokenizer tab's views, which the Lessons draw too: the same text cut by a character tokenizer
and by a byte-level BPE trained live, as coloured token spans, counts, the merges in order, and how
Chinese becomes bytes."""
from __future__ import annotations

import functools
from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.data import BPETokenizer, CharTokenizer, CorpusUnavailable, Tokenizer, load_corpus

from ..inputs.validation import BPE_VOCAB_RANGE, MAX_CORPUS_CHARS, MAX_TOKENIZER_CHARS, check_number, check_text, fail
from ..text.i18n import text
from ..text.markup import literal

CORPUS_CHOICES = ("bundled", "tiny_shakespeare", "this_text")
DEFAULT_VOCAB = 400
SHOWN_MERGES = 40
DEFAULT_TEXT = "The transformer reads every token at once. 注意力机制"
EXAMPLES = [
    ["The transformer reads every token at once. 注意力机制", "bundled", 400],
    ["Attention is all you need: the attention of attention.", "bundled", 1000],
    ["注意力就是你所需要的一切。", "bundled", 400],
    ["To be, or not to be, that is the question.", "tiny_shakespeare", 2000],
    ["unbelievably unbreakable undertakings", "this_text", 300],
]


@functools.lru_cache(maxsize=4)
def corpus_text(name: str) -> str:
    """A named corpus, cut to the first MAX_CORPUS_CHARS characters (training stays well under a second)."""
    return load_corpus(name, allow_download=False)[:MAX_CORPUS_CHARS]


def available_corpora() -> list[str]:
    """The corpus choices that work on this machine (tiny Shakespeare only when a copy is present)."""
    choices = []
    for name in CORPUS_CHOICES:
        if name in ("bundled", "this_text"):
            choices.append(name)
            continue
        try:
            corpus_text(name)
            choices.append(name)
        except CorpusUnavailable:
            pass
    return choices


@functools.lru_cache(maxsize=32)
def trained_tokenizers(training_text: str, vocab_size: int) -> tuple[CharTokenizer, BPETokenizer]:
    """The character vocabulary of `training_text` and a BPE with `vocab_size` tokens learned on it."""
    return CharTokenizer.from_text(training_text), BPETokenizer.train(training_text, vocab_size)


def _spans(tokenizer: Tokenizer, value: str) -> list[tuple]:
    return [(s.piece, s.start, s.end, s.id) for s in tokenizer.token_spans(value)]


def utf8_note(value: str, lang: str) -> str:
    """How each non-ASCII character of `value` is written in UTF-8 bytes (empty when all ASCII)."""
    wide = list(dict.fromkeys(ch for ch in value if ord(ch) > 127))[:6]
    if not wide:
        return ""
    lines = [text(lang, "utf8_line", char=literal(ch), n=len(ch.encode("utf-8")),
                  bytes=" ".join(f"{b:02X}" for b in ch.encode("utf-8"))) for ch in wide]
    return text(lang, "utf8_intro") + "\n" + "\n".join(f"- {line}" for line in lines)


def tokenize_views(value, corpus, vocab_size, lang: str) -> tuple[go.Figure, go.Figure, str, go.Figure, str]:
    """Character spans, BPE spans, the counts, the first merges and the UTF-8 note for `value`."""
    value = check_text(value, lang, MAX_TOKENIZER_CHARS, what="tokenizer_text")
    vocab_size = check_number(vocab_size, lang, "vocab_size", *BPE_VOCAB_RANGE, integer=True)
    if corpus not in CORPUS_CHOICES:
        raise fail(lang, "err_bad_choice", name=text(lang, "param_corpus"), value=corpus,
                   choices=", ".join(CORPUS_CHOICES))
    try:
        training_text = value if corpus == "this_text" else corpus_text(corpus)
    except CorpusUnavailable:
        raise fail(lang, "err_corpus_missing", corpus=text(lang, f"corpus_{corpus}")) from None
    chars, bpe = trained_tokenizers(training_text, vocab_size)
    t = partial(text, lang)
    span_words = dict(id_label=t("w_id"), piece_label=t("w_piece"), offsets_label=t("w_characters"))
    char_spans, bpe_spans = _spans(chars, value), _spans(bpe, value)
    char_figure = viz.token_spans(value, char_spans, title=t("fig_char_tokens", n=len(char_spans)), **span_words)
    bpe_figure = viz.token_spans(value, bpe_spans, title=t("fig_bpe_tokens", n=len(bpe_spans)), **span_words)
    unknown = chars.unknown_chars(value)
    counts = t("token_counts", chars=len(value), n_char=len(char_spans), char_vocab=chars.vocab_size,
               n_bpe=len(bpe_spans), bpe_vocab=bpe.vocab_size, requested=vocab_size,
               ratio=len(value) / max(1, len(bpe_spans)), corpus=t(f"corpus_{corpus}"), corpus_chars=len(training_text))
    if unknown:
        shown = literal(" ".join(repr(c) for c in unknown[:12]))
        counts += "\n\n" + t("token_unknown", chars=shown, count=len(unknown))
    if bpe.vocab_size < vocab_size:
        counts += "\n\n" + t("token_vocab_capped", got=bpe.vocab_size, requested=vocab_size)
    merges = bpe.merges(display=True)[:SHOWN_MERGES]
    merges_figure = viz.merges_table(merges, title=t("fig_merges", n=len(merges)),
                                     headers=(t("w_rank"), t("w_left"), t("w_right"), t("w_merged")))
    return char_figure, bpe_figure, counts, merges_figure, utf8_note(value, lang)
