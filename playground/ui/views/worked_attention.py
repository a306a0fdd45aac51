"""Attention by hand: the first few tokens of an input through one head of the model, every matrix
with its numbers, and the check that the hand computation is what the model computed."""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go
import torch

from playground import viz
from playground.analysis.worked_attention import recombined_output, traced_run, work_through
from playground.data import BOS_ID, EOS_ID
from playground.generate.batch import bos, greedy
from playground.model import AttentionSite
from playground.viz.labels import number_text

from ..inputs.validation import check_choice, check_number
from playground.zoo import ModelEntry
from ..text.i18n import text
from ..text.markup import literal
from .token_input import encode_checked, pieces

MAX_WORKED_TOKENS = 4      # a 4 x 4 score matrix: every number readable, every step checkable by hand
number = partial(number_text, digits=3)   # the numbers in the explanation


def site_choices(entry: ModelEntry, lang: str) -> list[tuple[str, str]]:
    """(label, id) of the model's attention sites."""
    return [(text(lang, f"kind_{site.id}"), site.id) for site in entry.model.sites()]


def _inputs(entry: ModelEntry, ids: list[int]) -> tuple[list[int] | None, list[int] | None]:
    """(source, target) for the worked example: at most MAX_WORKED_TOKENS tokens on each side; a
    seq2seq model's target is bos and the start of its own greedy output."""
    model = entry.model
    head = ids[:MAX_WORKED_TOKENS]
    if not model.has_decoder:
        return head, None
    if not model.has_encoder:
        return None, head
    written = [i for i in greedy(model, bos(1), MAX_WORKED_TOKENS - 1, torch.tensor([head]))[0] if i != EOS_ID]
    return head, [BOS_ID, *written][:MAX_WORKED_TOKENS]


def worked_attention_view(entry: ModelEntry, value, site_id, layer, head, lang: str
                          ) -> tuple[go.Figure, go.Figure, str]:
    """(Q, K, V and the output, stacked; the score steps side by side; the explanation with the check)."""
    t = partial(text, lang)
    site = AttentionSite.parse(check_choice(site_id, [s.id for s in entry.model.sites()], lang, "kind"))
    n_layers = entry.config.n_encoder_layers if site.stack == "encoder" else entry.config.n_decoder_layers
    layer = check_number(layer, lang, "layer", 0, n_layers - 1, integer=True)
    head = check_number(head, lang, "head", 0, entry.config.n_heads - 1, integer=True)
    ids = encode_checked(entry, value, lang, entry.config.max_len)
    source, target = _inputs(entry, ids)
    trace = traced_run(entry.model, source, target)
    worked = work_through(trace, site, layer, head)

    queries = pieces(entry, source if site.query_side == "source" else target)
    keys = pieces(entry, source if site.key_side == "source" else target)
    dims = [str(d) for d in range(worked.d_k)]
    sqrt_dk = worked.d_k ** 0.5
    vectors = viz.matrix_panels(
        [(t("wa_q"), worked.q, queries, dims), (t("wa_k"), worked.k, keys, dims), (t("wa_v"), worked.v, keys, dims),
         (t("wa_output"), worked.output, queries, dims)],
        title=t("fig_wa_vectors", kind=t(f"kind_title_{site.id}"), layer=layer, head=head, dk=worked.d_k),
        value_label=t("w_value"), stacked=True)
    steps = viz.matrix_panels(
        [(t("wa_scores"), worked.scores, queries, keys),
         (t("wa_scaled", root=number(sqrt_dk)), worked.scaled, queries, keys),
         (t("wa_masked"), worked.masked, queries, keys), (t("wa_weights"), worked.weights, queries, keys)],
        title=t("fig_wa_steps"), value_label=t("w_value"), digits=2)

    row = worked.q.size(0) - 1                                              # the last query sees every key
    pairs = zip(worked.q[row, :3].tolist(), worked.k[0, :3].tolist())
    terms = " + ".join(f"({number(a)})({number(b)})" for a, b in pairs)
    exps = worked.masked[row] - worked.masked[row].max()
    traced_weights = trace[site.key(layer, "weights")][0, head].double()
    weights_error = float((traced_weights - worked.weights).abs().max())
    recombined = recombined_output(entry.model, trace, site, layer)
    out_error = float((trace[site.key(layer, "out")][0].double() - recombined).abs().max())
    explanation = t(
        "wa_explain", n=len(queries), m=len(keys), dk=worked.d_k, root=number(sqrt_dk), row=row,
        token=literal(queries[row]), key_token=literal(keys[0]), terms=terms, more=max(0, worked.d_k - 3),
        dot=number(float(worked.scores[row, 0])),
        scaled=number(float(worked.scaled[row, 0])),
        exps=", ".join(number(float(v)) for v in torch.exp(exps).tolist()),
        total=number(float(torch.exp(exps).sum())),
        weights=", ".join(number(float(v)) for v in worked.weights[row].tolist()),
        weights_error=weights_error, out_error=out_error, heads=entry.config.n_heads)
    return vectors, steps, explanation
