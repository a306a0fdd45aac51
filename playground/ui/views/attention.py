"""The Attention tab's views, which the Lessons draw too: every layer x head of a model on an input,
one head enlarged, head scores to find the head that copies, the forward pass as a table of tensor
shapes, and, for pretrained models saved with a training timeline, the same views at any saved step
of training.

An attention kind is an attention site's id ("encoder", "decoder", "cross"; see
playground.model.sites): the model lists its own sites, so no view asks for its architecture."""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial

import gradio as gr
import numpy as np
import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis import CROSS_SCORES, SELF_SCORES, head_scores, shape_walkthrough
from playground.data import BOS_ID, EOS_ID
from playground.generate.batch import bos, greedy
from playground.model import AttentionSite, Trace
from playground.train.metrics import perplexity

from ..inputs.validation import MAX_INPUT_CHARS, check_known_chars, check_number, check_text, fail
from playground.zoo import ModelEntry, ModelRegistry
from ..text.i18n import text
from ..text.markup import literal
from .induction import induction_text
from .meaning import entry_loss_meaning
from .shapes import shape_rows
from .attention_passes import SHARED_PASSES, RecordedPass

GREEDY_TARGETS_KEPT = 256      # per model: the greedy outputs of its latest sources
# A target the model writes itself ends at eos, or at this many tokens per source token plus
# GREEDY_EXTRA: every shipped task's target is at most as long as its source, and an untrained
# model, which seldom writes eos, stops there instead of filling the whole axis.
GREEDY_TOKENS_PER_SOURCE_TOKEN = 2
GREEDY_EXTRA = 4
MAX_ATTENTION_TOKENS = 80      # tokens drawn per axis; more makes every heatmap unreadable on a projector
ALL_SCORES = tuple(dict.fromkeys((*CROSS_SCORES, *SELF_SCORES)))


@dataclass(frozen=True)
class AttentionPass:
    """One recorded forward pass: the trace of every tensor and the ids on each side.

    source_ids: what the encoder read (empty for decoder-only); target_ids: what the decoder read
    (the text for decoder-only; bos + target for encoder-decoder); generated: whether the model
    wrote the target itself (greedily); derived: what views computed from the pass, shared with
    every view of the same pass (see _derived).
    """

    entry: ModelEntry
    trace: Trace
    source_ids: list[int]
    target_ids: list[int]
    generated: bool
    derived: dict = field(default_factory=dict, compare=False)


def _derived(attention: AttentionPass, key: tuple, compute):
    """compute(), once per pass and key: the result is shared by every later view of the pass, so
    nothing may change it in place."""
    value = attention.derived.get(key)
    if value is None:
        value = attention.derived[key] = compute()
    return value


def kinds_of(entry: ModelEntry) -> tuple[str, ...]:
    """The attention kinds a model has, encoder first: its sites' ids ("encoder", "decoder", "cross")."""
    return tuple(site.id for site in entry.model.sites())


def default_kind(entry: ModelEntry) -> str:
    """The kind a model opens with: its last site (cross-attention where it has one)."""
    return kinds_of(entry)[-1]


def stack_depth(entry: ModelEntry, kind: str) -> tuple[int, int]:
    """(layers, heads) of the stack an attention kind lives in."""
    site = AttentionSite.parse(kind)
    config = entry.config
    return (config.n_encoder_layers if site.stack == "encoder" else config.n_decoder_layers), config.n_heads


