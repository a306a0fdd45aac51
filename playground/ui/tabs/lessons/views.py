"""The Lessons tab's live views: each key a syllabus lesson names -> (registry, lang) -> Shown: the
figures, a note whose numbers are filled in from what the figures draw, and those numbers by name
(`facts`, which claims.py checks against the figures). Built by the same view functions as the
tabs, on shipped models only (so every session shares them through the view cache)."""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np
import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis.activations import curves as activation_curves
from playground.analysis.activations import dead_units_after_training
from playground.analysis.baselines import as_unsure_as, uniform_loss
from playground.analysis.embeddings import embedding_table, nearest_neighbours
from playground.analysis.gradients import layer_gradient_norms
from playground.analysis.initialisation import SCHEMES, signal_through_linear_stack
from playground.analysis.positions import position_token_overlap
from playground.analysis.projections import compare_projections
from playground.analysis.recurrence import layer_costs
from playground.analysis.repetition import repetition
from playground.data import BPETokenizer, CharTokenizer, LMData, load_corpus, tasks
from playground.data.tokenizer import NUM_SPECIAL, visible
from playground.generate import SamplingConfig, Stepper, beam_search
from playground.labs.bugs import drop_residuals
from playground.model import ModelConfig, MultiHeadAttention, build_model
from playground.train import TrainConfig
from playground.train.presets import RHYME_BLOCK_SIZE
from playground.train.scheduled_sampling import compare_with_teacher_forcing
from playground.viz.labels import visible_token
from playground.viz.theme import figure, table
from playground.zoo import ModelRegistry

from ...course.syllabus import DECODING_TEMPERATURES, REPETITION_PENALTY, REPETITION_TOKENS
from ...text.i18n import text
from ...text.markup import literal
from ...views.attribution import attribution_view
from ...views.embeddings import embedding_view
from ...views.inputs import input_note
from ...views.masks import mask_views
from ...views.meaning import card_number, entry_loss_meaning, held_out, unigram_of
from ...views.norms import batch_norm_view, layer_norm_view, residual_view
from ...views.patching import patching_views, suggested_corruption
from ...views.probes import probe_view
from ...views.worked_attention import worked_attention_view
from ...views.architecture import FIELDS, GPT2_PRESET, architecture_views, presets
from ...views.attention import attention_views, entry_at_step, forward_pass, scores_of
from ...views.generate import Generation, beam_views, candidates_figure
from ...views.positional import DEFAULT_DIMS, DEFAULT_SHUFFLE_TEXT, shuffle_demo, sinusoidal_views
from ...views.tokenizer import tokenize_views


@dataclass(frozen=True)
class Shown:
    """What a lesson view shows: its figures, a note (markdown) and the numbers the note states, by
    name, as they were read from what the figures draw."""

    figures: list[go.Figure]
    note: str = ""
    facts: dict = field(default_factory=dict)


View = Callable[[ModelRegistry, str], Shown]

TOKENS_TEXT = "The transformer reads every token at once."
CHINESE_TEXT = "注意力"
SHAKESPEARE_PROMPT = "ROMEO:\nWhat light"
NORM_TEXT = "To be, or not"
WORKED_TEXT = "abcd"
SEQUENCE_PROBE = "abcdefghij"          # ten letters, like every source the copy and reverse models trained on
MASK_INPUTS = ("abcdefgh", "abc")       # two lengths, so that the shorter is padded
INDUCTION_PROBE = "qzjxkvwb qzjxkvwb"
CONTEXT_LENGTH = 1024
NEIGHBOUR_TOKEN = "e"
NEIGHBOURS = 8
VOWELS = "aeiou"
REPETITION_PROMPTS = ("ROMEO:\n", "First Citizen:\n", "JULIET:\n", "MENENIUS:\n")
REPETITION_MODEL = "shakespeare-bpe"
BEAM_WIDTH = 4
DEAD_STEPS, DEAD_LR = 40, 5e-2
GRADIENT_DEPTH, GRADIENT_BATCH = 8, 4
INIT_WIDTHS, INIT_LAYERS = (64, 768), 12
MIXING_WIDTH = 512
MIXING_LENGTHS = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
FUSED_TOKENS = 256
PROBED_PROPERTIES = ("inside", "offset")   # lesson 12: what the induction model's probes read
WINDOW_SEED = 0                            # lesson 10: the seed of the training window shown
# Lesson 12: a card's results on the formats kept out of training (the dates model's).
UNSEEN_FORMATS = re.compile(r"each format kept out of training \(\d+ in all\): ([\d.]+)% overall \(BLEU ([\d.]+)\)")
# Lesson 9: teacher forcing against scheduled sampling, reversing 6 letters, trained briefly so mistakes remain.
SAMPLING_LENGTH, SAMPLING_FINAL = 6, 0.5
SAMPLING_MODEL = ModelConfig(arch="encoder_decoder", vocab_size=11, d_model=32, n_heads=4, n_encoder_layers=1,
                             n_decoder_layers=1, d_ff=128, max_len=8, tie_weights=False)
SAMPLING_TRAIN = TrainConfig(lr=5e-3, warmup_steps=10, batch_size=32, max_steps=160, val_size=64, eval_every_s=None,
                             snapshot_every_s=None, event_every_s=60.0)


def _model(registry: ModelRegistry, name: str):
    entry = registry.get(name)
    if entry is None:
        raise LookupError(f"the lesson's model {name!r} is not shipped")
    return entry


def _warning(registry: ModelRegistry, entry, value: str, lang: str) -> str:
    """The Attention tab's note on an input: the characters it accepts, and a warning when the input is
    unlike the model's training inputs."""
    return input_note(registry, entry, value, lang)


