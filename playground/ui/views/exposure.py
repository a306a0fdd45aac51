"""Exposure bias: a target decoded with teacher forcing and free-running, where they part highlighted."""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis.exposure_bias import teacher_forced_vs_free

from ..inputs.validation import fail
from playground.zoo import ModelEntry
from ..text.i18n import text
from ..text.markup import literal
from .token_input import encode_checked, pieces


def exposure_view(entry: ModelEntry, prompt, target, lang: str) -> tuple[go.Figure, str]:
    """The two decodings of `target` after `prompt` (a seq2seq model: the source), and what they show."""
    t = partial(text, lang)
    model, max_len = entry.model, entry.config.max_len
    if not model.has_decoder:
        raise fail(lang, "err_exposure_needs_decoder", model=entry.name)
    if model.has_encoder:
        prompt_ids = encode_checked(entry, prompt, lang, max_len)
        target_ids = encode_checked(entry, target, lang, max_len - 1, what="target")
    else:
        prompt_ids = encode_checked(entry, prompt, lang, max_len - 1, what="prompt")
        target_ids = encode_checked(entry, target, lang, max_len - len(prompt_ids), what="target")
    result = teacher_forced_vs_free(model, prompt_ids, target_ids)
    figure = viz.two_decodings(
        pieces(entry, result.target), pieces(entry, result.teacher_forced), pieces(entry, result.free_running),
        result.p_target_teacher, result.p_target_free, result.parted_at, title=t("fig_xb"),
        row_labels=(t("xb_target"), t("xb_teacher"), t("xb_free")), position_label=t("w_position"),
        probability_label=t("xb_probability"), parted_label=t("xb_parted"))
    teacher_hits = sum(a == b for a, b in zip(result.teacher_forced, result.target))
    free_hits = sum(a == b for a, b in zip(result.free_running, result.target))
    counts = t("xb_counts", n=len(result.target), teacher=teacher_hits, free=free_hits)
    if result.parted_at is None:
        return figure, t("xb_explain") + "\n\n" + t("xb_never_parted") + " " + counts
    at = result.parted_at
    parted = t("xb_parted_at", position=at, wanted=literal(pieces(entry, [result.target[at]])[0]),
               written=literal(pieces(entry, [result.free_running[at]])[0]))
    return figure, t("xb_explain") + "\n\n" + parted + " " + counts
