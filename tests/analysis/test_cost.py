"""FLOPs and memory per token: checked against torch's FLOP counter, a full trace, and parameter counts."""
import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from playground.analysis import (
    FLOP_COMPONENTS, MEMORY_COMPONENTS, activation_memory_per_token, flops_per_token, kv_cache_per_token,
)
from playground.model import Trace, count_parameters, gpt2_small_config
from tests.model.helpers import ARCHS, run, tiny_config, tiny_model

T = 7


def full_pass(arch, positional="sinusoidal", **overrides):
    """(config, FLOPs counted by torch, bytes of every traced tensor) of one pass over T tokens."""
    model = tiny_model(arch, positional, **overrides)
    ids = torch.randint(5, 23, (1, T))
    trace = Trace(("*",))
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        run(model, ids, trace, src=ids)
    traced_bytes = sum(t.numel() * t.element_size() for t in trace.cache.values())
    return model.config, counter.get_total_flops(), traced_bytes


@pytest.mark.parametrize("arch", ARCHS)
def test_flops_match_torch_flop_counter(arch):
    config, counted, _ = full_pass(arch, n_decoder_layers=3) if arch == "encoder_decoder" else full_pass(arch)
    flops = flops_per_token(config, T)
    assert set(flops) == {*FLOP_COMPONENTS, "total"} and flops["total"] == sum(flops[c] for c in FLOP_COMPONENTS)
    assert T * flops["total"] == counted


def test_flops_of_one_cached_decoding_step_match_the_counter():
    model = tiny_model("decoder_only")
    cache = model.new_cache()
    with torch.no_grad():
        model(torch.randint(5, 23, (1, 9)), cache=cache)
        with FlopCounterMode(display=False) as counter:                  # traced: the explicit attention path,
            model(torch.tensor([[7]]), cache=cache, trace=Trace(("*.weights",)))  # whose matmuls the counter sees
    assert counter.get_total_flops() == flops_per_token(model.config, 10)["total"]


def test_context_dependent_flops_grow_linearly_with_context():
    config = tiny_config()
    short, long = flops_per_token(config, 10), flops_per_token(config, 20)
    assert long["attention_scores"] == 2 * short["attention_scores"]
    assert all(long[c] == short[c] for c in ("attention", "feed_forward", "output_head"))


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_only"])
def test_weight_flops_are_twice_the_parameters_without_biases(arch):
    config = tiny_config(arch, bias=False, tie_weights=False)
    flops, params = flops_per_token(config, 5), count_parameters(config)
    for component in ("attention", "feed_forward", "output_head"):
        assert flops[component] == 2 * params[component], component


def test_gpt2_small_flops_per_token_near_the_two_n_rule():
    config = gpt2_small_config()
    flops = flops_per_token(config, 1024)
    non_embedding = count_parameters(config)["total"] - count_parameters(config)["token_embeddings"] \
        - count_parameters(config)["position_embeddings"]
    assert flops["total"] == pytest.approx(2 * non_embedding + 2 * 768 * 50257 + 4 * 12 * 768 * 1024, rel=0.01)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", ["sinusoidal", "rope"])
def test_activation_memory_matches_a_full_trace(arch, positional):
    config, _, traced_bytes = full_pass(arch, positional)
    memory = activation_memory_per_token(config, T)
    assert set(memory) == {*MEMORY_COMPONENTS, "total"}
    assert T * memory["total"] == traced_bytes
    assert activation_memory_per_token(config, T, bytes_per_value=2)["total"] * 2 == memory["total"]


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder"])
def test_kv_cache_bytes_match_a_filled_cache(arch):
    model = tiny_model(arch)
    ids = torch.randint(5, 23, (1, T))
    cache = model.new_cache()
    with torch.no_grad():
        model.decode(ids, model.encode(ids), cache=cache)
    stored = sum(t.numel() * 4 for layer in (*cache.self_attn, *cache.cross_attn) if layer.k is not None
                 for t in (layer.k, layer.v))
    assert T * kv_cache_per_token(model.config) == stored
    assert kv_cache_per_token(tiny_config("encoder_only")) == 0


@pytest.mark.parametrize("call, message", [
    (lambda: flops_per_token(tiny_config(), 0), "context_length must be a positive integer"),
    (lambda: flops_per_token(tiny_config(), 2.5), "context_length must be a positive integer"),
    (lambda: flops_per_token({"d_model": 8}, 4), "ModelConfig"),
    (lambda: activation_memory_per_token(tiny_config(), 4, bytes_per_value=3), "bytes_per_value"),
    (lambda: kv_cache_per_token(tiny_config(), bytes_per_value=0), "bytes_per_value"),
])
def test_bad_arguments_raise_clear_errors(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
