"""Attention worked by hand equals what the model computed: its weights, its scores and its output."""
import math

import pytest
import torch

from playground.analysis.worked_attention import recombined_output, traced_run, work_through
from playground.checkpoint import load
from playground.model import CROSS, DECODER_SELF, ENCODER_SELF
from playground.zoo import DEFAULT_PRETRAINED_DIR
from tests.model.helpers import tiny_model

SOURCE, TARGET = [5, 9, 7, 12], [1, 8, 6, 10]


def _check(model, trace, site):
    n_layers = len(getattr(model, site.stack).blocks)
    for layer in range(n_layers):
        for head in range(model.config.n_heads):
            worked = work_through(trace, site, layer, head)
            traced = trace[site.key(layer, "weights")][0, head].double()
            assert torch.allclose(worked.weights, traced, atol=1e-6)
            assert torch.allclose(worked.scaled, trace[site.key(layer, "scores")][0, head].double(), atol=1e-5)
            assert torch.allclose(worked.scaled, worked.scores / math.sqrt(worked.d_k))
        out = trace[site.key(layer, "out")][0].double()
        assert torch.allclose(recombined_output(model, trace, site, layer), out, atol=1e-5)


@pytest.mark.parametrize("arch, sites", [("encoder_decoder", (ENCODER_SELF, DECODER_SELF, CROSS)),
                                         ("decoder_only", (DECODER_SELF,)), ("encoder_only", (ENCODER_SELF,))])
def test_every_head_worked_by_hand_matches_the_trace(arch, sites):
    model = tiny_model(arch, norm="post") if arch == "encoder_only" else tiny_model(arch)
    source = SOURCE if model.has_encoder else None
    target = (TARGET if model.has_encoder else SOURCE) if model.has_decoder else None
    trace = traced_run(model, source, target)
    for site in sites:
        _check(model, trace, site)


def test_a_shipped_model_head_worked_by_hand_matches_and_is_causal():
    model = load(DEFAULT_PRETRAINED_DIR / "shakespeare-char")[0].eval()
    trace = traced_run(model, None, [37, 32, 30, 22])                      # four characters
    _check(model, trace, DECODER_SELF)
    worked = work_through(trace, DECODER_SELF, 1, 2)
    above = torch.ones(4, 4, dtype=torch.bool).triu(1)
    assert torch.isneginf(worked.masked[above]).all() and (worked.weights[above] == 0).all()
    assert torch.allclose(worked.weights.sum(-1), torch.ones(4, dtype=torch.float64))
    assert torch.allclose(worked.output, worked.weights @ worked.v)


@pytest.mark.parametrize("n_kv_heads", [2, 1])
def test_worked_attention_matches_a_grouped_query_model(n_kv_heads):
    from playground.model import ModelConfig, build_model
    torch.manual_seed(0)
    config = ModelConfig(arch="decoder_only", vocab_size=20, d_model=32, n_heads=4, n_kv_heads=n_kv_heads,
                         n_decoder_layers=2, d_ff=48, positional="rope", norm_type="rmsnorm", activation="silu",
                         gated_ffn=True, bias=False, qkv_bias=True)
    model = build_model(config).eval()
    _check(model, traced_run(model, None, TARGET), DECODER_SELF)
