"""The Positional encoding tab's views, which the Lessons draw too: the sinusoidal table, chosen
dimensions, position similarity, a model's own position vectors, RoPE's rotating pairs, and why a
model without positions is order-blind."""
from __future__ import annotations

import functools
import random
from functools import partial

import plotly.graph_objects as go
import torch

from playground import viz
from playground.model import ModelConfig, Trace, sinusoidal_table
from playground.viz.labels import plotly_text

from ..inputs.validation import (
    MAX_INPUT_CHARS,
    MAX_SEED,
    POSITIONAL_D_MODEL_RANGE,
    POSITIONAL_LENGTH_RANGE,
    check_known_chars,
    check_number,
    check_text,
    fail,
)
from playground.zoo import ModelEntry, ascii_tokenizer, seeded_model
from ..text.i18n import text
from ..text.markup import literal

DEFAULT_D_MODEL, DEFAULT_LENGTH = 64, 64
DEFAULT_DIMS = (0, 1, 10, 11, 40, 41)
DEFAULT_ROPE_DIM, DEFAULT_ROPE_POSITIONS = 16, 32
DEFAULT_ROPE_PAIRS = (0, 1, 3, 7)
MAX_ROPE_DIM = 256
MAX_ROPE_POSITIONS = 256
ORDER_ENCODINGS = ("none", "sinusoidal", "learned", "rope")
ORDER_WEIGHT_STD = 0.3
SAME_OUTPUT_TOLERANCE = 1e-4
DEFAULT_SHUFFLE_TEXT = "the cat sat on the mat"


def _dimensions(dims, d_model: int, lang: str) -> list[int]:
    chosen = sorted({int(d) for d in (dims or [])})
    if not chosen:
        raise fail(lang, "err_pick_dims")
    outside = [d for d in chosen if not 0 <= d < d_model]
    if outside:
        raise fail(lang, "err_dims_outside", dims=outside, d_model=d_model)
    return chosen


def sinusoidal_views(d_model, length, dims, lang: str) -> tuple[go.Figure, go.Figure, go.Figure]:
    """The [length, d_model] sinusoidal table as a heatmap, chosen dimensions as curves, and the
    position-to-position cosine similarity."""
    d_model = check_number(d_model, lang, "d_model", *POSITIONAL_D_MODEL_RANGE, integer=True)
    length = check_number(length, lang, "length", *POSITIONAL_LENGTH_RANGE, integer=True)
    if d_model % 2:
        raise fail(lang, "err_even_d_model", d_model=d_model)
    chosen = _dimensions(dims, d_model, lang)
    table = sinusoidal_table(length, d_model).numpy()                       # [T, D]
    t = partial(text, lang)
    heatmap = viz.positional_heatmap(
        table, title=t("fig_sinusoidal", length=length, d_model=d_model),
        position_label=t("w_position"), dimension_label=t("w_dimension"), value_label=t("w_value"))
    curves = viz.positional_curves(
        table, chosen, title=t("fig_sinusoidal_curves"), position_label=t("w_position"),
        value_label=t("w_value"), dimension_label=t("w_dim"))
    similarity = viz.position_similarity(
        table, title=t("fig_position_similarity"), position_label=t("w_position"),
        value_label=t("w_cosine"))
    return heatmap, curves, similarity


def model_position_views(entry: ModelEntry, lang: str) -> tuple[go.Figure | None, go.Figure | None, str]:
    """A model's own additive position table (learned or sinusoidal) and its similarity, with a note.

    RoPE and no-position models add nothing to the embeddings, so they get a note and no figure.
    """
    config = entry.config
    t = partial(text, lang)
    module = (entry.model.decoder if config.n_decoder_layers else entry.model.encoder).embed.positions
    length = min(config.max_len, POSITIONAL_LENGTH_RANGE[1])
    table = module.table(length)
    if table is None:
        return None, None, t(f"note_positions_{config.positional}", model=literal(entry.name))
    matrix = table.detach().float().numpy()                                  # [T, D]
    heatmap = viz.positional_heatmap(
        matrix, title=t("fig_model_positions", model=plotly_text(entry.name), kind=t(f"enc_{config.positional}")),
        position_label=t("w_position"), dimension_label=t("w_dimension"), value_label=t("w_value"))
    similarity = viz.position_similarity(
        matrix, title=t("fig_model_position_similarity", model=plotly_text(entry.name)), position_label=t("w_position"),
        value_label=t("w_cosine"))
    note = t(f"note_positions_{config.positional}", model=literal(entry.name))
    if entry.source == "untrained" and config.positional == "learned":
        note += " " + t("note_untrained_positions")
    return heatmap, similarity, note


