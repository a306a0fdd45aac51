"""The Lessons tab's live views: each key a syllabus lesson names -> (registry, lang) -> (figures,
note), built by the same view functions as the tabs, on shipped models only (so every session
shares them through the view cache)."""
from __future__ import annotations

import math
import re
from functools import partial
from typing import Callable

import plotly.graph_objects as go

from playground.viz.theme import figure, table

from playground.zoo import ModelRegistry
from ...text.i18n import text
from ...views.embeddings import embedding_view
from ...views.masks import mask_views
from ...views.norms import batch_norm_view, layer_norm_view, residual_view
from ...views.worked_attention import worked_attention_view
from ..architecture.views import FIELDS, GPT2_PRESET, architecture_views, presets
from ..attention.views import attention_views, entry_at_step, forward_pass, scores_view
from ..generate.views import Generation, beam_views, candidates_figure, check_settings
from ..positional.views import DEFAULT_DIMS, DEFAULT_SHUFFLE_TEXT, shuffle_demo, sinusoidal_views
from ..tokenizer.views import tokenize_views

View = Callable[[ModelRegistry, str], tuple[list[go.Figure], str]]

TOKENS_TEXT = "The transformer reads every token at once."
CHINESE_TEXT = "注意力"
SHAKESPEARE_PROMPT = "ROMEO:\nWhat light"
NORM_TEXT = "To be, or not"
WORKED_TEXT = "abcd"
COPY_PROBE = "abcdefgh"
INDUCTION_PROBE = "qzjxkvwb qzjxkvwb"
CONTEXT_LENGTH = 1024
_HELD_OUT = re.compile(r"^- (?P<name>[^:]+): (?P<value>.+)$")


def _model(registry: ModelRegistry, name: str):
    entry = registry.get(name)
    if entry is None:
        raise LookupError(f"the lesson's model {name!r} is not shipped")
    return entry


def tokens_compare(registry, lang):
    char_plot, bpe_plot, counts, _, _ = tokenize_views(TOKENS_TEXT, "bundled", 400, lang)
    return [char_plot, bpe_plot], counts


def tokens_merges(registry, lang):
    _, _, _, merges, _ = tokenize_views(TOKENS_TEXT, "bundled", 400, lang)
    return [merges], ""


def tokens_chinese(registry, lang):
    _, bpe_plot, counts, _, utf8 = tokenize_views(CHINESE_TEXT, "bundled", 400, lang)
    return [bpe_plot], counts + "\n\n" + utf8


def embeddings_neighbours(registry, lang):
    bars, _, note = embedding_view(_model(registry, "shakespeare-char"), "e", lang)
    return [bars], note


def embeddings_pca(registry, lang):
    _, embedding_map, _ = embedding_view(_model(registry, "shakespeare-char"), "e", lang)
    return [embedding_map], ""


def embeddings_untrained_vs_trained(registry, lang):
    untrained, _, _ = embedding_view(_model(registry, "untrained-gpt"), "e", lang)
    trained, _, _ = embedding_view(_model(registry, "shakespeare-char"), "e", lang)
    return [untrained, trained], ""


def positions_table(registry, lang):
    heatmap, _, _ = sinusoidal_views(64, 64, DEFAULT_DIMS, lang)
    return [heatmap], ""


def positions_curves(registry, lang):
    _, curves, similarity = sinusoidal_views(64, 64, DEFAULT_DIMS, lang)
    return [curves, similarity], ""


def positions_shuffle(registry, lang):
    rows, summary = shuffle_demo(DEFAULT_SHUFFLE_TEXT, 0, lang)
    t = partial(text, lang)
    columns = [list(column) for column in zip(*rows)]
    headers = [t("w_encoding"), t("w_largest_difference"), t("w_verdict")]
    return [figure(**table(columns, headers, [2, 2, 4], t("fig_lesson_shuffle")))], summary


