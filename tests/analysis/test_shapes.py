"""Shape walk-through: one row per traced tensor, in forward order, with the right stage and symbols."""
import pytest
import torch

from playground.analysis import shape_walkthrough
from playground.model import Trace
from tests.model.helpers import run, tiny_config, tiny_model

SIZES = dict(B=1, T=5, S=6, D=32, H=4, Dh=8, F=64, V=23)


def walkthrough(arch, **overrides):
    model = tiny_model(arch, **overrides)
    trace = Trace(("*",))
    with torch.no_grad():
        run(model, torch.randint(5, 23, (1, 5)), trace, src=torch.randint(5, 23, (1, 6)))
    return trace, model.config, shape_walkthrough(trace, model.config)


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder", "encoder_only"])
def test_every_traced_tensor_gets_a_row_whose_symbols_match_its_shape(arch):
    trace, config, rows = walkthrough(arch)
    assert [row.name for row in rows] == trace.names()
    for row in rows:
        symbols = row.symbols.strip("[]").split(", ")
        assert tuple(SIZES[s] for s in symbols) == row.shape, row
        assert row.note and row.stage


def test_stages_follow_the_forward_pass():
    _, _, rows = walkthrough("encoder_decoder")
    stages = list(dict.fromkeys(row.stage for row in rows))
    assert stages == [
        "encoder embedding", "encoder block 0: self-attention", "encoder block 0: feed-forward",
        "encoder block 1: self-attention", "encoder block 1: feed-forward", "encoder final norm",
        "decoder embedding", "decoder block 0: self-attention", "decoder block 0: cross-attention",
        "decoder block 0: feed-forward", "decoder block 1: self-attention", "decoder block 1: cross-attention",
        "decoder block 1: feed-forward", "decoder final norm", "output",
    ]
    by_name = {row.name: row for row in rows}
    assert by_name["decoder.0.cross_attn.scores"].symbols == "[B, H, T, S]"
    assert "causal" in by_name["decoder.1.self_attn.weights"].note
    assert "sqrt(8)" in by_name["encoder.0.self_attn.scores"].note


def test_rope_models_have_no_positional_row():
    _, _, rows = walkthrough("decoder_only", positional="rope")
    assert not any(row.name.endswith("pos_embed") for row in rows)


def test_a_narrow_trace_or_a_mismatched_config_is_refused():
    model = tiny_model("decoder_only")
    narrow = Trace(("*.weights",))
    with torch.no_grad():
        model(torch.randint(5, 23, (1, 4)), trace=narrow)
    with pytest.raises(ValueError, match=r"include=\('\*',\)"):
        shape_walkthrough(narrow, model.config)
    trace, _, _ = walkthrough("decoder_only")
    with pytest.raises(ValueError, match="does not match the config"):
        shape_walkthrough(trace, tiny_config(d_model=64))
    with pytest.raises(TypeError, match="Trace"):
        shape_walkthrough({}, model.config)
