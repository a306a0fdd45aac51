"""What the Attention and Generate tabs show when heads are switched off, and the logit lens.

Plain functions of (model entry, input text, settings, language) that return figures and
markdown; they validate their input and raise gr.Error with a message saying what to change.

    head_choices(entry, lang)                       -> [(label, value)] for a head picker
    heads_off_views(entry, value, settings, lang)   -> HeadsOffViews
    logit_lens_figure(entry, value, lang)           -> go.Figure

HEADS_OFF_EXPLANATION and LOGIT_LENS_EXPLANATION are the keys of the panel text beside them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Sequence

import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis import exact_match_change, generation_change, logit_lens, next_token_change
from playground.data import BOS_ID, EOS_ID
from playground.data.tokenizer import visible
from playground.generate.batch import bos, greedy
from playground.model import ABLATIONS, Head
from playground.viz.labels import plotly_text
from playground.zoo import ModelEntry

from ..inputs.validation import MAX_INPUT_CHARS, check_choice, check_known_chars, check_text, fail
from ..text.i18n import text
from ..text.markup import literal

MAX_VIEW_TOKENS = 64           # input tokens these views read at most
CONTEXT_SHOWN = 8              # tokens of the context a prediction is read after, shown in its title
GENERATED_TOKENS = 20          # tokens generated before and after switching heads off
EXACT_MATCH_EXAMPLES = 32      # held-out examples of a seq2seq model's task
TOP_CANDIDATES = 10
HEADS_OFF_EXPLANATION = "ho_explain"          # the panel text beside these views (i18n keys)
LOGIT_LENS_EXPLANATION = "lens_explain"
HOW_TEXT = {"zero": "ho_how_zero", "mean": "ho_how_mean"}
# where the prediction is read: a decoder predicts the next token, an encoder-only model each position's own
DISTRIBUTION_TITLE = {True: "fig_ho_distribution_next", False: "fig_ho_distribution_last"}
LENS_TITLE = {True: "fig_logit_lens_next", False: "fig_logit_lens_last"}
LENS_LAYER = {"decoder": "w_lens_layer_decoder", "encoder": "w_lens_layer_encoder"}


@dataclass(frozen=True)
class HeadsOffSettings:
    heads: Sequence[str] = ()  # head picker values, "SITE.LAYER.HEAD" with SITE a site id: "cross.1.3"
    how: str = "zero"          # "zero" or "mean"


@dataclass
class HeadsOffViews:
    distribution: go.Figure            # the prediction with every head on and with the chosen heads off
    summary: str                       # markdown: KL divergence and the top token before and after
    generation: str | None             # markdown: greedy continuations, changed tokens in bold (None: no decoder)
    exact_match: str | None = field(default=None)   # markdown, for a seq2seq model trained on a known task


def head_value(head: Head) -> str:
    return f"{head.site.id}.{head.layer}.{head.head}"


def all_heads(entry: ModelEntry) -> list[Head]:
    """Every head of every attention site of the model, site by site, layer by layer."""
    config = entry.config
    layers = {"encoder": config.n_encoder_layers, "decoder": config.n_decoder_layers}
    return [Head(site, layer, head) for site in entry.model.sites()
            for layer in range(layers[site.stack]) for head in range(config.n_heads)]


def head_choices(entry: ModelEntry, lang: str) -> list[tuple[str, str]]:
    """(label, value) of every head, e.g. ("cross-attention (target → source) · L1·H3", "cross.1.3")."""
    return [(f"{text(lang, f'kind_{h.site.id}')} · {text(lang, 'w_layer_head', layer=h.layer, head=h.head)}",
             head_value(h)) for h in all_heads(entry)]


def parse_heads(entry: ModelEntry, values, lang: str) -> list[Head]:
    """The heads named by head picker values; gr.Error for a value the model has no head for."""
    if isinstance(values, str) or not isinstance(values, (list, tuple)) or not values:
        raise fail(lang, "err_ho_no_heads")
    known = {head_value(h): h for h in all_heads(entry)}
    for value in values:
        if value not in known:
            raise fail(lang, "err_ho_unknown_head", value=value, model=entry.name)
    return [known[v] for v in dict.fromkeys(values)]


@dataclass
class _Input:
    ids: list[int]                     # what the decoder reads (or the encoder of an encoder-only model)
    source: list[int] | None           # what the encoder of a seq2seq model reads


def _read_input(entry: ModelEntry, value, lang: str) -> _Input:
    """Decoder-only and encoder-only: the text itself. Seq2seq: the text is the source; the decoder
    reads <bos> and then the model's own greedy output."""
    value = check_text(value, lang, MAX_INPUT_CHARS)
    check_known_chars(value, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(value)
    limit = min(entry.config.max_len, MAX_VIEW_TOKENS)
    if len(ids) > limit:
        raise fail(lang, "err_too_many_tokens", what=text(lang, "what_input"), n=len(ids), limit=limit)
    if not (entry.model.has_encoder and entry.model.has_decoder):
        return _Input(ids, None)
    return _Input([BOS_ID], ids)


def _own_target(entry: ModelEntry, source: list[int]) -> list[int]:
    """<bos> and the model's greedy output for `source`, without its final eos."""
    budget = min(entry.config.max_len, MAX_VIEW_TOKENS) - 1
    with torch.inference_mode():
        decoded = greedy(entry.model, bos(1), budget, torch.tensor([source]))[0]
    return [BOS_ID, *(i for i in decoded if i != EOS_ID)]


def _piece(entry: ModelEntry, token_id: int) -> str:
    return entry.tokenizer.id_to_piece(token_id)


def _shown(piece: str) -> str:
    """A token for Markdown: whitespace drawn visibly, written literally."""
    return literal(visible(piece)) if piece else "∅"


def _context_text(entry: ModelEntry, ids: list[int], figure: bool = False) -> str:
    """The last CONTEXT_SHOWN tokens of a decoder input ("… h g f"), each written literally for
    Markdown, or for a figure's title when `figure`."""
    written = (plotly_text(visible(_piece(entry, i))) if figure else _shown(_piece(entry, i))
               for i in ids[-CONTEXT_SHOWN:])
    return ("… " if len(ids) > CONTEXT_SHOWN else "") + " ".join(written)


def heads_off_views(entry: ModelEntry, value, settings: HeadsOffSettings, lang: str) -> HeadsOffViews:
    """Every head on vs. the chosen heads switched off: generation, the next-token distribution where the
    greedy outputs first part (at the input's end when they never do), exact match."""
    t = partial(text, lang)
    how = check_choice(settings.how, ABLATIONS, lang, "ho_how")
    heads = parse_heads(entry, settings.heads, lang)
    read = _read_input(entry, value, lang)
    model = entry.model
    gen, context = None, read.ids
    if model.has_decoder:
        room = entry.config.max_len - len(read.ids)
        with torch.inference_mode():
            gen = generation_change(model, heads, read.ids, min(GENERATED_TOKENS, room), read.source, how)
        parted = next((i for i, changed in enumerate(gen.changed) if changed), None)
        if parted is not None:
            context = [*read.ids, *gen.before[:parted]]                     # the prediction where they first part
    with torch.inference_mode():
        change = next_token_change(model, heads, context, read.source, how)
    pieces = [_piece(entry, i) for i in range(len(change.before))]
    top_before, top_after = int(change.before.argmax()), int(change.after.argmax())
    title = (t("fig_ho_distribution_after", context=_context_text(entry, context, figure=True), n=len(heads))
             if model.has_decoder else t(DISTRIBUTION_TITLE[False], n=len(heads)))
    distribution = viz.candidate_bars(
        pieces, {t("w_ho_before"): change.before, t("w_ho_after"): change.after}, top_after, top_n=TOP_CANDIDATES,
        title=title, chosen_label=t("w_ho_top_after"),
        token_label=t("w_token"), probability_label=t("w_probability"))
    summary = t("ho_summary", kl=change.kl, before=_shown(pieces[top_before]), p_before=float(change.before[top_before]),
                after=_shown(pieces[top_after]), p_after=float(change.after[top_after]),
                how=t(HOW_TEXT[how]), n=len(heads))
    if model.has_decoder:
        summary = t("ho_where", context=_context_text(entry, context)) + " " + summary
    generation = None
    if gen is not None:
        marked = [[_shown(_piece(entry, i)) for i in row] for row in (gen.before, gen.after)]
        for row in marked:
            for i in range(len(row)):
                if gen.changed[i]:
                    row[i] = f"**{row[i]}**"
        generation = t("ho_generation", before=" ".join(marked[0]) or "∅", after=" ".join(marked[1]) or "∅",
                       changed=sum(gen.changed), total=len(gen.changed))
    exact = None
    if entry.task is not None and model.has_encoder and model.has_decoder:
        pairs = [entry.task.encode_pair(s, tgt) for s, tgt in entry.task.held_out(EXACT_MATCH_EXAMPLES)]
        with torch.inference_mode():
            match = exact_match_change(model, heads, pairs, how)
        exact = t("ho_exact_match", before=match.before, after=match.after, n=len(pairs), task=entry.task.name)
    return HeadsOffViews(distribution, summary, generation, exact)


def logit_lens_figure(entry: ModelEntry, value, lang: str) -> go.Figure:
    """The top token and its probability after every layer, at every position of the input (for a
    seq2seq model: of <bos> and the model's own output for the source)."""
    t = partial(text, lang)
    read = _read_input(entry, value, lang)
    ids = read.ids if read.source is None else _own_target(entry, read.source)
    with torch.inference_mode():
        lens = logit_lens(entry.model, ids, read.source)
    tops = [[_piece(entry, int(i)) for i in row] for row in lens.top_ids]
    return viz.logit_lens_heatmap(
        lens.top_probs, tops, [_piece(entry, i) for i in ids], title=t(LENS_TITLE[entry.model.has_decoder]),
        layer_label=t(LENS_LAYER[lens.stack]), position_label=t("w_lens_position"),
        token_label=t("w_lens_top_token"), probability_label=t("w_probability"))