def rope_view(head_dim, n_positions, pairs, lang: str) -> go.Figure:
    """Each chosen pair of a head's dimensions rotated to every position."""
    head_dim = check_number(head_dim, lang, "head_dim", *POSITIONAL_D_MODEL_RANGE, integer=True)
    n_positions = check_number(n_positions, lang, "positions", 2, MAX_ROPE_POSITIONS, integer=True)
    if head_dim % 2:
        raise fail(lang, "err_even_d_model", d_model=head_dim)
    chosen = sorted({int(p) for p in (pairs or [])})
    if not chosen:
        raise fail(lang, "err_pick_pairs")
    outside = [p for p in chosen if not 0 <= p < head_dim // 2]
    if outside:
        raise fail(lang, "err_pairs_outside", pairs=outside, n_pairs=head_dim // 2)
    t = partial(text, lang)
    return viz.rope_rotation(
        head_dim, chosen, n_positions, title=t("fig_rope", head_dim=head_dim), pair_label=t("w_pair"),
        dims_label=t("w_dims"), position_label=t("w_position"), angle_label=t("w_angle"))


@functools.cache
def order_models() -> dict[str, ModelEntry]:
    """One tiny encoder per positional encoding, same seed and tokenizer, for the shuffle demo.

    Their matrices are drawn with std ORDER_WEIGHT_STD, larger than a training initialisation, so
    attention is sharp and what positions change is plain to see.
    """
    tokenizer = ascii_tokenizer()
    models = {}
    for positional in ORDER_ENCODINGS:
        config = ModelConfig(arch="encoder_only", vocab_size=tokenizer.vocab_size, d_model=32, n_heads=2,
                             n_encoder_layers=2, n_decoder_layers=0, d_ff=64, max_len=MAX_INPUT_CHARS,
                             positional=positional)
        model = seeded_model(config)
        generator = torch.Generator().manual_seed(0)
        with torch.no_grad():
            for parameter in model.parameters():
                if parameter.dim() == 2:
                    parameter.normal_(0.0, ORDER_WEIGHT_STD, generator=generator)
        models[positional] = ModelEntry(f"order-{positional}", model, tokenizer, config, "", "untrained")
    return models


def shuffle_demo(text_value, seed, lang: str) -> tuple[list[list], str]:
    """Shuffle the input's tokens; compare f(shuffled x) with shuffled f(x) for each encoding.

    Returns table rows (encoding, largest difference, verdict) and a summary naming the order used.
    """
    text_value = check_text(text_value, lang)
    seed = check_number(seed, lang, "seed", 0, MAX_SEED, integer=True)
    models = order_models()
    tokenizer = next(iter(models.values())).tokenizer
    check_known_chars(text_value, tokenizer, "order-demo", lang)
    ids = tokenizer.encode(text_value)
    if len(ids) < 2:
        raise fail(lang, "err_need_two_tokens")
    order = list(range(len(ids)))
    rng = random.Random(seed)
    while order == sorted(order):                                            # a real shuffle
        rng.shuffle(order)
    x = torch.tensor([ids])                                                  # [1, T]
    perm = torch.tensor(order)                                               # [T]
    rows = []
    for positional, entry in models.items():
        trace_a, trace_b = Trace(("encoder.final_norm",)), Trace(("encoder.final_norm",))
        entry.model(x, trace=trace_a)
        entry.model(x[:, perm], trace=trace_b)
        expected = trace_a["encoder.final_norm"][:, perm]                    # [1, T, D] shuffled f(x)
        difference = float((trace_b["encoder.final_norm"] - expected).abs().max())
        same = difference < SAME_OUTPUT_TOLERANCE
        rows.append([text(lang, f"enc_{positional}"), f"{difference:.2e}",
                     text(lang, "verdict_order_blind" if same else "verdict_order_aware")])
    shuffled = "".join(text_value[i] for i in order)
    return rows, text(lang, "shuffle_summary", original=literal(text_value), shuffled=literal(shuffled))
