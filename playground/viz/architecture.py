"""Model figures: parameters per component (treemap / sunburst), a config drawn as a block
diagram, and the forward pass's tensor shapes as a table."""
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from playground.viz import theme

DIAGRAM_WORDS = {
    "encoder": "Encoder", "decoder": "Decoder", "inputs": "input tokens", "outputs": "output tokens (shifted right)",
    "embedding": "token embedding", "positional": "positional", "self_attention": "self-attention",
    "masked_self_attention": "masked self-attention", "cross_attention": "cross-attention",
    "feed_forward": "feed-forward", "layer_norm": "LayerNorm", "residual": "+ residual", "final_norm": "final LayerNorm",
    "head": "output head", "tied": "tied to embedding", "heads": "heads", "probabilities": "softmax → next-token probabilities",
    "block": "block", "positional_sinusoidal": "sinusoidal", "positional_learned": "learned",
    "positional_rope": "RoPE (q, k)", "positional_none": "none",
}
TREEMAP_MIN_FONT_SIZE = 13   # px: readable from the back of a classroom
_ARCHS = ("encoder_decoder", "decoder_only", "encoder_only")


def _tree_rows(counts: Mapping, path: str, rows: list[tuple[str, str, str, int]]) -> int:
    """Append (id, label, parent id, total) for every node below `path`; return the subtree total."""
    total = 0
    for name, value in counts.items():
        node_id = f"{path}/{name}"
        if isinstance(value, Mapping):
            if not value:
                raise ValueError(f"component '{node_id}' has no sub-components; give it a count instead")
            index = len(rows)
            rows.append((node_id, str(name), path, 0))
            subtotal = _tree_rows(value, node_id, rows)
            rows[index] = (node_id, str(name), path, subtotal)
        else:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"parameter count of '{node_id}' must be an integer >= 0, got {value!r}")
            rows.append((node_id, str(name), path, value))
            subtotal = value
        total += subtotal
    return total


def parameter_treemap(
    counts: Mapping,
    title: str = "Parameters per component",
    root_label: str = "model",
    kind: str = "treemap",
    height: int | None = None,
) -> go.Figure:
    """counts: nested mapping component -> count or {sub-component: count or {...}}.

    Every box's value is the sum of its children (branchvalues "total"), so the root equals the
    model's parameter count. kind: "treemap" or "sunburst". Labels are written in one size of at
    least TREEMAP_MIN_FONT_SIZE px; a box too small for its label shows it on hover only.
    """
    if kind not in ("treemap", "sunburst"):
        raise ValueError(f"kind must be 'treemap' or 'sunburst', got {kind!r}")
    if not counts:
        raise ValueError("counts is empty; pass at least one component and its parameter count")
    rows: list[tuple[str, str, str, int]] = []
    total = _tree_rows(counts, root_label, rows)
    ids = [root_label] + [r[0] for r in rows]
    labels = [root_label] + [r[1] for r in rows]
    parents = [""] + [r[2] for r in rows]
    values = [total] + [r[3] for r in rows]
    trace = dict(
        type=kind, ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
        texttemplate="%{label}<br>%{value:,}",
        hovertemplate="%{label}<br>%{value:,}<br>%{percentRoot:.1%}<extra></extra>",
    )
    layout = theme.base_layout(
        title, height=height if height is not None else 560,
        margin=dict(l=10, r=10, t=70, b=10), treemapcolorway=theme.SPAN_COLORS, sunburstcolorway=theme.SPAN_COLORS,
        uniformtext=dict(minsize=TREEMAP_MIN_FONT_SIZE, mode="hide"),
    )
    return theme.figure([trace], layout)


def _config_value(config: Mapping, name: str):
    if name not in config:
        raise ValueError(f"config needs the field '{name}'; it has {sorted(config)}")
    return config[name]


def _stack_boxes(config: Mapping, words: Mapping[str, str], stack: str) -> list[tuple[str, str]]:
    """(kind, text) boxes of one column, bottom to top. kind in token|embed|block|norm|head."""
    arch = config["arch"]
    d_model, heads = _config_value(config, "d_model"), _config_value(config, "n_heads")
    is_encoder = stack == "encoder"
    layers = _config_value(config, "n_encoder_layers" if is_encoder else "n_decoder_layers")
    vocab = _config_value(config, "vocab_size")
    if not is_encoder and arch == "encoder_decoder":
        vocab = config.get("tgt_vocab_size") or vocab
    positional = _config_value(config, "positional")
    pre_norm = _config_value(config, "norm") == "pre"
    attention = words["self_attention"] if is_encoder else words["masked_self_attention"]
    sublayers = [f"{attention} ({heads} {words['heads']})"]
    if not is_encoder and arch == "encoder_decoder":
        sublayers.append(f"{words['cross_attention']} ({heads} {words['heads']})")
    sublayers.append(f"{words['feed_forward']} {d_model}→{_config_value(config, 'd_ff')}→{d_model}, {_config_value(config, 'activation')}")
    norm = words["layer_norm"]
    lines = [f"{norm} → {s} → {words['residual']}" if pre_norm else f"{s} → {words['residual']} → {norm}" for s in sublayers]
    positions = words.get(f"positional_{positional}", positional)
    shifted = not is_encoder and arch == "encoder_decoder"   # the decoder reads the target shifted right
    boxes = [
        ("token", words["outputs"] if shifted else words["inputs"]),
        ("embed", f"{words['embedding']} {vocab}×{d_model}<br>+ {words['positional']}: {positions}"),
        ("block", f"<b>{layers} ×</b> {words[stack]} {words['block']}<br>" + "<br>".join(lines)),
    ]
    if pre_norm:
        boxes.append(("norm", words["final_norm"]))
    has_head = not (is_encoder and arch == "encoder_decoder")
    if has_head:
        tied = f" ({words['tied']})" if _config_value(config, "tie_weights") else ""
        boxes.append(("head", f"{words['head']} {d_model}→{vocab}{tied}<br>{words['probabilities']}"))
    return boxes


