import pytest

from playground.viz import architecture_diagram, parameter_treemap, shape_table

COUNTS = {
    "embedding": {"token": 1000, "position": 200},
    "blocks": {"block 0": {"attention": 400, "mlp": 800}, "block 1": {"attention": 400, "mlp": 800}},
    "final norm": 16,
}
TOTAL = 1000 + 200 + 2 * (400 + 800) + 16

CONFIG = dict(
    arch="encoder_decoder", vocab_size=100, tgt_vocab_size=None, d_model=64, n_heads=4, n_encoder_layers=3,
    n_decoder_layers=2, d_ff=256, positional="sinusoidal", norm="pre", activation="gelu", tie_weights=True,
)


@pytest.mark.parametrize("kind", ["treemap", "sunburst"])
def test_treemap_root_is_the_total_and_every_parent_sums_its_children(kind):
    trace = parameter_treemap(COUNTS, kind=kind).data[0]
    values = dict(zip(trace.ids, trace.values))
    assert values["model"] == TOTAL
    assert values["model/blocks"] == 2400
    assert values["model/blocks/block 1/mlp"] == 800
    for node, parent in zip(trace.ids, trace.parents):
        children = [v for i, v, p in zip(trace.ids, trace.values, trace.parents) if p == node]
        if children:
            assert values[node] == sum(children)
    assert trace.branchvalues == "total"


def test_treemap_refuses_negative_counts():
    with pytest.raises(ValueError, match="'model/embedding' must be an integer >= 0"):
        parameter_treemap({"embedding": -5})


def _texts(fig):
    return " | ".join(a.text for a in fig.layout.annotations if a.text)


def test_encoder_decoder_diagram_has_both_stacks_and_cross_attention():
    fig = architecture_diagram(CONFIG)
    text = _texts(fig)
    assert "<b>3 ×</b> Encoder block" in text and "<b>2 ×</b> Decoder block" in text
    assert text.count("cross-attention (4 heads)") == 1
    assert "feed-forward 64→256→64, gelu" in text
    assert "(tied to embedding)" in text
    assert text.count("final LayerNorm") == 2  # pre-norm stacks end with a LayerNorm
    red_arrows = [a for a in fig.layout.annotations if a.arrowcolor]
    assert len(red_arrows) == 1  # encoder output into the decoder


def test_decoder_only_post_norm_diagram():
    config = dict(CONFIG, arch="decoder_only", n_encoder_layers=0, norm="post", positional="rope", tie_weights=False)
    text = _texts(architecture_diagram(config, words={"decoder": "解码器", "block": "块"}))
    assert "Encoder" not in text and "cross-attention" not in text
    assert "<b>2 ×</b> 解码器 块" in text
    assert "input tokens" in text and "shifted right" not in text   # a GPT reads its input, not a shifted target
    assert "masked self-attention (4 heads) → + residual → LayerNorm" in text
    assert "final LayerNorm" not in text and "tied" not in text
    assert "RoPE" in text


def test_diagram_shifts_only_an_encoder_decoders_target_and_translates_positions():
    text = _texts(architecture_diagram(dict(CONFIG, positional="learned"), words={"positional_learned": "可学习"}))
    assert text.count("input tokens") == 1 and text.count("output tokens (shifted right)") == 1
    assert text.count("positional: 可学习") == 2 and "learned" not in text


def test_treemap_labels_keep_a_readable_size():
    layout = parameter_treemap(COUNTS).layout
    assert layout.uniformtext.minsize >= 12 and layout.uniformtext.mode == "hide"


def test_diagram_names_the_missing_field():
    config = dict(CONFIG)
    del config["d_ff"]
    with pytest.raises(ValueError, match="'d_ff'"):
        architecture_diagram(config)


def test_shape_table_rows_and_shapes():
    rows = [("embed", "x", (2, 16, 64), "tokens + positions"), ("attention", "weights", (2, 4, 16, 16), "softmax")]
    cells = shape_table(rows).data[0].cells.values
    assert list(cells[0]) == ["embed", "attention"]
    assert list(cells[2]) == ["[2, 16, 64]", "[2, 4, 16, 16]"]
    assert list(cells[3]) == ["tokens + positions", "softmax"]
    with pytest.raises(ValueError, match="row 0 has 3 fields"):
        shape_table([("embed", "x", (2,))])


def test_shape_table_is_tall_enough_for_every_row_and_wraps_a_long_title():
    rows = [("embed", "x", (2, 16), "short"), ("attention", "weights", (2, 4, 16, 16), "a note " * 20)]
    fig = shape_table(rows, title="word " * 40)
    assert fig.layout.title.text.count("<br>") == 1
    margin = fig.layout.margin
    one_line_rows = shape_table(rows[:1] * 2, title="short").layout
    assert fig.layout.height - margin.t > one_line_rows.height - one_line_rows.margin.t   # the long note's row is taller
