"""Direct logit attribution beside the logit lens: what each head, each MLP and the embeddings add to the
logit of one token, the sum checked against the model's own logit.

    attribution_view(entry, value, token, lang)   -> AttributionView

Where the token is predicted: after the input (a model that continues text), at the input's last position
(an encoder-only model), or as the first token of the output (a sequence-to-sequence model, whose encoder
reads the input). `token` empty: the model's own top token there. A post-norm model gets a figure and a
sentence saying why its parts cannot be told apart, instead of bars.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis import Component, logit_attribution
from playground.data import BOS_ID
from playground.data.tokenizer import visible
from playground.viz.labels import plotly_text
from playground.viz.notice import notice_figure
from playground.zoo import ModelEntry

from ..inputs.validation import check_known_chars, fail
from ..text.i18n import text
from ..text.markup import literal
from .patching import read_ids

MAX_TOKEN_CHARS = 40           # the token box's text at most


@dataclass
class AttributionView:
    figure: go.Figure
    summary: str                  # markdown: the sum against the logit, the frozen scale, the largest share
    facts: dict                   # the numbers the summary states ({} for a post-norm model)


def component_label(component: Component, lang: str) -> str:
    """"L1·H0", "L1·H0 cross", "L0·MLP", "token embedding", ... in `lang` (one name per component)."""
    t = partial(text, lang)
    cross = f" {t('w_dla_cross')}" if component.sublayer == "cross_attn" else ""
    if component.kind == "head":
        return f"L{component.layer}·H{component.head}{cross}"
    if component.kind == "attention_bias":
        return f"L{component.layer}·{t('w_dla_attention_bias')}{cross}"
    if component.kind == "mlp":
        return f"L{component.layer}·MLP"
    return t(f"w_dla_{component.kind}")


def _chosen_token(entry: ModelEntry, token, lang: str) -> int | None:
    """The id of the token typed in the box (None when it is empty: the model's top token)."""
    if token is None or token == "":
        return None
    if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
        raise fail(lang, "err_dla_one_token", token=str(token)[:MAX_TOKEN_CHARS], n=0)
    check_known_chars(token, entry.tokenizer, entry.name, lang)
    ids = entry.tokenizer.encode(token)
    if len(ids) != 1:
        raise fail(lang, "err_dla_one_token", token=token, n=len(ids))
    if entry.config.never_predict and bool(entry.model.never_predict[ids[0]]):
        raise fail(lang, "err_dla_never_predicts", token=token, model=entry.name)
    return ids[0]


def attribution_view(entry: ModelEntry, value, token, lang: str) -> AttributionView:
    """Each part's share of the chosen token's logit, as bars, with the sum stated against the logit."""
    t = partial(text, lang)
    ids = read_ids(entry, value, lang, "input")
    chosen = _chosen_token(entry, token, lang)
    if entry.config.norm != "pre":
        message = t("dla_post_norm")
        return AttributionView(notice_figure(t("fig_dla_short"), message), message, {})
    seq2seq = entry.model.has_encoder and entry.model.has_decoder
    where = "first_output" if seq2seq else "next" if entry.model.has_decoder else "last"
    with torch.inference_mode():
        found = logit_attribution(entry.model, [BOS_ID] if seq2seq else ids, -1, chosen,
                                  source=ids if seq2seq else None)
    piece = visible(entry.tokenizer.id_to_piece(found.token)) or "∅"
    labels = [component_label(c, lang) for c in found.components]
    figure = viz.logit_attribution_bars(
        labels, found.values(), found.logit, title=t("fig_dla", token=plotly_text(piece), where=t(f"w_dla_{where}")),
        component_label=t("w_dla_part"), value_label=t("w_dla_share"), total_label=t("w_dla_total"),
        logit_label=t("w_dla_logit"))
    top = int(np.argmax(np.abs(found.values())))
    facts = dict(token=found.token, total=found.total, logit=found.logit, scale=found.scale, top=labels[top],
                 top_value=float(found.values()[top]))
    summary = t("dla_summary", token=literal(piece), where=t(f"w_dla_{where}"), total=found.total, logit=found.logit,
                scale=found.scale, top=literal(labels[top]), top_value=facts["top_value"])
    return AttributionView(figure, summary, facts)