_BOX_HEIGHT = {"token": 0.8, "embed": 1.2, "block": 2.6, "norm": 0.7, "head": 1.2}
_BOX_FILL = {"token": "#eeeeee", "embed": "#ffd9a8", "block": "#bcd9ff", "norm": "#fff3a0", "head": "#c8f0c0"}


def architecture_diagram(
    config: Mapping,
    title: str = "Architecture",
    words: Mapping[str, str] | None = None,
    height: int | None = None,
) -> go.Figure:
    """A config drawn as stacked blocks: embedding, N x block (its sub-layers), final norm, head.

    config: plain dict of ModelConfig fields (arch, n_encoder_layers, n_decoder_layers, d_model,
    n_heads, d_ff, positional, norm, activation, tie_weights, vocab_size, tgt_vocab_size).
    words: translations for any key of DIAGRAM_WORDS. An encoder_decoder gets two columns with an
    arrow from the encoder's output into the decoder's cross-attention.
    """
    arch = _config_value(config, "arch")
    if arch not in _ARCHS:
        raise ValueError(f"config arch must be one of {_ARCHS}, got {arch!r}")
    vocab = dict(DIAGRAM_WORDS, **(words or {}))
    stacks = {"encoder_decoder": ("encoder", "decoder"), "decoder_only": ("decoder",), "encoder_only": ("encoder",)}[arch]
    shapes, annotations, blocks, outputs = [], [], {}, {}
    gap = 0.5
    for column, stack in enumerate(stacks):
        x0, x1 = column * 6.0, column * 6.0 + 5.0
        y = 0.0
        previous_top = None
        annotations.append(dict(x=(x0 + x1) / 2, y=-0.4, text=f"<b>{vocab[stack]}</b>", showarrow=False, yanchor="top"))
        for kind, text in _stack_boxes(config, vocab, stack):
            height_units = _BOX_HEIGHT[kind]
            shapes.append(dict(
                type="rect", x0=x0, x1=x1, y0=y, y1=y + height_units, line=dict(color="#333333", width=2),
                fillcolor=_BOX_FILL[kind], layer="below",
            ))
            annotations.append(dict(
                x=(x0 + x1) / 2, y=y + height_units / 2, text=text, showarrow=False,
                font=dict(size=theme.FONT_SIZE - (1 if kind == "block" else 0)),
            ))
            if previous_top is not None:
                annotations.append(dict(
                    x=(x0 + x1) / 2, y=y, ax=(x0 + x1) / 2, ay=previous_top, xref="x", yref="y",
                    axref="x", ayref="y", text="", showarrow=True, arrowhead=2, arrowwidth=2,
                ))
            if kind == "block":
                blocks[stack] = (x0, y + height_units / 2)
            outputs[stack] = (x1, y + height_units / 2)
            previous_top = y + height_units
            y += height_units + gap
    if arch == "encoder_decoder":
        (enc_x, enc_y), (dec_x, dec_y) = outputs["encoder"], blocks["decoder"]
        annotations.append(dict(
            x=dec_x, y=dec_y, ax=enc_x, ay=enc_y, xref="x", yref="y", axref="x", ayref="y",
            text="", showarrow=True, arrowhead=2, arrowwidth=2.5, arrowcolor=theme.HIGHLIGHT_COLOR,
        ))
    top = max(s["y1"] for s in shapes)
    layout = theme.base_layout(
        title, height=height if height is not None else 600,
        shapes=shapes, annotations=annotations, margin=dict(l=10, r=10, t=70, b=10),
        xaxis=dict(visible=False, range=[-0.3, 6.0 * len(stacks) - 0.7]),
        yaxis=dict(visible=False, range=[-1.0, top + 0.3]),
        showlegend=False,
    )
    return theme.figure([], layout)


def shape_table(
    rows: Sequence[tuple],
    title: str = "Tensor shapes through the forward pass",
    headers: Sequence[str] = ("stage", "tensor", "shape", "note"),
    height: int | None = None,
) -> go.Figure:
    """rows: (stage, tensor name, shape tuple, note) per step of the forward pass, or (stage, tensor
    name, shape tuple, note, values) with a fifth column (e.g. the values' mean, std and largest) ->
    a plotly Table; `headers` names as many columns as the rows have.

    Shapes are written as "[2, 4, 16, 16]". The figure is tall enough for every row, long notes
    wrapped, so the table never scrolls inside itself."""
    if len(headers) not in (4, 5):
        raise ValueError(f"headers needs 4 column names (stage, tensor, shape, note) or 5 (and values), "
                         f"got {len(headers)}")
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"row {i} has {len(row)} fields; each row is (stage, tensor name, shape, note"
                             f"{', values' if len(headers) == 5 else ''})")
    columns = [
        [str(r[0]) for r in rows],
        [str(r[1]) for r in rows],
        ["[" + ", ".join(str(d) for d in r[2]) + "]" for r in rows],
        [str(r[3]) for r in rows],
        *([[str(r[4]) for r in rows]] if len(headers) == 5 else []),
    ]
    widths = [2, 3, 2, 4] if len(headers) == 4 else [2, 3, 2, 4, 2]
    table = theme.table(columns, headers, widths, title, height=height)         # as tall as its wrapped cells
    return theme.figure(table["traces"], table["layout"])
