"""What a headline number means, said beside it: a loss next to the loss of uniform guessing (ln V)
and of knowing only the tokens' frequencies (the unigram baseline), a perplexity as "as unsure as a
fair choice among N tokens", exact match next to BLEU, an attention weight as a share of one.

A shipped model's results are read from its card's "## Held-out results" lines, e.g.
"- validation loss: 1.4720 (perplexity 4.358)" or "- BLEU of greedy decodes (...): 99.1".
"""
from __future__ import annotations

import functools
import math
import re
import threading
import weakref

from playground.analysis.baselines import as_unsure_as, uniform_loss, unigram_loss
from playground.data import EOS_ID, CorpusUnavailable, load_corpus
from playground.data.tokenizer import NUM_SPECIAL
from playground.zoo import ModelEntry

from ..text.i18n import text

_HELD_OUT = re.compile(r"^- (?P<name>[^:]+): (?P<value>.+)$")
_CORPUS = re.compile(r"Corpus `(?P<name>[a-z_]+)`")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
TASK_TARGETS = 500          # held-out targets a task model's unigram baseline is counted on
RANDOM_BLOCKS = "Repeated random sequences"      # how a card describes uniformly drawn repeated blocks


def held_out(card: str) -> dict[str, str]:
    """The "Held-out results" lines of a model card: name -> value as written."""
    results, inside = {}, False
    for line in card.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Held-out results"
        elif inside and (match := _HELD_OUT.match(line.strip())):
            results[match["name"]] = match["value"]
    return results


def card_number(card: str, name: str) -> float | None:
    """The first number of the held-out result whose name starts with `name` ("validation loss",
    "token accuracy", "exact match", "BLEU"), a percentage as a share; None when the card has none."""
    for key, value in held_out(card).items():
        if key.lower().startswith(name.lower()):
            match = _NUMBER.search(value)
            if match is None:
                return None
            number = float(match.group())
            return number / 100 if value[match.end():].startswith("%") else number
    return None


@functools.lru_cache(maxsize=16)
def _corpus_unigram(corpus: str, entry_name: str, tokenizer) -> float | None:
    try:
        corpus_text = load_corpus(corpus, allow_download=False)
    except CorpusUnavailable:
        return None
    return unigram_loss(tokenizer.encode(corpus_text))


@functools.lru_cache(maxsize=16)
def _task_unigram(entry_name: str, task) -> float:
    ids = []
    for _, target in task.held_out(TASK_TARGETS):
        ids += task.tokenizer.encode(target) + [EOS_ID]
    return unigram_loss(ids)


def unigram_of(entry: ModelEntry) -> float | None:
    """The unigram baseline of a shipped model's data: its corpus's token frequencies, its task's target
    tokens (eos included), or for repeated random blocks (uniform tokens) ln of the ordinary tokens;
    None when it is not known (another model, or a corpus not on disk)."""
    if entry.source != "pretrained":
        return None
    if entry.task is not None:
        return _task_unigram(entry.name, entry.task)
    if RANDOM_BLOCKS in (entry.card or ""):
        return math.log(entry.tokenizer.vocab_size - NUM_SPECIAL)
    corpus = _CORPUS.search(entry.card or "")
    return None if corpus is None else _corpus_unigram(corpus["name"], entry.name, entry.tokenizer)


def loss_meaning(loss: float, vocab_size: int, unigram: float | None, lang: str) -> str:
    """"Uniform guessing among 70 tokens scores ln 70 = 4.25; knowing only the frequencies 3.30;
    perplexity 4.36: as unsure as a fair choice among 4.4 tokens." """
    parts = [text(lang, "meaning_uniform", v=vocab_size, uniform=uniform_loss(vocab_size))]
    if unigram is not None:
        parts.append(text(lang, "meaning_unigram", unigram=unigram))
    parts.append(text(lang, "meaning_perplexity", ppl=as_unsure_as(loss)))
    return text(lang, "meaning_sentence", parts=text(lang, "meaning_join").join(parts))


def exact_and_bleu(exact: float | None, bleu: float | None, lang: str) -> str:
    """Exact match against BLEU in one sentence ("" when neither is known)."""
    if exact is None and bleu is None:
        return ""
    if bleu is None:
        return text(lang, "meaning_exact", exact=exact)
    if exact is None:
        return text(lang, "meaning_bleu", bleu=bleu)
    return text(lang, "meaning_exact_bleu", exact=exact, bleu=bleu)


def entry_loss_meaning(entry: ModelEntry, loss: float, lang: str) -> str:
    """loss_meaning for a model entry: its output vocabulary and, when known, its data's unigram baseline."""
    return loss_meaning(loss, entry.config.target_vocab_size, unigram_of(entry), lang)


_training_unigrams: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()    # objective -> unigram loss
_training_lock = threading.Lock()


def training_unigram(objective) -> float | None:
    """The unigram baseline of a training's data: the frequencies of its training text's tokens, of its
    held-out targets (eos included) for a task, and ln of the ordinary tokens for repeated random blocks
    (drawn uniformly); None for data it does not know. Counted once per training."""
    with _training_lock:
        if objective in _training_unigrams:
            return _training_unigrams[objective]
    data, held = getattr(objective, "data", None), getattr(objective, "held_out", None)
    if data is not None and hasattr(data, "ids"):
        value = unigram_loss(data.ids("train").tolist())
    elif held is not None and hasattr(objective, "task"):
        value = unigram_loss([i for _, target in held for i in (*objective.tokenizer.encode(target), EOS_ID)])
    elif data is not None and hasattr(data, "random_blocks"):
        value = math.log(data.vocab_size - NUM_SPECIAL)
    else:
        value = None
    with _training_lock:
        _training_unigrams[objective] = value
    return value