def _worked(registry, lang, name: str):
    entry = _model(registry, name)
    stacked, steps, note = worked_attention_view(entry, WORKED_TEXT, entry.config.arch == "encoder_only"
                                                 and "encoder" or "decoder", 0, 0, lang)
    return [stacked, steps], note


def attention_by_hand(registry, lang):
    return _worked(registry, lang, "masked-char")


def attention_by_hand_causal(registry, lang):
    return _worked(registry, lang, "shakespeare-char")


def _attention(registry, lang, name: str, value: str, kind: str, score: str = "", entry=None):
    entry = entry or _model(registry, name)
    return attention_views(entry, value, "", kind, 0, 0, False, score, lang)


def heads_shapes(registry, lang):
    views = _attention(registry, lang, "copy", COPY_PROBE, "cross")
    return [views.shapes], ""


def masks(registry, lang):
    figures, _, note = mask_views(_model(registry, "reverse"), "abcdefgh", "abc", lang)
    return list(figures), note


def masks_nan(registry, lang):
    _, combined, note = mask_views(_model(registry, "reverse"), "abcdefgh", "abc", lang)
    return [combined], note


def layernorm_by_hand(registry, lang):
    vector, note = layer_norm_view(_model(registry, "shakespeare-char"), NORM_TEXT, 0, 0, lang)
    return [vector], note


def layernorm_vs_batchnorm(registry, lang):
    batch, note = batch_norm_view(_model(registry, "shakespeare-char"), NORM_TEXT, lang)
    return [batch], note


def residual_norms(registry, lang):
    norms, note = residual_view(_model(registry, "shakespeare-char"), NORM_TEXT, lang)
    return [norms], note


def architectures_three(registry, lang):
    configs = presets(registry)
    diagrams = []
    for name in ("masked-char", "shakespeare-char", "reverse"):
        values = {field: getattr(configs[name], field) for field in FIELDS}
        diagrams.append(architecture_views(values, configs[name].max_len, lang)[0])
    return diagrams, ""


def architectures_reverse_cross(registry, lang):
    views = _attention(registry, lang, "reverse", "abcdefgh", "cross", "anti_diagonal")
    return [views.grid], views.summary