# ------------------------------------------------------------------ 1 tokens

def tokens_compare(registry, lang):
    char_plot, bpe_plot, counts, _, _ = tokenize_views(TOKENS_TEXT, "bundled", 400, lang)
    return Shown([char_plot, bpe_plot], counts)


def tokens_merges(registry, lang):
    _, _, _, merges, _ = tokenize_views(TOKENS_TEXT, "bundled", 400, lang)
    return Shown([merges])


def tokens_chinese(registry, lang):
    _, bpe_plot, counts, _, utf8 = tokenize_views(CHINESE_TEXT, "bundled", 400, lang)
    n_tokens = int(re.search(r"\d+", bpe_plot.layout.title.text).group())
    n_bytes = len(CHINESE_TEXT.encode("utf-8"))
    note = text(lang, "lesson_chinese_note", n=n_tokens, chars=len(CHINESE_TEXT), bytes=n_bytes)
    return Shown([bpe_plot], "\n\n".join([note, counts, utf8]),
                 dict(tokens=n_tokens, chars=len(CHINESE_TEXT), bytes=n_bytes))


# ------------------------------------------------------------------ 2 embeddings

def embeddings_neighbours(registry, lang):
    bars, _, note = embedding_view(_model(registry, "shakespeare-char"), NEIGHBOUR_TOKEN, lang)
    return Shown([bars], note)


def embeddings_pca(registry, lang):
    _, embedding_map, _ = embedding_view(_model(registry, "shakespeare-char"), NEIGHBOUR_TOKEN, lang)
    return Shown([embedding_map])


def _neighbour_facts(entry) -> dict:
    """Of one embedding table: the nearest neighbours of NEIGHBOUR_TOKEN, the vowels whose nearest
    neighbour is a vowel, the letters whose other case is among their 5 nearest, and the mean cosine
    of every ordinary token to its nearest neighbour."""
    tokenizer, table = entry.tokenizer, embedding_table(entry.model)
    ids = {tokenizer.id_to_piece(i): i for i in range(NUM_SPECIAL, tokenizer.vocab_size)}
    token = ids[NEIGHBOUR_TOKEN]
    vowel_hits = sum(tokenizer.id_to_piece(nearest_neighbours(table, ids[v], 1)[0][0]).lower() in VOWELS
                     for v in VOWELS)
    letters = [ch for ch in "abcdefghijklmnopqrstuvwxyz" if ch in ids and ch.upper() in ids]
    case_hits = sum(ids[ch.upper()] in {i for i, _ in nearest_neighbours(table, ids[ch], 5)} for ch in letters)
    rows = torch.nn.functional.normalize(table[NUM_SPECIAL:].double(), dim=1)
    cosines = rows @ rows.T
    cosines.fill_diagonal_(-2.0)
    return dict(neighbours=nearest_neighbours(table, token, NEIGHBOURS), vowels=vowel_hits, letters=len(letters),
                cases=case_hits, mean_nearest=float(cosines.max(dim=1).values.mean()))


def embeddings_untrained_vs_trained(registry, lang):
    """The same model, shakespeare-char, at the first and the last step of its training timeline."""
    entry = _model(registry, "shakespeare-char")
    steps = registry.timeline_steps("shakespeare-char")
    first, last = steps[0], steps[-1]
    t = partial(text, lang)
    figures, facts = [], {}
    for when, step in (("start", first), ("end", last)):
        at = entry_at_step(registry, entry, step)
        found = _neighbour_facts(at)
        piece = at.tokenizer.id_to_piece
        figures.append(viz.neighbour_bars(
            [piece(i) for i, _ in found["neighbours"]], [c for _, c in found["neighbours"]],
            title=t("fig_lesson_neighbours_step", token=NEIGHBOUR_TOKEN, model="shakespeare-char", step=step),
            similarity_label=t("w_cosine"), token_label=t("w_token")))
        facts[when] = dict(step=step, nearest=piece(found["neighbours"][0][0]), cosine=found["neighbours"][0][1],
                           top=[piece(i) for i, _ in found["neighbours"][:4]], vowels=found["vowels"],
                           cases=found["cases"], letters=found["letters"], mean_nearest=found["mean_nearest"])
    start, end = facts["start"], facts["end"]
    note = t("lesson_neighbours_note", token=NEIGHBOUR_TOKEN, first=first, last=last,
             start_top=", ".join(f"`{p}`" for p in start["top"]), start_cos=start["cosine"],
             end_top=", ".join(f"`{p}`" for p in end["top"]), end_cos=end["cosine"],
             start_vowels=start["vowels"], end_vowels=end["vowels"], n_vowels=len(VOWELS),
             start_cases=start["cases"], end_cases=end["cases"], letters=end["letters"],
             start_mean=start["mean_nearest"], end_mean=end["mean_nearest"])
    return Shown(figures, note, facts)


# ------------------------------------------------------------------ 3 positions

def positions_table(registry, lang):
    heatmap, _, _ = sinusoidal_views(64, 64, DEFAULT_DIMS, lang)
    return Shown([heatmap])


def positions_curves(registry, lang):
    _, curves, similarity = sinusoidal_views(64, 64, DEFAULT_DIMS, lang)
    return Shown([curves, similarity])


def positions_shuffle(registry, lang):
    rows, summary = shuffle_demo(DEFAULT_SHUFFLE_TEXT, 0, lang)
    t = partial(text, lang)
    columns = [list(column) for column in zip(*rows)]
    headers = [t("w_encoding"), t("w_largest_difference"), t("w_verdict")]
    differences = {encoding: float(row[1]) for encoding, row in zip(("none", "sinusoidal", "learned", "rope"), rows)}
    return Shown([figure(**table(columns, headers, [2, 2, 4], t("fig_lesson_shuffle")))], summary,
                 dict(differences=differences))


