"""Embeddings: a token's nearest neighbours by cosine similarity in the model's embedding table,
and the whole table projected on its two principal components."""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis.embeddings import embedding_table, nearest_neighbours, pca_2d
from playground.data.tokenizer import NUM_SPECIAL, visible
from playground.viz.labels import visible_token
from playground.zoo import ModelEntry

from ..inputs.validation import check_text, fail
from ..text.i18n import text
from ..text.markup import literal

NEIGHBOURS = 10
MAX_TOKEN_CHARS = 40


def find_token(entry: ModelEntry, value, lang: str) -> int:
    """The id of one ordinary token typed as its text or as shown (␣ for a space, ↵ for a newline)."""
    if isinstance(value, str) and value and not value.strip():
        value = visible(value)                                              # a space typed as itself
    value = check_text(value, lang, MAX_TOKEN_CHARS, what="token")
    tokenizer = entry.tokenizer
    for i in range(NUM_SPECIAL, tokenizer.vocab_size):
        if tokenizer.id_to_piece(i) == value:
            return i
    ids = tokenizer.encode(value) if not tokenizer.unknown_chars(value) else []
    if len(ids) == 1 and ids[0] >= NUM_SPECIAL:
        return ids[0]
    some = range(NUM_SPECIAL + 1, min(tokenizer.vocab_size, NUM_SPECIAL + 9))
    examples = ", ".join(tokenizer.id_to_piece(i) for i in some)
    raise fail(lang, "err_not_one_token", value=value, model=entry.name, n=len(ids), examples=examples)


def embedding_view(entry: ModelEntry, value, lang: str) -> tuple[go.Figure, go.Figure, str]:
    """(the neighbours as bars, the 2-D map with the token and its neighbours marked, the explanation)."""
    t = partial(text, lang)
    token = find_token(entry, value, lang)
    table = embedding_table(entry.model)                                    # [V, D]
    neighbours = nearest_neighbours(table, token, NEIGHBOURS)
    piece = entry.tokenizer.id_to_piece
    bars = viz.neighbour_bars([piece(i) for i, _ in neighbours], [c for _, c in neighbours],
                              title=t("fig_emb_neighbours", token=visible_token(piece(token))),
                              similarity_label=t("w_cosine"),
                              token_label=t("w_token"))
    projection = pca_2d(table)
    marked = [projection.ids.index(i) for i in (token, *(n for n, _ in neighbours))]
    first, second = projection.explained
    emb_map = viz.embedding_map(
        projection.points.numpy(), [piece(i) for i in projection.ids], marked,
        title=t("fig_emb_map", n=len(projection.ids), d=table.size(1)),
        x_label=t("emb_component", k=1, share=first), y_label=t("emb_component", k=2, share=second),
        highlighted_label=t("emb_marked", token=visible_token(piece(token))), others_label=t("emb_others"))
    return bars, emb_map, t("emb_explain", token=literal(piece(token)), v=len(projection.ids), d=table.size(1), share=first + second,
                            nearest=literal(piece(neighbours[0][0])), cosine=neighbours[0][1])