def _timeline(registry, lang, name: str, value: str, kind: str, score: str, steps: int = 3):
    """The head scores of a shipped model at the first, a middle and the last step of its timeline."""
    entry = _model(registry, name)
    timeline = registry.timeline_steps(name)
    chosen = sorted({timeline[0], timeline[len(timeline) // 2], timeline[-1]})[:steps]
    figures = []
    for step in chosen:
        attention = forward_pass(entry_at_step(registry, entry, step), value, "", lang)
        figures.append(scores_view(attention, kind, score, lang)[0])
    return figures, text(lang, "lesson_timeline_note", model=name, steps=", ".join(map(str, timeline)),
                         shown=", ".join(map(str, chosen)))


def train_copy(registry, lang):
    return _timeline(registry, lang, "copy", COPY_PROBE, "cross", "diagonal")


def _candidates(registry, lang, name: str, prompt: str, **settings):
    entry = _model(registry, name)
    values = {"strategy": "sample", "temperature": 1.0, "top_k": 0, "top_p": 1.0, "seed": 0, "max_new": 1,
              "beam_width": 3, **settings}
    generation = Generation.start(entry, prompt, check_settings(**values, vocab_size=entry.tokenizer.vocab_size,
                                                                lang=lang))
    generation.stepper.step()
    return candidates_figure(generation, lang)


def char_lm_timeline(registry, lang):
    timeline = registry.timeline_steps("shakespeare-char")
    figures, chosen = [], (timeline[0], timeline[-1])
    for step in chosen:
        entry = entry_at_step(registry, _model(registry, "shakespeare-char"), step)
        generation = Generation.start(entry, SHAKESPEARE_PROMPT, check_settings(
            "greedy", 1.0, 0, 1.0, 0, 1, 3, entry.tokenizer.vocab_size, lang))
        generation.stepper.step()
        figures.append(candidates_figure(generation, lang))
    return figures, text(lang, "lesson_timeline_note", model="shakespeare-char", steps=", ".join(map(str, timeline)),
                         shown=", ".join(map(str, chosen)))


def decoding_candidates(registry, lang):
    return [_candidates(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, top_k=10, top_p=0.9)], ""


def decoding_temperature(registry, lang):
    return [_candidates(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, temperature=value)
            for value in (0.5, 2.0)], ""


def decoding_beam(registry, lang):
    entry = _model(registry, "reverse")
    settings = check_settings("beam", 1.0, 0, 1.0, 0, 12, 3, entry.tokenizer.vocab_size, lang)
    views = beam_views(entry, "abcdefgh", settings, lang)
    return [views.tree], views.status


def held_out(card: str) -> dict[str, str]:
    """The "Held-out results" lines of a model card: name -> value as written."""
    results, inside = {}, False
    for line in card.splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Held-out results"
        elif inside and (match := _HELD_OUT.match(line.strip())):
            results[match["name"]] = match["value"]
    return results


def measuring_table(registry, lang):
    t = partial(text, lang)
    rows = [(entry.name, name, value) for entry in registry.entries() if entry.source == "pretrained"
            for name, value in held_out(entry.card).items()]
    columns = [list(column) for column in zip(*rows)]
    return [figure(**table(columns, [t("w_model"), t("w_metric"), t("w_value")], [2, 3, 3],
                           t("fig_lesson_held_out")))], ""


def measuring_perplexity(registry, lang):
    t = partial(text, lang)
    loss = float(held_out(_model(registry, "shakespeare-char").card)["validation loss"].split()[0])
    columns = [["shakespeare-char"], [f"{loss:.4f}"], [f"{math.exp(loss):.3f}"]]
    return [figure(**table(columns, [t("w_model"), t("w_val_loss"), t("w_exp_loss")], [2, 2, 2],
                           t("fig_lesson_perplexity")))], t("lesson_perplexity_note", loss=loss, ppl=math.exp(loss))


def bugs_lab(registry, lang):
    views = _attention(registry, lang, "shakespeare-char", SHAKESPEARE_PROMPT, "decoder")
    return [views.grid], ""


def heads_form_timeline(registry, lang):
    return _timeline(registry, lang, "induction", INDUCTION_PROBE, "decoder", "induction")


def _gpt2_views(registry, lang):
    config = presets(registry)[GPT2_PRESET]
    return architecture_views({field: getattr(config, field) for field in FIELDS}, CONTEXT_LENGTH, lang)


def cost_treemap(registry, lang):
    _, treemap, summary, _ = _gpt2_views(registry, lang)
    return [treemap], summary


def cost_kv_cache(registry, lang):
    _, _, _, rows = _gpt2_views(registry, lang)
    t = partial(text, lang)
    columns = [list(column) for column in zip(*rows)]
    return [figure(**table(columns, [t("w_quantity"), t("w_component"), t("w_value")], [3, 3, 2],
                           t("fig_lesson_cost", n=CONTEXT_LENGTH)))], ""


def cost_gpt2(registry, lang):
    diagram, treemap, summary, _ = _gpt2_views(registry, lang)
    return [diagram, treemap], summary


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
    attention_by_hand,
    attention_by_hand_causal,
    heads_shapes,
    masks,
    masks_nan,
    layernorm_by_hand,
    layernorm_vs_batchnorm,
    residual_norms,
    architectures_three,
    architectures_reverse_cross,
    train_copy,
    char_lm_timeline,
    decoding_candidates,
    decoding_temperature,
    decoding_beam,
    measuring_table,
    measuring_perplexity,
    bugs_lab,
    heads_form_timeline,
    cost_treemap,
    cost_kv_cache,
    cost_gpt2,
)}
