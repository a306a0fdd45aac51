"""The masked model fills in: text with blanks ("_"), and the model's top candidates for each blank."""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis.fill_blanks import BLANK, fill_blanks, filled_text, masked_ids

from ..inputs.validation import MAX_INPUT_CHARS, check_known_chars, check_text, fail
from playground.zoo import ModelEntry
from ..text.i18n import text
from ..text.markup import literal

MAX_BLANKS = 8
TOP_CANDIDATES = 5


def fill_view(entry: ModelEntry, value, lang: str) -> tuple[go.Figure, str]:
    """The candidates for every blank as bars, and the text filled with the best ones."""
    t = partial(text, lang)
    if entry.model.has_decoder or not entry.model.has_encoder:
        raise fail(lang, "err_fill_needs_masked_model", model=entry.name)
    value = check_text(value, lang, MAX_INPUT_CHARS)
    blanks = value.count(BLANK)
    if blanks == 0:
        raise fail(lang, "err_fill_no_blank", blank=BLANK)
    if blanks > MAX_BLANKS:
        raise fail(lang, "err_fill_too_many_blanks", n=blanks, limit=MAX_BLANKS, blank=BLANK)
    check_known_chars(value.replace(BLANK, ""), entry.tokenizer, entry.name, lang)
    ids = masked_ids(value, entry.tokenizer)
    if len(ids) > entry.config.max_len:
        raise fail(lang, "err_too_many_tokens", what=t("what_input"), n=len(ids), limit=entry.config.max_len)
    found = fill_blanks(entry.model, ids, TOP_CANDIDATES)
    piece = entry.tokenizer.id_to_piece
    panels = [(t("fill_blank_title", k=k + 1, position=blank.position), [piece(i) for i in blank.candidates],
               blank.probabilities) for k, blank in enumerate(found)]
    figure = viz.blank_candidates(panels, title=t("fig_fill"), probability_label=t("w_probability"))
    filled = filled_text(ids, found, entry.tokenizer)
    return figure, t("fill_explain", blank=BLANK, n=len(found), filled=literal(filled.replace("\n", " ↵ ")),
                     k=TOP_CANDIDATES)
