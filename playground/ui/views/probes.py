"""Linear probes as the Attention tab and the lessons show them: the properties a model's task makes
meaningful, a probe per layer trained on the residual stream with its shuffled-label control, and a
sentence computed from the result.

    probe_properties(entry)                          -> the property keys offered for the model
    probe_view(final, entry, property, lang)         -> ProbeView

`final` is the model as trained to the end (what it was trained on decides the properties), `entry` the
model probed (the same, or a checkpoint of its timeline).
"""
from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial

import numpy as np
import plotly.graph_objects as go

from playground import viz
from playground.analysis import (
    MAX_PROBE_LENGTH,
    MAX_PROBE_SEQUENCES,
    ProbeData,
    ProbeResult,
    thinned,
    fit_probes,
    held_out_text,
    induction_probe_data,
    line_end_probe_data,
    next_vowel_probe_data,
    reverse_probe_data,
)
from playground.analysis.cost import flops_per_token
from playground.data import CharTokenizer, CorpusUnavailable, load_corpus
from playground.data.corpora import bundled_text
from playground.viz.labels import plotly_text
from playground.zoo import ModelEntry

from ..inputs.validation import fail
from ..text.i18n import text
from ..text.markup import literal
from .meaning import RANDOM_BLOCKS

PROPERTIES = ("inside", "offset", "letter", "index", "vowel", "line_end")   # every property, the default first
LATIN_CORPORA = ("tiny_shakespeare", "bundled", "rhyme")
CHINESE_CORPORA = ("tang_poems",)
LATIN_NEEDED = "aeiou"         # characters a model must have to read a Latin text's vowels
CHINESE_NEEDED = "，。\n"       # and a Tang poem's line ends
STAND_IN = "bundled"           # the corpus played where tiny Shakespeare cannot be had
READABLE_MARGIN = 0.05         # a layer "reads" a property when it beats the control and chance by this much
PASS_FLOPS = 2e10              # the model's passes over the probed sequences (about 0.5 s of one CPU core)
FIT_FLOPS = 1e10               # training the probes (about 1 s: their small products run slower per FLOP)
FIT_STEPS = 100                # full-batch steps of fit_probes
MIN_SEQUENCES = 4              # fewer cannot be split into training and held-out sequences with some of each
OFFSET_CLASSES = 32            # the induction probe's longest period: its offset has this many classes
KEPT_RESULTS = 32              # probe results of shipped models kept for every session
_CORPUS = re.compile(r"Corpus `(?P<name>[a-z_]+)`")


@dataclass
class ProbeView:
    figure: go.Figure
    summary: str                  # markdown: which layer reads it, against the control and chance
    facts: dict                   # the numbers the summary states


def corpus_of(entry: ModelEntry) -> str | None:
    """The corpus a character language model was trained on, as its card names it (None if none)."""
    found = _CORPUS.search(entry.card or "")
    return found["name"] if found else None


def probe_properties(entry: ModelEntry) -> tuple[str, ...]:
    """The properties that mean something for the model: the induction model's repeats (inside one, and
    the offset in it, which shows what chance looks like), the reverse model's copying (the letter being
    copied, and the source index, trivially readable), a character model's next character (a vowel, for a
    Latin text; the end of a line, for Tang poems) when its characters can read that text; () for every
    other model."""
    model = entry.model
    if entry.task is not None and entry.task.name == "reverse":
        return ("letter", "index")
    if model.has_encoder or not model.has_decoder:
        return ()
    if RANDOM_BLOCKS in (entry.card or ""):
        return ("inside", "offset")
    if isinstance(entry.tokenizer, CharTokenizer):
        corpus = corpus_of(entry)
        if corpus in LATIN_CORPORA and reads_corpus(entry, corpus):
            return ("vowel",)
        if corpus in CHINESE_CORPORA and reads_corpus(entry, corpus):
            return ("line_end",)
    return ()