def positions_add_vs_concat(registry, lang):
    """How much of the learned position vectors of shakespeare-char lies in the directions its token
    embeddings use: adding them keeps the two apart almost as concatenating would."""
    entry = _model(registry, "shakespeare-char")
    overlap = position_token_overlap(entry.model)
    t = partial(text, lang)
    k = overlap.directions
    fig = viz.line_chart(
        list(range(1, len(overlap.token_share) + 1)),
        {t("w_token_embeddings"): overlap.token_share, t("w_position_vectors"): overlap.position_share,
         t("w_random_directions"): overlap.random_share},
        title=t("fig_lesson_add_concat", model=entry.name, d=overlap.width),
        x_label=t("w_token_directions"), y_label=t("w_energy_share"), marker_x=k,
        marker_label=t("w_directions_marker", k=k, share=overlap.token_share[k - 1]), value_format=".1%")
    facts = dict(k=k, width=overlap.width, token=overlap.token_share[k - 1], position=overlap.position_share[k - 1],
                 random=overlap.random_share[k - 1])
    note = t("lesson_add_concat_note", model=entry.name, d=overlap.width, k=k, token=facts["token"],
             position=facts["position"], random=facts["random"])
    return Shown([fig], note, facts)


# ------------------------------------------------------------------ 4 attention by hand

def _worked(registry, lang, name: str):
    entry = _model(registry, name)
    stacked, steps, note = worked_attention_view(entry, WORKED_TEXT, entry.config.arch == "encoder_only"
                                                 and "encoder" or "decoder", 0, 0, lang)
    return Shown([stacked, steps], note)


def attention_by_hand(registry, lang):
    return _worked(registry, lang, "masked-char")


def attention_by_hand_causal(registry, lang):
    return _worked(registry, lang, "shakespeare-char")


# ------------------------------------------------------------------ 5 heads and shapes

def _attention(registry, lang, name: str, value: str, kind: str, score: str = ""):
    return attention_views(_model(registry, name), value, "", kind, 0, 0, False, score, lang)


def heads_shapes(registry, lang):
    entry = _model(registry, "copy")
    views = _attention(registry, lang, "copy", SEQUENCE_PROBE, "cross")
    cells = views.shapes.data[0].cells.values
    shapes = dict(zip(cells[1], cells[2]))
    weights = shapes["encoder.0.self_attn.weights"]
    note = text(lang, "lesson_shapes_note", n=len(SEQUENCE_PROBE), h=entry.config.n_heads, weights=weights,
                q=shapes["encoder.0.self_attn.q"], model=entry.name)
    return Shown([views.shapes], note + "\n\n" + _warning(registry, entry, SEQUENCE_PROBE, lang),
                 dict(weights=weights, heads=entry.config.n_heads, tokens=len(SEQUENCE_PROBE)))


def heads_fused(registry, lang):
    """Per-head projections against the fused one, on the copy model's first attention."""
    entry = _model(registry, "copy")
    attention = next(m for m in entry.model.modules() if isinstance(m, MultiHeadAttention))
    found = compare_projections(attention, FUSED_TOKENS)
    t = partial(text, lang)
    rows = [[t("w_per_head", h=found.heads, dh=found.head_dim), f"{found.per_head_parameters:,}",
             f"{found.per_head_ms:.3f}", "—"],
            [t("w_fused", d=found.heads * found.head_dim), f"{found.fused_parameters:,}", f"{found.fused_ms:.3f}",
             f"{found.max_difference:.1e}"]]
    columns = [list(column) for column in zip(*rows)]
    fig = figure(**table(columns, [t("w_projection"), t("w_parameters"), t("w_time_ms"), t("w_largest_difference")],
                         [4, 2, 2, 3], t("fig_lesson_fused", model=entry.name, tokens=found.tokens)))
    facts = dict(heads=found.heads, difference=found.max_difference, per_head=found.per_head_parameters,
                 fused=found.fused_parameters, per_head_ms=found.per_head_ms, fused_ms=found.fused_ms)
    note = t("lesson_fused_note", h=found.heads, dh=found.head_dim, d=found.heads * found.head_dim,
             difference=found.max_difference, params=found.fused_parameters, per_head_ms=found.per_head_ms,
             fused_ms=found.fused_ms, tokens=found.tokens)
    return Shown([fig], note, facts)


# ------------------------------------------------------------------ 6 masks

def masks(registry, lang):
    figures, _, note = mask_views(_model(registry, "reverse"), *MASK_INPUTS, lang, nan_note=False)
    return Shown(list(figures), note)


def masks_nan(registry, lang):
    _, combined, note = mask_views(_model(registry, "reverse"), *MASK_INPUTS, lang)
    return Shown([combined], note.split("\n\n")[-1])


# ------------------------------------------------------------------ 7 the block

def layernorm_by_hand(registry, lang):
    vector, note = layer_norm_view(_model(registry, "shakespeare-char"), NORM_TEXT, 0, 0, lang)
    return Shown([vector], note)


def layernorm_vs_batchnorm(registry, lang):
    batch, note = batch_norm_view(_model(registry, "shakespeare-char"), NORM_TEXT, lang)
    return Shown([batch], note)


def residual_norms(registry, lang):
    norms, note = residual_view(_model(registry, "shakespeare-char"), NORM_TEXT, lang)
    return Shown([norms], note)


@functools.lru_cache(maxsize=1)
def _dead_unit_runs() -> dict:
    """The same small decoder trained briefly at a high learning rate, once with ReLU, once with GELU."""
    ids = torch.tensor(list(load_corpus("bundled").encode("utf-8")))                       # [N] byte ids
    return {name: dead_units_after_training(name, ids, steps=DEAD_STEPS, lr=DEAD_LR) for name in ("relu", "gelu")}