def _encode_checked(entry: ModelEntry, value: str, lang: str, what: str, room: int) -> list[int]:
    check_known_chars(value, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(value)
    limit = min(room, MAX_ATTENTION_TOKENS)
    if len(ids) > limit:
        raise fail(lang, "err_too_many_tokens", what=text(lang, f"what_{what}"), n=len(ids), limit=limit)
    return ids


_greedy_targets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # model -> OrderedDict(source -> target)
_greedy_targets_lock = threading.Lock()


def _greedy_target(entry: ModelEntry, source_ids: list[int]) -> list[int]:
    """The model's own greedy output for the source, without the final eos (at most
    GREEDY_TOKENS_PER_SOURCE_TOKEN x the source's length + GREEDY_EXTRA tokens).

    A class clicks the same examples again and again, so the last GREEDY_TARGETS_KEPT outputs of
    each model are kept (models are never changed once shown; a forgotten model takes its own
    with it).
    """
    key = tuple(source_ids)
    with _greedy_targets_lock:
        kept = _greedy_targets.setdefault(entry.model, OrderedDict())
        if key in kept:
            kept.move_to_end(key)
            return list(kept[key])
    budget = min(entry.config.max_len - 1, MAX_ATTENTION_TOKENS - 1,
                 GREEDY_TOKENS_PER_SOURCE_TOKEN * len(source_ids) + GREEDY_EXTRA)
    decoded = greedy(entry.model, bos(1), budget, torch.tensor([source_ids]))[0]
    target = [i for i in decoded if i != EOS_ID]
    with _greedy_targets_lock:
        kept[key] = tuple(target)
        while len(kept) > GREEDY_TARGETS_KEPT:
            kept.popitem(last=False)
    return target


def forward_pass(entry: ModelEntry, value, target, lang: str) -> AttentionPass:
    """Validate the input (and target), and run the model once on it, recording every tensor; an
    input the model has already run on is read from the shared passes (SHARED_PASSES).

    A model with an encoder reads the input as its source; a model with a decoder reads it as its
    target when it has no encoder, else the target typed (or, when none is, its own greedy output)
    after bos.
    """
    value = check_text(value, lang, MAX_INPUT_CHARS)
    model, config = entry.model, entry.config
    ids = _encode_checked(entry, value, lang, "input", config.max_len)
    typed = None                                  # the target's ids, when the model reads a typed one
    if model.has_encoder and model.has_decoder and isinstance(target, str) and target.strip():
        target = check_text(target, lang, MAX_INPUT_CHARS, what="target")
        typed = tuple(_encode_checked(entry, target, lang, "target", config.max_len - 1))
    key = (tuple(ids), typed)
    recorded = SHARED_PASSES.get(model, key)
    if recorded is None:
        recorded = _record(entry, ids, typed)
        SHARED_PASSES.put(model, key, recorded)
    return AttentionPass(entry, recorded.trace, list(recorded.source_ids), list(recorded.target_ids),
                         recorded.generated, recorded.derived)


def _record(entry: ModelEntry, ids: list[int], typed: tuple[int, ...] | None) -> RecordedPass:
    """The model's pass over validated ids (and a typed target's ids, or None)."""
    model = entry.model
    trace = Trace(("*",))
    if not model.has_encoder:
        model.decode(torch.tensor([ids]), None, None, trace)
        return RecordedPass(trace, (), tuple(ids), False)
    memory = model.encode(torch.tensor([ids]), trace)
    if not model.has_decoder:
        model.decode(torch.tensor([ids]), memory, None, trace)
        return RecordedPass(trace, tuple(ids), (), False)
    decoder_ids = (BOS_ID, *(_greedy_target(entry, ids) if typed is None else typed))
    model.decode(torch.tensor([decoder_ids]), memory, None, trace)
    return RecordedPass(trace, tuple(ids), decoder_ids, typed is None)


def weights_of(attention: AttentionPass, kind: str) -> tuple[np.ndarray, list[str], list[str], list[int]]:
    """(weights [L, H, Tq, Tk], query tokens, key tokens, key ids) of one attention kind."""
    def compute():
        site = AttentionSite.parse(kind)
        weights = attention.trace.attention(site)[:, 0].float().numpy()                    # [L, H, Tq, Tk]
        weights.flags.writeable = False                                  # shared by every view of the pass
        piece = attention.entry.tokenizer.id_to_piece
        sides = {"source": attention.source_ids, "target": attention.target_ids}
        queries, keys = sides[site.query_side], sides[site.key_side]
        return weights, tuple(piece(i) for i in queries), tuple(piece(i) for i in keys), tuple(keys)

    weights, queries, keys, key_ids = _derived(attention, ("weights", kind), compute)
    return weights, list(queries), list(keys), list(key_ids)


def score_names(kind: str) -> tuple[str, ...]:
    return CROSS_SCORES if AttentionSite.parse(kind).is_cross else SELF_SCORES


def scores_of(attention: AttentionPass, kind: str) -> dict[str, np.ndarray]:
    """Every head score of one kind: name -> [L, H] in [0, 1]."""
    def compute():
        weights, _, _, key_ids = weights_of(attention, kind)
        site = AttentionSite.parse(kind)
        scores = head_scores(weights, "cross") if site.is_cross else head_scores(weights, "self", ids=key_ids,
                                                                                   causal=site.causal)
        for values in scores.values():
            values.flags.writeable = False                               # shared by every view of the pass
        return scores

    return dict(_derived(attention, ("scores", kind), compute))


def best_heads_text(scores: dict[str, np.ndarray], lang: str) -> str:
    """One line per score: the head with the highest value."""
    lines = []
    for name, values in scores.items():
        layer, head = np.unravel_index(int(np.argmax(values)), values.shape)
        lines.append(text(lang, "best_head_line", score=text(lang, f"score_{name}"), layer=int(layer), head=int(head),
                          value=float(values[layer, head])))
    return text(lang, "best_heads_intro") + "\n" + "\n".join(f"- {line}" for line in lines)


def _check_kind(entry: ModelEntry, kind: str, lang: str) -> str:
    if kind not in kinds_of(entry):
        raise fail(lang, "err_bad_choice", name=text(lang, "param_kind"), value=kind,
                   choices=", ".join(kinds_of(entry)))
    return kind


def head_view(attention: AttentionPass, kind: str, layer, head, mean: bool, lang: str) -> go.Figure:
    """One head (or the mean over a layer's heads) enlarged, with token labels."""
    weights, queries, keys, _ = weights_of(attention, kind)
    n_layers, n_heads = weights.shape[:2]
    layer = check_number(layer, lang, "layer", 0, n_layers - 1, integer=True)
    t = partial(text, lang)
    words = dict(query_label=t("w_query"), key_label=t("w_key"), weight_label=t("w_weight"))
    if mean:
        return viz.attention_mean(weights[layer], queries, keys,
                                  title=t("fig_attention_mean", kind=t(f"kind_title_{kind}"), layer=layer), **words)
    head = check_number(head, lang, "head", 0, n_heads - 1, integer=True)
    return viz.attention_head(weights[layer, head], queries, keys,
                              title=t("fig_attention_head", kind=t(f"kind_title_{kind}"), layer=layer, head=head), **words)


def scores_view(attention: AttentionPass, kind: str, score: str, lang: str) -> tuple[go.Figure, str]:
    """The chosen head score as an L x H heatmap, and the best head for every score."""
    scores = scores_of(attention, kind)
    if score not in scores:
        raise fail(lang, "err_bad_choice", name=text(lang, "param_score"), value=score, choices=", ".join(scores))
    t = partial(text, lang)
    figure = viz.head_scores_heatmap(scores[score], score_name=t(f"score_{score}"),
                                     title=t("fig_head_scores", score=t(f"score_{score}"), kind=t(f"kind_title_{kind}")),
                                     layer_label=t("w_layer"), head_label=t("w_head"))
    return figure, best_heads_text(scores, lang) + "\n\n" + induction_text(attention.entry, lang)


def timeline_of(registry: ModelRegistry, entry: ModelEntry) -> list[int]:
    """The training steps a model can be shown at: its timeline when it is a pretrained one, else none."""
    if entry.source != "pretrained" or registry.get(entry.name) is not entry:
        return []
    return registry.timeline_steps(entry.name)


def entry_at_step(registry: ModelRegistry, entry: ModelEntry, step) -> ModelEntry:
    """`entry` as it was at training `step` of its timeline; the final model for no step, the last
    step, or a step the model's timeline does not have (e.g. one chosen for another model)."""
    steps = timeline_of(registry, entry)
    if step is None or not steps or step == steps[-1] or step not in steps:
        return entry
    return registry.timeline_entry(entry.name, step)


def timeline_update(registry: ModelRegistry, entry: ModelEntry, step) -> gr.Radio:
    """The step picker for `entry`: its timeline steps (its panel is shown only when it has some)."""
    steps = timeline_of(registry, entry)
    value = step if step in steps else (steps[-1] if steps else None)
    return gr.Radio(choices=[(str(s), s) for s in steps], value=value)


def summary_text(attention: AttentionPass, lang: str, at_step: tuple[int, int] | None = None) -> str:
    """What was run: the model's shape, the tokens, the target the model wrote, for a timeline
    checkpoint ``at_step`` = (its training step, the timeline's last step), and the model's
    held-out loss and perplexity."""
    entry, config = attention.entry, attention.entry.config
    t = partial(text, lang)
    layers = t(f"attention_layers_{config.arch}", enc=config.n_encoder_layers, dec=config.n_decoder_layers)
    lines = [t("attention_summary", model=literal(entry.name), arch=t(f"arch_{config.arch}"), d_model=config.d_model,
               heads=config.n_heads, layers=layers, params=f"{entry.n_parameters:,}",
               n=len(attention.source_ids or attention.target_ids))]
    if attention.generated:
        written = entry.tokenizer.decode(attention.target_ids[1:])
        lines.append(t("attention_generated", target=literal(written) if written else "∅"))
    keys = len(attention.source_ids or attention.target_ids)
    lines.append(t("attention_weight_meaning", n=keys, even=1 / keys))
    if entry.source == "untrained":
        lines.append(t("attention_untrained"))
    if at_step is not None:
        lines.append(t("attention_timeline_step", step=at_step[0], last=at_step[1]))
    lines.append(held_out_text(entry, lang))
    return "\n\n".join(lines)


def held_out_text(entry: ModelEntry, lang: str) -> str:
    """The model's held-out loss and its perplexity (exp of the loss), or that none is known."""
    if entry.held_out_loss is None:
        return text(lang, "attention_held_out_unknown")
    return text(lang, "sentence_join").join([text(lang, "attention_held_out", loss=entry.held_out_loss,
                          perplexity=perplexity(entry.held_out_loss)),
                     entry_loss_meaning(entry, entry.held_out_loss, lang)])


@dataclass(frozen=True)
class AttentionViews:
    grid: go.Figure
    head: go.Figure
    scores: go.Figure
    best_heads: str
    shapes: go.Figure
    summary: str
    n_layers: int
    n_heads: int


def attention_views(entry: ModelEntry, value, target, kind, layer, head, mean, score, lang: str,
                    at_step: tuple[int, int] | None = None) -> AttentionViews:
    """Everything the tab shows for one input: grid, enlarged head, head scores, shapes, summary
    (``at_step``: see summary_text)."""
    kind = _check_kind(entry, kind, lang)
    attention = forward_pass(entry, value, target, lang)
    weights, queries, keys, _ = weights_of(attention, kind)
    n_layers, n_heads = weights.shape[:2]
    t = partial(text, lang)
    grid = viz.attention_grid(weights, queries, keys, title=t("fig_attention_grid", kind=t(f"kind_{kind}")),
                              layer_label=t("w_layer"), head_label=t("w_head"), query_label=t("w_query"),
                              key_label=t("w_key"), weight_label=t("w_weight"), block_label=t("w_block"),
                              kv_heads=entry.config.kv_heads, group_label=t("w_kv_group"))
    layer, head = min(int(layer or 0), n_layers - 1), min(int(head or 0), n_heads - 1)
    if score not in score_names(kind):
        score = score_names(kind)[0]
    scores_figure, best = scores_view(attention, kind, score, lang)
    walk = _derived(attention, ("shapes",), lambda: shape_walkthrough(attention.trace, entry.config))
    shapes = viz.shape_table(shape_rows(walk, entry.config, lang),
                             title=t("fig_shapes"),
                             headers=(t("w_stage"), t("w_tensor"), t("w_shape"), t("w_note"), t("w_values")))
    return AttentionViews(grid, head_view(attention, kind, layer, head, bool(mean), lang), scores_figure, best, shapes,
                          summary_text(attention, lang, at_step), n_layers, n_heads)


def kind_choices(entry: ModelEntry, lang: str) -> list[tuple[str, str]]:
    return [(text(lang, f"kind_{kind}"), kind) for kind in kinds_of(entry)]


def score_choices(kind: str, lang: str) -> list[tuple[str, str]]:
    return [(text(lang, f"score_{name}"), name) for name in score_names(kind)]
