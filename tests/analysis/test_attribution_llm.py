"""Direct logit attribution through a final RMSNorm (no centring, no bias) on a grouped-query, SwiGLU model."""
import pytest
import torch

from playground.analysis.attribution import logit_attribution
from playground.model import Trace
from tests.model.helpers import randomize_parameters, tiny_model

IDS = [7, 12, 9, 5, 20, 11]
LLM = dict(norm_type="rmsnorm", activation="silu", gated_ffn=True, bias=False, scale_embedding=False,
           positional="rope", n_kv_heads=2)


@pytest.mark.parametrize("qkv_bias", [False, True])
def test_the_parts_of_an_rmsnorm_model_sum_to_its_logit_without_centring(qkv_bias):
    model = randomize_parameters(tiny_model(**LLM, qkv_bias=qkv_bias, seed=3), seed=4, std=0.3)
    for position, token in [(-1, None), (2, 17)]:
        attribution = logit_attribution(model, IDS, position, token)
        assert attribution.total == pytest.approx(attribution.logit, abs=1e-4)
        assert len([c for c in attribution.components if c.kind == "head"]) == 2 * 4
        assert not any(c.kind == "norm_bias" for c in attribution.components)


def test_a_head_s_share_is_its_output_scaled_by_the_frozen_root_mean_square():
    model = randomize_parameters(tiny_model(**LLM), seed=5, std=0.3)
    attribution = logit_attribution(model, IDS, -1, 9)
    trace = Trace(("*", "*.z"))
    with torch.no_grad():
        model(torch.tensor([IDS]), trace=trace)
    stream = trace["decoder.1.resid_post"][0, -1].double()
    rms = torch.sqrt(stream.pow(2).mean() + model.config.norm_eps)
    z = trace["decoder.1.self_attn.z"][0, -1, 3].double()                   # [Dh]
    out = model.decoder.blocks[1].self_attn.w_o.weight.double()[:, 24:32] @ z
    with torch.no_grad():
        expected = float((model.decoder.final_norm.weight.double() * out / rms) @ model.head.weight[9].double())
    share = next(c.value for c in attribution.components if c.name == "decoder.1.self_attn.head3")
    assert share == pytest.approx(expected, abs=1e-6)
    assert attribution.scale == pytest.approx(float(1 / rms))