def block_activations(registry, lang):
    """ReLU against GELU, and the feed-forward units left with no positive input after a short training
    at a high learning rate, one model per activation (same seed and data)."""
    runs = _dead_unit_runs()
    shapes = activation_curves()
    t = partial(text, lang)
    names = {"relu": "ReLU", "gelu": "GELU"}
    units = len(runs["relu"].largest)
    fig = viz.activation_comparison(
        shapes["z"], {"ReLU": shapes["relu"], "GELU": shapes["gelu"]},
        {"ReLU": shapes["relu_slope"], "GELU": shapes["gelu_slope"]},
        {names[k]: run.largest for k, run in runs.items()}, {names[k]: run.dead for k, run in runs.items()},
        title=t("fig_lesson_activations", steps=DEAD_STEPS, lr=DEAD_LR, units=units),
        input_label=t("w_input_z"), output_label=t("w_output"), slope_label=t("w_slope"),
        largest_label=t("w_largest_input"), units_label=t("w_units"), dead_label=t("w_below_zero"))
    facts = dict(units=units, relu=runs["relu"].dead, gelu=runs["gelu"].dead,
                 more="relu" if runs["relu"].dead > runs["gelu"].dead else "gelu"
                 if runs["gelu"].dead > runs["relu"].dead else "same")
    note = t("lesson_activations_note", steps=DEAD_STEPS, lr=DEAD_LR, units=units, relu=facts["relu"],
             gelu=facts["gelu"], relu_loss=runs["relu"].loss, gelu_loss=runs["gelu"].loss,
             more=t(f"lesson_activations_more_{facts['more']}"))
    return Shown([fig], note, facts)


@functools.lru_cache(maxsize=1)
def _gradient_norms() -> dict[str, dict[str, float]]:
    """Per-layer gradient norms of untrained decoders (the same seed, so the same initial weights) on one
    batch of the bundled text: pre-norm, post-norm, and pre-norm without its residual connections."""
    text_value = load_corpus("bundled")
    config = ModelConfig(arch="decoder_only", vocab_size=256, d_model=64, n_heads=4, n_decoder_layers=GRADIENT_DEPTH,
                         d_ff=256, max_len=64, tie_weights=False)
    ids = torch.tensor(list(text_value.encode("utf-8")[:GRADIENT_BATCH * 65])).view(GRADIENT_BATCH, 65)   # [B, 65]
    norms = {}
    with torch.inference_mode(False):                      # models built here take gradients, whoever calls
        for name, norm, residual in (("pre", "pre", True), ("post", "post", True), ("no_residual", "pre", False)):
            torch.manual_seed(0)
            model = build_model(config.replace(norm=norm))
            if not residual:
                drop_residuals(model)
            norms[name] = layer_gradient_norms(model, ids[:, :-1], ids[:, 1:])
    return norms


def block_gradients(registry, lang):
    """Each block's gradient at initialisation: pre-norm, post-norm, and without residual connections."""
    norms = _gradient_norms()
    t = partial(text, lang)
    groups = list(norms["pre"])
    labels = [t(f"w_grad_{name}") if name in ("embedding", "output") else t("w_grad_block", i=name.split(".")[-1])
              for name in groups]
    series = {t(f"w_grad_series_{name}"): [values[g] for g in groups] for name, values in norms.items()}
    fig = viz.grouped_bars(labels, series, title=t("fig_lesson_gradients", depth=GRADIENT_DEPTH),
                           category_label=t("w_layer"), value_label=t("w_grad_norm"), log_y=True)
    blocks = [g for g in groups if g not in ("embedding", "output")]
    ranges = {name: (min(values[g] for g in blocks), max(values[g] for g in blocks)) for name, values in norms.items()}
    spread = {name: high / low for name, (low, high) in ranges.items()}
    facts = dict(ranges=ranges, spread=spread, blocks=blocks)
    note = t("lesson_gradients_note", depth=GRADIENT_DEPTH, pre_low=ranges["pre"][0], pre_high=ranges["pre"][1],
             post_low=ranges["post"][0], post_high=ranges["post"][1], pre_spread=spread["pre"],
             post_spread=spread["post"],
             none_low=ranges["no_residual"][0], none_high=ranges["no_residual"][1], none_spread=spread["no_residual"],
             factor=ranges["no_residual"][0] / ranges["pre"][1])
    return Shown([fig], note, facts)


def block_init(registry, lang):
    """A signal's size through a plain stack of linear layers, N(0, 0.02) against Xavier, at two widths."""
    t = partial(text, lang)
    sizes = {width: signal_through_linear_stack(width, INIT_LAYERS) for width in INIT_WIDTHS}
    names = {"normal_0.02": "N(0, 0.02)", "xavier": "Xavier"}
    series = {f"{names[scheme]}, D = {width}": sizes[width].std[scheme] for width in INIT_WIDTHS for scheme in SCHEMES}
    fig = viz.line_chart(list(range(INIT_LAYERS + 1)), series, title=t("fig_lesson_init", layers=INIT_LAYERS),
                         x_label=t("w_linear_layers"), y_label=t("w_signal_std"), log_y=True)
    gains = {width: {scheme: sizes[width].per_layer_gain(scheme) for scheme in SCHEMES} for width in INIT_WIDTHS}
    facts = dict(gains=gains, final={width: {s: sizes[width].std[s][-1] for s in SCHEMES} for width in INIT_WIDTHS})
    small, large = INIT_WIDTHS
    note = t("lesson_init_note", small=small, large=large, gain_small=gains[small]["normal_0.02"],
             gain_large=gains[large]["normal_0.02"], final_small=facts["final"][small]["normal_0.02"],
             final_large=facts["final"][large]["normal_0.02"], xavier=gains[large]["xavier"], layers=INIT_LAYERS,
             expected_small=0.02 * math.sqrt(small), expected_large=0.02 * math.sqrt(large))
    return Shown([fig], note, facts)