def reads_corpus(entry: ModelEntry, corpus: str) -> bool:
    """Whether the model's own characters can read the text played for `corpus` (what its card names): the
    vowels of a Latin text, the line ends of a Tang poem. A card may name any corpus; a model whose vocabulary
    lacks those characters would see only unknown tokens where the probe or the game looks."""
    needed = LATIN_NEEDED if corpus in LATIN_CORPORA else CHINESE_NEEDED
    return isinstance(entry.tokenizer, CharTokenizer) and set(needed) <= set(entry.tokenizer.chars)


@functools.lru_cache(maxsize=4)
def _held_out(corpus: str) -> tuple[str, str]:
    try:
        return held_out_text(load_corpus(corpus)), corpus
    except CorpusUnavailable:
        if corpus != "tiny_shakespeare":
            raise
        return bundled_text(), STAND_IN


def held_out(corpus: str) -> str:
    """The part of a corpus a character model trained on it never saw. Where tiny Shakespeare cannot be had
    (no copy on the machine and no network: its download gives up within seconds), the bundled English
    text stands in (a model of tiny Shakespeare never read any of it), so the game and the probes still
    work offline; played_corpus says which was played."""
    return _held_out(corpus)[0]


def played_corpus(corpus: str) -> str:
    """The corpus whose text held_out(corpus) gives: `corpus` itself, or STAND_IN in its place."""
    return _held_out(corpus)[1]


def stand_in_note(corpus: str | None, model: str, lang: str) -> str:
    """A sentence saying the bundled English text is played because `corpus` (tiny Shakespeare) is not on the
    machine; "" when the model's own corpus is played. Call it once held_out(corpus) has been read."""
    if corpus is None or played_corpus(corpus) == corpus:
        return ""
    return text(lang, "stand_in_played", model=model)


