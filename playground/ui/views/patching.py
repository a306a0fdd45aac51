"""Activation patching as the Attention tab and the lessons show it: a clean input (the tab's text) and a
corrupted one, the pair of answers they imply, and the heatmaps of how much of the answer each activation
copied from the clean run restores in the corrupted one.

    suggested_corruption(entry, clean, lang)        -> str: a corrupted input that changes the answer
    patching_views(entry, clean, corrupted, lang)   -> PatchingViews

The metric is the logit difference logit[right] - logit[wrong] where the answer is read, normalised so
that the clean run scores 1 and the corrupted run 0; right is the clean run's answer, wrong the corrupted
run's. A sequence-to-sequence model reads the two inputs as sources; its decoder reads <bos> and the
clean run's greedy output up to the first token where the two runs' greedy outputs part, and the answer
is read there.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis import (
    MIN_SPREAD,
    PatchingPair,
    PatchingTooCostly,
    PatchingView,
    activation_patching,
    flipping_pairs,
    pair_from_inputs,
    pair_metrics,
    task_pair,
    view_flops,
)
from playground.data import BOS_ID
from playground.data.tokenizer import NUM_SPECIAL, visible
from playground.generate.batch import bos, greedy
from playground.viz.notice import notice_figure
from playground.zoo import ModelEntry

from ..inputs.validation import MAX_INPUT_CHARS, check_known_chars, check_text, fail
from ..text.i18n import text
from ..text.markup import literal
from .probes import blocks_passed

MAX_PATCHING_TOKENS = 64       # tokens of each input the view reads at most
PATCHING_FLOPS = 40e9          # the patched runs of one view (about 1 s of one CPU core); beyond it the head-by-
                               # position map is left out, and an input whose other maps need more is refused
SEARCH_FLOPS = 8e9             # the runs that look for a corruption that flips the answer


@dataclass
class PatchingViews:
    residual: go.Figure            # layer x position of the stack where the answer is read
    source: go.Figure | None       # layer x position of a seq2seq model's encoder (where the change enters)
    heads: go.Figure               # (site, layer) x head, every position patched at once
    positions: go.Figure           # (site, layer, head) x position of the answer's stack
    summary: str                   # markdown: the two answers, the metric of both runs, where the answer sits
    facts: dict                    # the numbers the summary states


def _seq2seq(entry: ModelEntry) -> bool:
    return entry.model.has_encoder and entry.model.has_decoder


def read_ids(entry: ModelEntry, value, lang: str, what: str) -> list[int]:
    """`value` checked (text, characters the model knows, at most MAX_PATCHING_TOKENS tokens) as token ids."""
    value = check_text(value, lang, MAX_INPUT_CHARS, what=what)
    check_known_chars(value, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(value)
    limit = longest_input(entry)
    if len(ids) > limit:
        raise fail(lang, "err_too_many_tokens", what=text(lang, f"what_{what}"), n=len(ids), limit=limit)
    return ids


def longest_input(entry: ModelEntry) -> int:
    """The most tokens an input may have: the model's context, MAX_PATCHING_TOKENS, and the length whose
    maps (without the head-by-position one) stay within PATCHING_FLOPS, the cost growing with its square."""
    limit = min(entry.config.max_len, MAX_PATCHING_TOKENS)
    source = _seq2seq(entry)
    while limit > 1 and view_flops(entry.model, limit, limit if source else 0, False) > PATCHING_FLOPS:
        limit -= 1
    return limit


def _piece(entry: ModelEntry, token: int) -> str:
    return entry.tokenizer.id_to_piece(token)


def _shown(entry: ModelEntry, token: int) -> str:
    """A token for the summary's sentences: in quotes (a token that is itself a quote or a comma reads as
    a token, not as punctuation of the sentence), whitespace drawn visibly, written literally."""
    return f"“{literal(visible(_piece(entry, token))) or '∅'}”"


# ------------------------------------------------------------------------------------------ the suggestion

def suggested_corruption(entry: ModelEntry, clean, lang: str) -> str:
    """A corrupted input for `clean` that flips the model's answer: for a task model one character of the
    source changed so that its target changes (the task's own pair maker); for a model that continues text
    whose last token came earlier, the token that followed each earlier occurrence changed to one the text
    lacks, so that copying from the earlier occurrences, as an induction head does, gives another answer;
    else the one-token change the model's own predictions suggest that flips its answer most
    (flipping_pairs). Every suggestion moves the logit difference by at least MIN_SPREAD. gr.Error otherwise."""
    ids = read_ids(entry, clean, lang, "input")
    if _seq2seq(entry):
        if entry.task is None:
            raise fail(lang, "err_pt_no_suggestion_seq2seq", model=entry.name)
        try:
            pair = task_pair(entry.task, entry.tokenizer, seed=0, source=clean)
        except ValueError:
            raise fail(lang, "err_pt_no_suggestion_task", model=entry.name, task=entry.task.name) from None
        return entry.tokenizer.decode(list(pair.corrupted_source))
    induction = _induction_corruption(entry, ids)
    if induction is not None:
        return induction
    with torch.inference_mode():
        pairs = flipping_pairs(entry.model, ids, max_flops=SEARCH_FLOPS)
    for pair in pairs:
        written = entry.tokenizer.decode(list(pair.corrupted))
        if entry.tokenizer.encode(written) == list(pair.corrupted):    # a BPE text may not read back the same
            return written
    raise fail(lang, "err_pt_no_flip", model=entry.name)


def _induction_corruption(entry: ModelEntry, ids: list[int]) -> str | None:
    """The induction-style corruption of a decoder's input whose last token came earlier, when it reads back
    as the same tokens and flips the answer by at least MIN_SPREAD; None otherwise."""
    earlier = [i for i in range(len(ids) - 1) if ids[i] == ids[-1] and i + 1 < len(ids) - 1]
    if not earlier or not entry.model.has_decoder:
        return None
    replacement = next((token for token in range(NUM_SPECIAL, entry.tokenizer.vocab_size)
                        if token not in ids and _piece(entry, token).strip()
                        and entry.tokenizer.encode(_piece(entry, token)) == [token]), None)
    if replacement is None:
        return None
    corrupted = list(ids)
    for i in earlier:
        corrupted[i + 1] = replacement
    written = entry.tokenizer.decode(corrupted)
    if entry.tokenizer.encode(written) != corrupted:
        return None
    with torch.inference_mode():
        pair = pair_from_inputs(entry.model, ids, corrupted)
        clean_metric, corrupted_metric = pair_metrics(entry.model, pair)
    return written if clean_metric - corrupted_metric >= MIN_SPREAD else None


# ------------------------------------------------------------------------------------------ the pair

def _greedy_output(entry: ModelEntry, source: list[int]) -> list[int]:
    """A seq2seq model's greedy output for `source`, its end token included."""
    budget = min(entry.config.max_len, MAX_PATCHING_TOKENS) - 1
    with torch.inference_mode():
        return list(greedy(entry.model, bos(1), budget, torch.tensor([source]))[0])


def patching_pair(entry: ModelEntry, clean, corrupted, lang: str) -> PatchingPair:
    """The pair of the two inputs (gr.Error for inputs of different lengths, or runs that answer alike)."""
    clean_ids = read_ids(entry, clean, lang, "input")
    corrupted_ids = read_ids(entry, corrupted, lang, "corrupted")
    if len(clean_ids) != len(corrupted_ids):
        raise fail(lang, "err_pt_lengths", clean=len(clean_ids), corrupted=len(corrupted_ids))
    if clean_ids == corrupted_ids:
        raise fail(lang, "err_pt_same")
    if not _seq2seq(entry):
        with torch.inference_mode():
            pair = pair_from_inputs(entry.model, clean_ids, corrupted_ids)
    else:
        clean_out, corrupted_out = _greedy_output(entry, clean_ids), _greedy_output(entry, corrupted_ids)
        parted = next((k for k, (a, b) in enumerate(zip(clean_out, corrupted_out)) if a != b), None)
        if parted is None:
            raise fail(lang, "err_pt_same_answer", model=entry.name)
        decoder = (BOS_ID, *clean_out[:parted])
        pair = PatchingPair(decoder, decoder, parted, int(clean_out[parted]), int(corrupted_out[parted]),
                            tuple(clean_ids), tuple(corrupted_ids))
    with torch.inference_mode():
        clean_metric, corrupted_metric = pair_metrics(entry.model, pair)
    if clean_metric - corrupted_metric < MIN_SPREAD:            # normalising by the difference would divide by noise
        raise fail(lang, "err_pt_small_spread", clean=clean_metric, corrupted=corrupted_metric, least=MIN_SPREAD)
    return pair


# ------------------------------------------------------------------------------------------ the views

def _tokens(entry: ModelEntry, ids) -> list[str]:
    return [_piece(entry, int(i)) for i in ids]


def _site_label(site, lang: str) -> str:
    return text(lang, f"w_pt_site_{site.stack}_{site.sublayer}")


def patching_views(entry: ModelEntry, clean, corrupted, lang: str) -> PatchingViews:
    """Every activation of the residual stream and every head's output patched from the clean run into the
    corrupted one, drawn with the tokens on the axes and the exact values in the hovers."""
    t = partial(text, lang)
    pair = patching_pair(entry, clean, corrupted, lang)
    try:
        with torch.inference_mode():
            view = activation_patching(entry.model, pair, max_flops=PATCHING_FLOPS)
    except PatchingTooCostly:
        raise fail(lang, "err_pt_too_costly", model=entry.name) from None
    except ValueError:
        raise fail(lang, "err_pt_no_spread") from None
    answer_stack = "decoder" if entry.model.has_decoder else "encoder"
    residuals = {r.stack: r for r in view.residual}
    value_label = t("w_pt_restored")

    def residual_figure(stack: str, key: str) -> go.Figure:
        found = residuals[stack]
        return viz.patching_heatmap(
            found.values, [str(blocks_passed(name)) for name in found.rows], _tokens(entry, pair.tokens(stack)),
            title=t(key), row_label=t("w_pt_blocks_passed"), position_label=t(f"w_pt_position_{stack}"),
            value_label=value_label)

    residual = residual_figure(answer_stack, "fig_pt_residual")
    source = residual_figure("encoder", "fig_pt_source") if _seq2seq(entry) else None
    rows, values, position_rows, position_values = [], [], [], []
    for heads in view.heads:
        site = f"{_site_label(heads.site, lang)} " if len(view.heads) > 1 else ""    # one site: "L1", else "cross L1"
        for layer, row in enumerate(heads.values):
            rows.append(f"{site}L{layer}")
            values.append(row)
            if heads.site.stack == answer_stack and heads.by_position is not None:
                for head, by_position in enumerate(heads.by_position[layer]):
                    position_rows.append(f"{site}L{layer}·H{head}")
                    position_values.append(by_position)
    heads_figure = viz.head_patching_heatmap(np.array(values), title=t("fig_pt_heads"), layer_label=t("w_layer"),
                                             head_label=t("w_head"), value_label=value_label, row_labels=rows)
    if position_rows:
        positions = viz.patching_heatmap(np.array(position_values), position_rows,
                                         _tokens(entry, pair.tokens(answer_stack)), title=t("fig_pt_head_positions"),
                                         row_label=t("w_pt_head"), position_label=t(f"w_pt_position_{answer_stack}"),
                                         value_label=value_label)
    else:
        positions = notice_figure(t("fig_pt_head_positions"), t("pt_left_out", runs=view.left_out_runs))
    summary, facts = _summary(entry, pair, view, rows, np.array(values), answer_stack, lang)
    return PatchingViews(residual, source, heads_figure, positions, summary, facts)


def _summary(entry: ModelEntry, pair: PatchingPair, view: PatchingView, rows: list[str], heads: np.ndarray,
             answer_stack: str, lang: str) -> tuple[str, dict]:
    """What the maps show, computed from them: the two answers and the metric of both runs; where the answer
    sits in the residual stream as it enters the first block (of the encoder, for a seq2seq model: the
    source is where the inputs differ) and as it leaves the last; the head that restores most."""
    t = partial(text, lang)
    entering = view.residual[0]
    leaving = next(r for r in view.residual if r.stack == answer_stack)
    first, last = entering.values[0], leaving.values[-1]                      # [T] each
    first_tokens, last_tokens = pair.tokens(entering.stack), pair.tokens(answer_stack)
    row, head = (int(i) for i in np.unravel_index(int(np.argmax(heads)), heads.shape))
    facts = dict(clean=view.clean_metric, corrupted=view.corrupted_metric, first_position=int(np.argmax(first)),
                 first_value=float(first.max()), last_position=int(np.argmax(last)), last_value=float(last.max()),
                 best_head=f"{rows[row]}·H{head}", best_head_value=float(heads[row, head]))
    stack = "encoder" if pair.clean_source is not None else answer_stack
    changed = [(p, a, b) for p, (a, b) in enumerate(zip(pair.tokens(stack), pair.tokens(stack, "corrupted"))) if a != b]
    facts["changed"] = [p for p, _, _ in changed]
    listed = t("pt_changed_join").join(t("pt_changed_item", position=p, old=_shown(entry, a), new=_shown(entry, b))
                                 for p, a, b in changed[:8])
    parts = [t("pt_changed", n=len(changed), positions=listed + ("…" if len(changed) > 8 else "")),
             t("pt_answers", right=_shown(entry, pair.right), wrong=_shown(entry, pair.wrong),
               position=pair.position, clean=view.clean_metric, corrupted=view.corrupted_metric)]
    parts.append(t("pt_residual_where", first_position=facts["first_position"],
                   first_token=_shown(entry, first_tokens[facts["first_position"]]), first_value=facts["first_value"],
                   last_position=facts["last_position"], last_token=_shown(entry, last_tokens[facts["last_position"]]),
                   last_value=facts["last_value"]))
    parts.append(t("pt_best_head", head=literal(facts["best_head"]), value=facts["best_head_value"]))
    if view.left_out_runs:
        parts.append(t("pt_left_out", runs=view.left_out_runs))
    return "\n\n".join(parts), facts