# ------------------------------------------------------------------ 8 architectures

def architectures_three(registry, lang):
    configs = presets(registry)
    diagrams = []
    for name in ("masked-char", "shakespeare-char", "reverse"):
        values = {field: getattr(configs[name], field) for field in FIELDS}
        diagrams.append(architecture_views(values, configs[name].max_len, lang)[0])
    return Shown(diagrams)


def architectures_reverse_cross(registry, lang):
    entry = _model(registry, "reverse")
    views = _attention(registry, lang, "reverse", SEQUENCE_PROBE, "cross", "anti_diagonal")
    scores = scores_of(forward_pass(entry, SEQUENCE_PROBE, "", lang), "cross")
    best = {name: float(values.max()) for name, values in scores.items()}
    return Shown([views.grid], views.summary + "\n\n" + _warning(registry, entry, SEQUENCE_PROBE, lang),
                 dict(best=best))


# ------------------------------------------------------------------ 9, 14 timelines

def _timeline(registry, lang, name: str, value: str, kind: str, score: str, steps: int = 3) -> Shown:
    """The head scores of a shipped model at the first, a middle and the last step of its timeline,
    each figure titled with its step."""
    entry = _model(registry, name)
    timeline = registry.timeline_steps(name)
    chosen = sorted({timeline[0], timeline[len(timeline) // 2], timeline[-1]})[:steps]
    t = partial(text, lang)
    figures, best = [], {}
    for step in chosen:
        scores = scores_of(forward_pass(entry_at_step(registry, entry, step), value, "", lang), kind)
        figures.append(viz.head_scores_heatmap(
            scores[score], score_name=t(f"score_{score}"), layer_label=t("w_layer"), head_label=t("w_head"),
            title=t("fig_lesson_timeline_scores", score=t(f"score_{score}"), kind=t(f"kind_title_{kind}"), model=name,
                    step=step)))
        best[step] = float(scores[score].max())
    note = t("lesson_timeline_note", model=name, steps=", ".join(map(str, timeline)),
             shown=", ".join(map(str, chosen)))
    return Shown(figures, note + "\n\n" + _warning(registry, entry, value, lang), dict(steps=chosen, best=best))


def train_copy(registry, lang):
    return _timeline(registry, lang, "copy", SEQUENCE_PROBE, "cross", "diagonal")


SAMPLING_VERDICTS = {"scheduled_sampling": "lesson_ss_better_sampling", "teacher_forcing": "lesson_ss_better_forcing",
                     "same": "lesson_ss_better_same"}


@functools.lru_cache(maxsize=1)
def _scheduled_sampling() -> dict:
    """Teacher forcing against scheduled sampling: the same encoder-decoder, seed and batches, trained
    briefly on reversing letters, scored on held-out sources reading the truth and writing on its own."""
    task = tasks.get("reverse", length=SAMPLING_LENGTH, symbols=SAMPLING_LENGTH)
    with torch.inference_mode(False):                      # models built here take gradients, whoever calls
        return compare_with_teacher_forcing(SAMPLING_MODEL, SAMPLING_TRAIN, task, SAMPLING_FINAL)


def copy_scheduled_sampling(registry, lang):
    """Lesson 9: exposure bias measured on two models trained alike but for how the decoder reads its
    prefix, and scheduled sampling's effect on it."""
    scores = _scheduled_sampling()
    t = partial(text, lang)
    names = {"teacher_forcing": t("w_teacher_forcing"), "scheduled_sampling": t("w_scheduled_sampling")}
    categories = [t("w_ss_read_truth"), t("w_ss_own_tokens"), t("w_ss_own_exact")]
    series = {names[k]: [v.teacher_forced_accuracy, v.free_running_accuracy, v.free_running_exact]
              for k, v in scores.items()}
    fig = viz.grouped_bars(categories, series, title=t("fig_lesson_ss", steps=SAMPLING_TRAIN.max_steps,
                                                       length=SAMPLING_LENGTH),
                           category_label=t("w_ss_measure"), value_label=t("w_share"), percent=True)
    tf, ss = scores["teacher_forcing"], scores["scheduled_sampling"]
    gaps = {k: v.teacher_forced_accuracy - v.free_running_accuracy for k, v in scores.items()}
    better = ("scheduled_sampling" if ss.free_running_exact > tf.free_running_exact else "teacher_forcing"
              if tf.free_running_exact > ss.free_running_exact else "same")
    facts = dict(scores={k: vars(v) for k, v in scores.items()}, gaps=gaps, better=better)
    note = t("lesson_ss_note", steps=SAMPLING_TRAIN.max_steps, length=SAMPLING_LENGTH, final=SAMPLING_FINAL,
             tf_truth=tf.teacher_forced_accuracy, tf_own=tf.free_running_accuracy, tf_exact=tf.free_running_exact,
             ss_truth=ss.teacher_forced_accuracy, ss_own=ss.free_running_accuracy, ss_exact=ss.free_running_exact,
             tf_gap=100 * gaps["teacher_forcing"], ss_gap=100 * gaps["scheduled_sampling"],
             verdict=t(SAMPLING_VERDICTS[better]))
    return Shown([fig], note, facts)


def heads_form_timeline(registry, lang):
    return _timeline(registry, lang, "induction", INDUCTION_PROBE, "decoder", "induction")


def heads_form_patching(registry, lang):
    """Activation patching of the induction model on the lesson's repeat, corrupted as the Attention tab
    suggests: the token after the earlier occurrence of the last token changed."""
    entry = _model(registry, "induction")
    corrupted = suggested_corruption(entry, INDUCTION_PROBE, lang)
    views = patching_views(entry, INDUCTION_PROBE, corrupted, lang)
    changed = next(i for i, (a, b) in enumerate(zip(INDUCTION_PROBE, corrupted)) if a != b)
    note = text(lang, "lesson_patching_note", clean=literal(visible(INDUCTION_PROBE)),
                corrupted=literal(visible(corrupted)), changed=changed)
    return Shown([views.residual, views.heads], note + "\n\n" + views.summary,
                 dict(views.facts, changed=changed, last=len(INDUCTION_PROBE) - 1))


def heads_form_attribution(registry, lang):
    """Direct logit attribution of the induction model's answer after the lesson's repeat."""
    view = attribution_view(_model(registry, "induction"), INDUCTION_PROBE, "", lang)
    return Shown([view.figure], view.summary, view.facts)


# ------------------------------------------------------------------ 10 character LM

def char_lm_timeline(registry, lang):
    timeline = registry.timeline_steps("shakespeare-char")
    figures, chosen, top = [], (timeline[0], timeline[-1]), {}
    t = partial(text, lang)
    for step in chosen:
        entry = entry_at_step(registry, _model(registry, "shakespeare-char"), step)
        generation = Generation.start(entry, SHAKESPEARE_PROMPT, SamplingConfig(max_new_tokens=1))
        step_taken = generation.stepper.step()
        figures.append(candidates_figure(generation, lang, title=t(
            "fig_lesson_candidates_step", model="shakespeare-char", step=step, prompt=SHAKESPEARE_PROMPT.replace(
                "\n", " ↵ "))))
        top[step] = float(step_taken.raw_probs.max())
    note = text(lang, "lesson_timeline_note", model="shakespeare-char", steps=", ".join(map(str, timeline)),
                shown=", ".join(map(str, chosen)))
    return Shown(figures, note, dict(steps=chosen, top=top))


def char_lm_window(registry, lang):
    """One training window of the rhyme exactly as the lesson's run draws it (LMData.batch, block
    RHYME_BLOCK_SIZE): the characters read, and under them the targets, the same text one character on."""
    text_value = load_corpus("rhyme")
    data = LMData(text_value, CharTokenizer.from_text(text_value), RHYME_BLOCK_SIZE)
    x, y = data.batch("train", 1, torch.Generator().manual_seed(WINDOW_SEED))            # [1, T] each
    inputs, targets = ([data.tokenizer.decode([i]) for i in row[0].tolist()] for row in (x, y))   # characters
    t = partial(text, lang)
    fig = viz.shifted_window(inputs, targets, title=t("fig_lesson_window", block=RHYME_BLOCK_SIZE),
                             row_labels=(t("w_window_input"), t("w_window_target")), position_label=t("w_position"))
    facts = dict(inputs="".join(inputs), targets="".join(targets), block=RHYME_BLOCK_SIZE)
    note = t("lesson_window_note", block=RHYME_BLOCK_SIZE, first=literal(visible_token(inputs[1])),
             last=literal(visible_token(targets[-1])))
    return Shown([fig], note, facts)


# ------------------------------------------------------------------ 11 decoding

def _candidates(registry, lang, name: str, prompt: str, **settings):
    entry = _model(registry, name)
    generation = Generation.start(entry, prompt, SamplingConfig(**{"strategy": "sample", "max_new_tokens": 1,
                                                                   **settings}))
    step = generation.stepper.step()
    return candidates_figure(generation, lang), step


def decoding_candidates(registry, lang):
    figure_, step = _candidates(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, top_k=10, top_p=0.9)
    kept = {name: int((probs > 0).sum()) for name, probs in step.stages.items()}
    note = text(lang, "lesson_candidates_note", kept_k=kept["top-k"], kept_p=kept["top-p"],
                p=float(step.probs[step.token_id]), raw=float(step.raw_probs[step.token_id]),
                n=1 / float(step.raw_probs[step.token_id]))
    return Shown([figure_], note, dict(kept=kept))


def decoding_temperature(registry, lang):
    """One step of shakespeare-char at each of DECODING_TEMPERATURES, each figure titled with its temperature."""
    t = partial(text, lang)
    figures, facts = [], {}
    for temperature in DECODING_TEMPERATURES:
        fig, step = _candidates(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, temperature=temperature)
        probs = step.stages["temperature"]
        top = int(np.argmax(step.raw_probs))
        figures.append(fig)
        facts[temperature] = dict(top=step.token_text if top == step.token_id else None, top_id=top,
                                  top_share=float(probs[top]), raw_share=float(step.raw_probs[top]),
                                  tokens_90=int(np.searchsorted(np.cumsum(np.sort(probs)[::-1]), 0.9) + 1))
    low, high = sorted(DECODING_TEMPERATURES)
    piece = _model(registry, "shakespeare-char").tokenizer.id_to_piece
    note = t("lesson_temperature_note", low=low, high=high, token=visible_token(piece(facts[low]["top_id"])),
             raw=facts[low]["raw_share"], low_share=facts[low]["top_share"], high_share=facts[high]["top_share"],
             low_90=facts[low]["tokens_90"], high_90=facts[high]["tokens_90"])
    return Shown(figures, note, facts)


def decoding_beam(registry, lang):
    entry = _model(registry, "reverse")
    settings = SamplingConfig(strategy="beam", beam_width=3, max_new_tokens=12)
    views = beam_views(entry, SEQUENCE_PROBE, settings, lang)
    best = beam_search(entry.model, entry.tokenizer, SEQUENCE_PROBE, 3, 12).best.text
    return Shown([views.tree], views.status + "\n\n" + _warning(registry, entry, SEQUENCE_PROBE, lang),
                 dict(best=best, right=SEQUENCE_PROBE[::-1]))


REPETITION_STRATEGIES = ("greedy", "penalty", "beam", "sample")


@functools.lru_cache(maxsize=1)
def _repetitions(registry: ModelRegistry) -> dict[str, list]:
    """Strategy -> for each REPETITION_PROMPTS: (generated ids, text) of REPETITION_TOKENS new tokens of
    REPETITION_MODEL (beam search of width BEAM_WIDTH)."""
    entry = _model(registry, REPETITION_MODEL)
    settings = {"greedy": SamplingConfig(max_new_tokens=REPETITION_TOKENS),
                "penalty": SamplingConfig(max_new_tokens=REPETITION_TOKENS, repetition_penalty=REPETITION_PENALTY),
                "sample": SamplingConfig(strategy="sample", max_new_tokens=REPETITION_TOKENS, seed=0)}
    out = {name: [] for name in REPETITION_STRATEGIES}
    with torch.inference_mode():
        for prompt in REPETITION_PROMPTS:
            for name, config in settings.items():
                stepper = Stepper(entry.model, entry.tokenizer, prompt, config, trace_attention=False)
                for _ in stepper.run():
                    pass
                out[name].append((stepper.generated_ids, stepper.generated_text))
            best = beam_search(entry.model, entry.tokenizer, prompt, BEAM_WIDTH, REPETITION_TOKENS).best
            out["beam"].append((best.token_ids, best.text))
    return out


def decoding_repetition(registry, lang):
    """How much each decoding repeats itself, REPETITION_TOKENS tokens of REPETITION_MODEL after each prompt."""
    runs = _repetitions(registry)
    t = partial(text, lang)
    labels = {"greedy": t("w_rep_greedy"), "penalty": t("w_rep_penalty", penalty=REPETITION_PENALTY),
              "beam": t("w_rep_beam", width=BEAM_WIDTH), "sample": t("w_rep_sample")}
    shares = {name: [repetition(ids).repeated for ids, _ in runs[name]] for name in REPETITION_STRATEGIES}
    prompts = [p.strip().rstrip(":") for p in REPETITION_PROMPTS]
    fig = viz.grouped_bars(prompts, {labels[name]: shares[name] for name in REPETITION_STRATEGIES},
                           title=t("fig_lesson_repetition", model=REPETITION_MODEL, n=REPETITION_TOKENS),
                           category_label=t("w_prompt"), value_label=t("w_repeated_share"), percent=True)
    means = {name: float(np.mean(values)) for name, values in shares.items()}
    most = max(means, key=means.get)
    excerpt = {name: runs[name][0][1].replace("\n", " ↵ ")[:90] for name in ("greedy", "beam")}
    note = t("lesson_repetition_note", model=REPETITION_MODEL, n=REPETITION_TOKENS, prompts=len(prompts),
             greedy=means["greedy"], penalty=means["penalty"], beam=means["beam"], sample=means["sample"],
             most=labels[most], factor=REPETITION_PENALTY, width=BEAM_WIDTH, greedy_text=excerpt["greedy"],
             beam_text=excerpt["beam"])
    return Shown([fig], note, dict(means=means, most=most, shares=shares))


# ------------------------------------------------------------------ 12 measuring

def _number(value: float | None, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def measuring_table(registry, lang):
    """Every shipped model's held-out results as its card states them, each loss beside its two
    baselines and its perplexity as a number of equally likely tokens, exact match beside BLEU."""
    t = partial(text, lang)
    rows, facts = [], {}
    for entry in registry.entries():
        if entry.source != "pretrained":
            continue
        loss = card_number(entry.card, "validation loss")
        found = dict(loss=loss, uniform=uniform_loss(entry.config.target_vocab_size), unigram=unigram_of(entry),
                     accuracy=card_number(entry.card, "token accuracy"), exact=card_number(entry.card, "exact match"),
                     bleu=card_number(entry.card, "BLEU"), seq2seq=entry.task is not None)
        name = entry.name if not isinstance(entry.tokenizer, BPETokenizer) else t("w_per_bpe_token", model=entry.name)
        facts[name] = found
        rows.append([name, _number(loss, ".3f"), _number(found["uniform"], ".2f"), _number(found["unigram"], ".2f"),
                     "–" if loss is None else f"{as_unsure_as(loss):.2f}", _number(found["accuracy"], ".1%"),
                     _number(found["exact"], ".1%"), _number(found["bleu"], ".1f")])
        unseen = UNSEEN_FORMATS.search(entry.card or "")
        if unseen is not None:                 # the dates model on formats it never trained on
            label = t("w_unseen_formats", model=entry.name)
            facts[label] = dict(loss=None, bleu=float(unseen.group(2)), exact=float(unseen.group(1)) / 100,
                                seq2seq=True)
            rows.append([label, "–", "–", "–", "–", "–", f"{float(unseen.group(1)) / 100:.1%}", unseen.group(2)])
    columns = [list(column) for column in zip(*rows)]
    headers = [t("w_model"), t("w_val_loss"), t("w_uniform_loss"), t("w_unigram_loss"), t("w_as_unsure_as"),
               t("w_token_accuracy"), t("w_exact_match"), t("w_bleu")]
    fig = figure(**table(columns, headers, [3, 2, 2, 2, 2, 2, 2, 2], t("fig_lesson_held_out")))
    with_bleu = [name for name, found in facts.items() if found["seq2seq"] and found["bleu"] is not None]
    without = [name for name, found in facts.items() if found["seq2seq"] and found["bleu"] is None]
    note = t("lesson_measuring_note")
    if any(isinstance(entry.tokenizer, BPETokenizer) for entry in registry.entries() if entry.source == "pretrained"):
        note += " " + t("lesson_measuring_bpe")
    if with_bleu:
        note += "\n\n" + t("lesson_bleu_listed", models=", ".join(with_bleu))
    if without:
        note += "\n\n" + t("lesson_bleu_missing", models=", ".join(without))
    return Shown([fig], note, dict(models=facts))


def measuring_perplexity(registry, lang):
    t = partial(text, lang)
    entry = _model(registry, "shakespeare-char")
    loss = float(held_out(entry.card)["validation loss"].split()[0])
    columns = [["shakespeare-char"], [f"{loss:.4f}"], [f"{math.exp(loss):.3f}"]]
    fig = figure(**table(columns, [t("w_model"), t("w_val_loss"), t("w_exp_loss")], [2, 2, 2],
                         t("fig_lesson_perplexity")))
    note = t("lesson_perplexity_note", loss=loss, ppl=math.exp(loss)) + "\n\n" + entry_loss_meaning(entry, loss, lang)
    return Shown([fig], note, dict(loss=loss, perplexity=math.exp(loss), unigram=unigram_of(entry),
                                   uniform=uniform_loss(entry.config.target_vocab_size)))


def measuring_probes(registry, lang):
    """The induction model's probes: inside a repeat (readable) and the offset inside it (at chance)."""
    entry = _model(registry, "induction")
    t = partial(text, lang)
    figures, notes, facts = [], [], {}
    for prop in PROBED_PROPERTIES:
        view = probe_view(entry, entry, prop, lang)
        figures.append(view.figure)
        notes.append(f"**{t(f'pr_property_{prop}')}**: {view.summary}")
        facts[prop] = view.facts
    return Shown(figures, "\n\n".join(notes), facts)


# ------------------------------------------------------------------ 13 bugs

def bugs_lab(registry, lang):
    views = _attention(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, "decoder")
    return Shown([views.grid])


# ------------------------------------------------------------------ 15 cost

def _gpt2_views(registry, lang):
    config = presets(registry)[GPT2_PRESET]
    return architecture_views({field: getattr(config, field) for field in FIELDS}, CONTEXT_LENGTH, lang)


def cost_treemap(registry, lang):
    _, treemap, summary, _ = _gpt2_views(registry, lang)
    return Shown([treemap], summary)


def cost_kv_cache(registry, lang):
    _, _, _, rows = _gpt2_views(registry, lang)
    t = partial(text, lang)
    columns = [list(column) for column in zip(*rows)]
    return Shown([figure(**table(columns, [t("w_quantity"), t("w_component"), t("w_value")], [3, 3, 2],
                                 t("fig_lesson_cost", n=CONTEXT_LENGTH)))])


def cost_gpt2(registry, lang):
    diagram, treemap, summary, _ = _gpt2_views(registry, lang)
    return Shown([diagram, treemap], summary)


def cost_recurrence(registry, lang):
    """The cost of one layer over n positions, like for like: self-attention against a recurrent layer."""
    costs = layer_costs(MIXING_WIDTH, list(MIXING_LENGTHS))
    t = partial(text, lang)
    fig = viz.line_chart(costs.lengths, {t("w_self_attention"): costs.attention, t("w_recurrent"): costs.recurrent},
                         title=t("fig_lesson_recurrence", d=MIXING_WIDTH), x_label=t("w_sequence_length"),
                         y_label=t("w_multiply_adds"), log_x=True, log_y=True, value_format=".3s")
    shown = MIXING_LENGTHS.index(MIXING_WIDTH)
    note = t("lesson_recurrence_note", d=MIXING_WIDTH, n0=costs.lengths[0], ratio0=costs.ratios[0],
             n=costs.lengths[shown], ratio=costs.ratios[shown], attention=costs.attention[shown],
             recurrent=costs.recurrent[shown], steps=costs.recurrent_steps[shown], path=costs.recurrent_path[shown])
    return Shown([fig], note, dict(d=MIXING_WIDTH, n0=costs.lengths[0], ratio0=round(costs.ratios[0], 2),
                                   n=costs.lengths[shown], ratio=round(costs.ratios[shown], 2),
                                   path=costs.recurrent_path[shown], steps=costs.recurrent_steps[shown]))


VIEWS: dict[str, View] = {view.__name__: view for view in (
    tokens_compare,
    tokens_merges,
    tokens_chinese,
    embeddings_neighbours,
    embeddings_pca,
    embeddings_untrained_vs_trained,
    positions_table,
    positions_curves,
    positions_shuffle,
    positions_add_vs_concat,
    attention_by_hand,
    attention_by_hand_causal,
    heads_shapes,
    heads_fused,
    masks,
    masks_nan,
    layernorm_by_hand,
    layernorm_vs_batchnorm,
    residual_norms,
    block_activations,
    block_gradients,
    block_init,
    architectures_three,
    architectures_reverse_cross,
    train_copy,
    copy_scheduled_sampling,
    char_lm_timeline,
    char_lm_window,
    decoding_candidates,
    decoding_temperature,
    decoding_beam,
    decoding_repetition,
    measuring_table,
    measuring_perplexity,
    measuring_probes,
    bugs_lab,
    heads_form_timeline,
    heads_form_patching,
    heads_form_attribution,
    cost_treemap,
    cost_kv_cache,
    cost_gpt2,
    cost_recurrence,
)}

from .llm_lesson import LLM_VIEWS  # noqa: E402  (lesson 16's views, in their own module, which reads Shown above)

VIEWS.update(LLM_VIEWS)