def probe_size(entry: ModelEntry, prop: str) -> tuple[int, int]:
    """(sequences, tokens each) a probe of `prop` passes through the model within PASS_FLOPS: the model's
    context (at most MAX_PROBE_LENGTH) and as many sequences as fit (at most MAX_PROBE_SEQUENCES); a wide
    model gets shorter sequences before it gets fewer than MIN_SEQUENCES."""
    config = entry.config
    shortest = OFFSET_CLASSES + 2 if prop in ("inside", "offset") else 2

    def cost(length: int) -> float:                                           # encoder and decoder, at most
        return 2 * flops_per_token(config, length)["total"] * length

    length = min(config.max_len, MAX_PROBE_LENGTH)
    while length > shortest and MIN_SEQUENCES * cost(length) > PASS_FLOPS:
        length -= 1
    return max(MIN_SEQUENCES, min(MAX_PROBE_SEQUENCES, int(PASS_FLOPS // cost(length)))), length


def fit_rows(data: ProbeData) -> int:
    """The most positions the probes may learn from within FIT_FLOPS: each training step costs about 6 FLOPs
    per layer (probe and control), position, width and class (at least 8: small products run no faster)."""
    layers, _, width = data.features.shape
    per_row = 6 * FIT_STEPS * 2 * layers * width * max(len(data.classes), 8) * 0.75     # 3/4 of the rows train
    return int(FIT_FLOPS // per_row)


def _data(final: ModelEntry, entry: ModelEntry, prop: str, lang: str):
    sequences, length = probe_size(entry, prop)
    if prop in ("inside", "offset"):
        return induction_probe_data(entry.model, prop, n_sequences=sequences, length=length)
    if prop in ("letter", "index"):
        return reverse_probe_data(entry.model, final.task, entry.tokenizer, prop, n_sources=sequences)
    try:
        corpus = held_out(corpus_of(final))
    except CorpusUnavailable:
        raise fail(lang, "err_pr_corpus", corpus=corpus_of(final)) from None
    if prop == "vowel":
        return next_vowel_probe_data(entry.model, entry.tokenizer, corpus, n_windows=sequences, length=length)
    return line_end_probe_data(entry.model, entry.tokenizer, corpus, n_windows=sequences, length=length)


_kept: OrderedDict[tuple, ProbeResult] = OrderedDict()
_kept_lock = threading.Lock()


def probe_result(final: ModelEntry, entry: ModelEntry, prop: str, lang: str) -> ProbeResult:
    """The probes of `prop` on `entry` (a shipped model's kept for every session, by name and checkpoint)."""
    key = (entry.name, id(entry.model), prop) if entry.source == "pretrained" else None
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    data = _data(final, entry, prop, lang)
    result = fit_probes(thinned(data, fit_rows(data)))
    if key is not None:
        with _kept_lock:
            _kept[key] = result
            while len(_kept) > KEPT_RESULTS:
                _kept.popitem(last=False)
    return result


def blocks_passed(layer: str) -> int:
    """"decoder.2.resid_pre" -> 2 (the stream entering block 2 has passed 2 blocks), "decoder.3.resid_post" -> 4."""
    _, index, point = layer.split(".")
    return int(index) + (point == "resid_post")


def probe_view(final: ModelEntry, entry: ModelEntry, prop: str, lang: str) -> ProbeView:
    """Held-out accuracy by layer of the probe and of its control, the chance line, and what they say."""
    t = partial(text, lang)
    if prop not in probe_properties(final):
        offered = ", ".join(t(f"pr_property_{p}") for p in probe_properties(final))
        raise fail(lang, "err_pr_not_offered" if offered else "err_pr_none", model=final.name,
                   property=t(f"pr_property_{prop}") if prop in PROPERTIES else prop, offered=offered)
    result = probe_result(final, entry, prop, lang)
    layers = [str(blocks_passed(name)) for name in result.layers]
    figure = viz.probe_accuracy(
        layers, result.accuracy, result.control, result.chance,
        title=t("fig_pr", property=t(f"pr_property_{prop}"), model=plotly_text(final.name)),
        layer_label=t("w_pr_blocks_passed"), accuracy_label=t("w_pr_accuracy"), probe_label=t("w_pr_probe"),
        control_label=t("w_pr_control"), chance_label=t("w_pr_chance"), position_only=result.position_only,
        position_label=t("w_pr_position_only"))
    summary, facts = probe_sentence(result, lang)
    if prop in ("vowel", "line_end"):
        summary = text(lang, "sentence_join").join(filter(None, [summary, stand_in_note(corpus_of(final),
                                                                                          literal(final.name), lang)]))
    return ProbeView(figure, summary, facts)


def probe_sentence(result: ProbeResult, lang: str) -> tuple[str, dict]:
    """"Layer 2 reads it at 98%, the control 70%, chance 70%", computed from the result, with the measured
    margin over the control and chance where it first becomes readable, and what position alone reads."""
    t = partial(text, lang)
    accuracy, control = np.asarray(result.accuracy, dtype=float), np.asarray(result.control, dtype=float)
    above = accuracy - np.maximum(control, result.chance)                  # [L] how far each layer beats both
    best = int(np.argmax(accuracy))
    readable = [i for i, margin in enumerate(above) if margin >= READABLE_MARGIN]
    facts = dict(layer=blocks_passed(result.layers[best]), accuracy=float(accuracy[best]),
                 control=float(control[best]), chance=float(result.chance),
                 first=blocks_passed(result.layers[readable[0]]) if readable else None,
                 margin=float(above[readable[0]]) if readable else None, position_only=result.position_only,
                 n_train=result.n_train, n_test=result.n_test)
    key = "pr_reads" if readable else "pr_at_chance"
    sentence = t(key, layer=facts["layer"], accuracy=facts["accuracy"], control=facts["control"],
                 chance=facts["chance"], first=facts["first"] if readable else 0,
                 margin=100 * facts["margin"] if readable else 0)
    parts = [sentence]
    if result.position_only is not None:
        parts.append(t("pr_position_only", position=result.position_only,
                       gain=100 * (facts["accuracy"] - result.position_only)))
    parts.append(t("pr_counts", n_train=result.n_train, n_test=result.n_test))
    return t("sentence_join").join(parts), facts
