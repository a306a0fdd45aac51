"""Today's LLM pieces as config choices: RMSNorm, SwiGLU, rotary base, grouped-query attention, q/k/v-only biases."""
import pytest
import torch
import torch.nn.functional as F

from playground.model import Head, ModelConfig, Trace, build_model, heads_off, hook_names, hooks, tensors_on
from playground.model.blocks import RMSNorm
from playground.model.positional import RotaryPositions, rope_angles

from .helpers import ARCHS, randomize_parameters, run, tiny_model

LLAMA_LIKE = dict(norm_type="rmsnorm", activation="silu", gated_ffn=True, bias=False, scale_embedding=False,
                  positional="rope", tie_weights=False)


def llm(arch="decoder_only", seed=0, **overrides):
    return randomize_parameters(tiny_model(arch, **{**LLAMA_LIKE, "n_heads": 4, "n_kv_heads": 2, **overrides}), seed)


def test_json_round_trip_keeps_the_new_fields_and_old_configs_get_the_old_behaviour():
    config = ModelConfig(**{**LLAMA_LIKE, "n_kv_heads": 1, "rope_base": 1e6, "qkv_bias": True, "norm_eps": 1e-6})
    assert ModelConfig.from_json(config.to_json()) == config
    old = ModelConfig.from_dict({"arch": "decoder_only", "vocab_size": 64})
    assert (old.norm_type, old.gated_ffn, old.kv_heads, old.rope_base, old.projection_bias) == \
        ("layernorm", False, old.n_heads, 10000.0, True)


@pytest.mark.parametrize("changes, field, hint", [
    (dict(n_heads=4, n_kv_heads=3), "n_kv_heads", "must divide n_heads; got 3 (use one of [1, 2, 4])"),
    (dict(n_kv_heads=0), "n_kv_heads", "integer in [1, 64], got 0"),
    (dict(norm_type="batchnorm"), "norm_type", "not one of"),
    (dict(rope_base=0.5), "rope_base", "must be a number in [2, 1e+09]"),
    (dict(rope_base="big"), "rope_base", "got 'big'"),
    (dict(qkv_bias="yes"), "qkv_bias", "true, false or null"),
    (dict(gated_ffn=1), "gated_ffn", "true or false"),
])
def test_invalid_new_fields_are_refused_by_name(changes, field, hint):
    with pytest.raises(ValueError) as error:
        ModelConfig(**changes)
    assert f"ModelConfig.{field}" in str(error.value) and hint in str(error.value)


def test_rmsnorm_scales_by_the_root_mean_square_without_centring():
    norm = RMSNorm(6, eps=1e-6)
    with torch.no_grad():
        norm.weight.copy_(torch.arange(1.0, 7.0))
    x = torch.randn(2, 3, 6) + 5.0
    expected = x / torch.sqrt((x ** 2).mean(-1, keepdim=True) + 1e-6) * torch.arange(1.0, 7.0)
    torch.testing.assert_close(norm(x), expected)
    assert norm(x).mean(-1).abs().min() > 1                                  # not centred, unlike LayerNorm
    assert [name for name, _ in norm.named_parameters()] == ["weight"]


def test_the_gated_feed_forward_is_down_of_silu_gate_times_up():
    model = llm()
    ffn = model.decoder.blocks[0].ffn
    x = torch.randn(1, 5, 32)
    with torch.no_grad():
        expected = ffn.w_out(F.silu(ffn.w_gate(x)) * ffn.w_in(x))
        torch.testing.assert_close(ffn(x), expected)


def test_biases_only_in_the_query_key_value_projections_as_qwen2_has_them():
    model = tiny_model(**LLAMA_LIKE, qkv_bias=True)
    with_bias = {name for name, p in model.named_parameters() if name.endswith(".bias")}
    assert with_bias == {f"decoder.blocks.{i}.self_attn.w_{p}.bias" for i in range(2) for p in "qkv"}
    assert not any(name.endswith(".bias") for name, _ in tiny_model(**LLAMA_LIKE).named_parameters())


