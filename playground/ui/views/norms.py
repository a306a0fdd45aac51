"""LayerNorm by hand on one token of the model's own residual stream, LayerNorm against BatchNorm
on a small batch of it, and the size of the residual stream after every layer."""
from __future__ import annotations

from functools import partial

import plotly.graph_objects as go

from playground import viz
from playground.analysis.norms import batch_vs_layer, first_norm_input, layer_norm_steps, residual_norms
from playground.analysis.worked_attention import traced_run
from playground.data import BOS_ID
from playground.viz.labels import number_text, visible_token
from playground.zoo import ModelEntry

from ..inputs.validation import check_number
from ..text.i18n import text
from ..text.markup import literal
from .token_input import encode_checked, pieces

FEATURES_IN_TABLE = 6      # features worked out in the table (all of them are drawn)
BATCH_TOKENS, BATCH_FEATURES = 4, 6
number = partial(number_text, digits=4)   # the numbers in the explanations
cell = partial(number_text, digits=3)     # the numbers in its table: seven columns must fit half a page


def _run(entry: ModelEntry, value, lang: str):
    """The checked ids, the tokens each stack reads, and the trace of one forward pass."""
    ids = encode_checked(entry, value, lang, entry.config.max_len - 1)
    model = entry.model
    source = ids if model.has_encoder else None
    target = ([BOS_ID, *ids] if model.has_encoder else ids) if model.has_decoder else None
    tokens = {"encoder": pieces(entry, source or []), "decoder": pieces(entry, target or [])}
    return tokens, traced_run(model, source, target)


def layer_norm_view(entry: ModelEntry, value, layer, position, lang: str) -> tuple[go.Figure, str]:
    """One token's vector through the first LayerNorm of block `layer`: the three vectors drawn and
    the steps with their numbers."""
    t = partial(text, lang)
    stack = "encoder" if entry.model.has_encoder else "decoder"
    n_layers = entry.config.n_encoder_layers if stack == "encoder" else entry.config.n_decoder_layers
    layer = check_number(layer, lang, "layer", 0, n_layers - 1, integer=True)
    tokens, trace = _run(entry, value, lang)
    position = check_number(position, lang, "position", 0, len(tokens[stack]) - 1, integer=True)
    x, norm, _ = first_norm_input(entry.model, trace, layer)
    steps = layer_norm_steps(x[position], norm)
    token = tokens[stack][position]
    figure = viz.layer_norm_vector(
        {t("ln_input"): steps.x.numpy(), t("ln_normalised"): steps.normalised.numpy(),
         t("ln_output"): steps.output.numpy()},
        title=t("fig_ln_vector", token=visible_token(token), position=position, layer=layer), dimension_label=t("w_feature"),
        value_label=t("w_value"))
    columns = [t("w_feature"), "x", "x − μ", "x̂", "γ", "β", "γ·x̂ + β"]          # narrow: x̂ is defined above
    rows = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for d in range(min(FEATURES_IN_TABLE, steps.x.numel())):
        values = (steps.x[d], steps.x[d] - steps.mean, steps.normalised[d], steps.gamma[d], steps.beta[d], steps.output[d])
        rows.append("| " + " | ".join([str(d), *(cell(float(v)) for v in values)]) + " |")
    explanation = t("ln_explain", token=literal(token), d=steps.x.numel(), mean=number(steps.mean),
                    variance=number(steps.variance), eps=f"{steps.eps:g}", std=number((steps.variance + steps.eps) ** 0.5),
                    shown=len(rows) - 2)
    return figure, explanation + "\n\n" + "\n".join(rows)


def batch_norm_view(entry: ModelEntry, value, lang: str) -> tuple[go.Figure, str]:
    """A small batch (the first tokens and features entering block 0's first LayerNorm) normalised
    over each token (LayerNorm) and over each feature (BatchNorm)."""
    t = partial(text, lang)
    stack = "encoder" if entry.model.has_encoder else "decoder"
    tokens, trace = _run(entry, value, lang)
    x, _, _ = first_norm_input(entry.model, trace, 0)
    small = x[:BATCH_TOKENS, :BATCH_FEATURES]                               # [N, F]
    both = batch_vs_layer(small)
    rows = tokens[stack][:small.size(0)]
    features = [f"f{d}" for d in range(small.size(1))]
    figure = viz.matrix_panels(
        [(t("bn_batch"), both.x, rows, features), (t("bn_layer"), both.layer_out, rows, features),
         (t("bn_batchnorm"), both.batch_out, rows, features)],
        title=t("fig_bn"), value_label=t("w_value"))
    layer_means = ", ".join(number(float(v)) for v in both.layer_out.mean(dim=1))
    batch_means = ", ".join(number(float(v)) for v in both.batch_out.mean(dim=0))
    return figure, t("bn_explain", n=small.size(0), f=small.size(1), layer_means=layer_means, batch_means=batch_means)


def residual_view(entry: ModelEntry, value, lang: str) -> tuple[go.Figure, str]:
    """The L2 norm of every token's residual vector after the embedding and after each block, and
    what makes it grow (pre-norm) or stay put (post-norm)."""
    t = partial(text, lang)
    tokens, trace = _run(entry, value, lang)
    norms = residual_norms(entry.model, trace)
    stages, values, labels, stacks = [], [], [], []
    for name, per_token in norms.items():
        stack, _, rest = name.partition(".")
        if rest == "final_norm":
            stage = t("rn_final", stack=t(f"tm_{stack}"))
        elif rest.endswith("resid_pre"):
            stage = t("rn_embedding", stack=t(f"tm_{stack}"))
        else:
            stage = t("rn_block", stack=t(f"tm_{stack}"), i=rest.split(".")[0])
        stages.append(stage)
        values.append(per_token.numpy())
        labels.append(tokens[stack])
        stacks.append(stack)
    figure = viz.residual_norms(stages, values, labels, title=t("fig_rn"), stage_label=t("w_stage"),
                                norm_label=t("rn_norm"), mean_label=t("rn_mean"), token_label=t("rn_each"), groups=stacks)
    return figure, t("rn_explain_pre" if entry.config.norm == "pre" else "rn_explain_post")
