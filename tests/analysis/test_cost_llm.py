"""FLOPs and memory per token of today's LLM pieces (grouped-query attention, gated feed-forward, RMSNorm):
checked against torch's FLOP counter, a full trace, parameter counts and a filled KV cache."""
import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from playground.analysis import activation_memory_per_token, flops_per_token, kv_cache_per_token
from playground.analysis.cost import kv_cache_against_multi_head
from playground.model import Trace, count_parameters
from tests.model.helpers import run, tiny_config, tiny_model

T = 7
LLM = dict(norm_type="rmsnorm", activation="silu", gated_ffn=True, bias=False, scale_embedding=False, positional="rope")


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
@pytest.mark.parametrize("n_kv_heads", [1, 2, 4])
def test_flops_and_activation_memory_match_the_counter_and_a_full_trace(arch, n_kv_heads):
    model = tiny_model(arch, **LLM, n_kv_heads=n_kv_heads)
    ids = torch.randint(5, 23, (1, T))
    trace = Trace(("*",))
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        run(model, ids, trace, src=ids)
    traced_bytes = sum(t.numel() * t.element_size() for t in trace.cache.values())
    assert T * flops_per_token(model.config, T)["total"] == counter.get_total_flops()
    assert T * activation_memory_per_token(model.config, T)["total"] == traced_bytes


@pytest.mark.parametrize("n_kv_heads", [1, 2, 4])
def test_weight_flops_are_twice_the_parameters(n_kv_heads):
    config = tiny_config(**LLM, n_kv_heads=n_kv_heads, tie_weights=False)
    flops, params = flops_per_token(config, 5), count_parameters(config)
    for component in ("attention", "feed_forward", "output_head"):
        assert flops[component] == 2 * params[component], component


@pytest.mark.parametrize("n_kv_heads, saving", [(1, 4.0), (2, 2.0), (4, 1.0)])
def test_the_kv_cache_shrinks_by_the_query_heads_per_key_value_head(n_kv_heads, saving):
    model = tiny_model(**LLM, n_kv_heads=n_kv_heads)
    cache = model.new_cache()
    with torch.no_grad():
        model(torch.randint(5, 23, (1, T)), cache=cache)
    stored = sum(t.numel() * 4 for layer in cache.self_attn for t in (layer.k, layer.v))
    compared = kv_cache_against_multi_head(model.config)
    assert T * kv_cache_per_token(model.config) == T * compared["bytes"] == stored
    assert compared["saving"] == saving and compared["multi_head_bytes"] == saving * compared["bytes"]
    assert kv_cache_against_multi_head(tiny_config("encoder_only"))["saving"] == 1.0