def test_the_rotary_base_sets_the_angles():
    rope = RotaryPositions(8, 16, base=1e6)
    torch.testing.assert_close(rope.cos, rope_angles(torch.arange(16), 8, 1e6).cos())
    assert rope_angles(torch.arange(16), 8, 1e6)[5, 1] < rope_angles(torch.arange(16), 8, 1e4)[5, 1]
    slow, fast = tiny_model(positional="rope", rope_base=1e6), tiny_model(positional="rope")
    assert slow.decoder.embed.positions.base == 1e6 and not torch.equal(slow.decoder.embed.positions.cos,
                                                                        fast.decoder.embed.positions.cos)


@pytest.mark.parametrize("arch", ARCHS)
def test_grouped_query_attention_is_multi_head_attention_with_each_key_value_head_repeated(arch):
    grouped = llm(arch, n_kv_heads=2)
    full = tiny_model(arch, **{**LLAMA_LIKE, "n_heads": 4})
    state = grouped.state_dict()
    for name, value in state.items():                                        # [Hkv * Dh, ...] -> [H * Dh, ...]
        if any(f"attn.w_{p}." in name for p in "kv"):
            state[name] = value.view(2, 8, *value.shape[1:]).repeat_interleave(2, dim=0).reshape(32, *value.shape[1:])
    full.load_state_dict(state)
    ids, src = torch.randint(5, 23, (2, 7)), torch.randint(5, 23, (2, 6))
    with torch.no_grad():
        torch.testing.assert_close(run(grouped, ids, src=src), run(full, ids, src=src), atol=1e-5, rtol=0)
        traced = run(grouped, ids, Trace(), src=src)                         # the explicit path
        torch.testing.assert_close(traced, run(full, ids, src=src), atol=1e-5, rtol=0)


@pytest.mark.parametrize("n_kv_heads", [1, 2, 4])
def test_the_kv_cache_holds_the_key_value_heads_and_decoding_equals_recomputing(n_kv_heads):
    model = llm(n_kv_heads=n_kv_heads)
    ids = torch.randint(5, 23, (1, 9))
    cache = model.new_cache()
    with torch.no_grad():
        full = model(ids)
        steps = [model(ids[:, :5], cache=cache)[:, -1]] + [model(ids[:, t:t + 1], cache=cache)[:, -1] for t in range(5, 9)]
    assert cache.self_attn[0].k.shape == (1, n_kv_heads, 9, 8)
    torch.testing.assert_close(torch.stack(steps, 1), full[:, 4:], atol=1e-5, rtol=0)


def test_hook_points_cover_the_new_pieces_with_per_query_head_weights():
    model = llm(n_kv_heads=2)
    names = hook_names(model)
    assert "decoder.0.ffn.gate" in names and "decoder.1.self_attn.weights" in names and "decoder.final_norm" in names
    trace = Trace()
    with torch.no_grad():
        model(torch.randint(5, 23, (1, 6)), trace=trace)
    assert trace["decoder.0.self_attn.weights"].shape == (1, 4, 6, 6)            # one map per query head
    assert trace["decoder.0.self_attn.q"].shape == (1, 4, 6, 8)
    assert trace["decoder.0.self_attn.k"].shape == trace["decoder.0.self_attn.v"].shape == (1, 2, 6, 8)
    assert trace["decoder.0.ffn.gate"].shape == trace["decoder.0.ffn.hidden"].shape == (1, 6, 64)


def test_heads_off_and_patching_work_on_a_grouped_query_model():
    model = llm(n_kv_heads=2)
    ids = torch.randint(5, 23, (1, 6))
    with torch.no_grad():
        base = model(ids)
        off = heads_off(model, [Head(model.sites()[0], 1, 3)])(ids)
        with hooks(model, {"decoder.0.self_attn.k": lambda k, name: torch.zeros_like(k)}):
            patched = model(ids)
    assert not torch.allclose(base, off) and not torch.allclose(base, patched)
    torch.testing.assert_close(model(ids), base)                              # the model itself is unchanged


def test_a_moved_llm_keeps_no_tensor_behind():
    model = llm()
    with torch.no_grad():
        model(torch.randint(5, 23, (1, 5)))
    model.to("meta")
    assert tensors_on(model, "cpu") == []
