import math
from contextlib import nullcontext

import pytest
import torch
from torch import nn

from playground.model import CROSS, MultiHeadAttention, Trace, attend, causal_mask, merge_heads, split_heads
from playground.model.hooks import name_hook_points

from .helpers import ARCHS, POSITIONALS, run, tiny_model


def copy_into_torch_mha(ours: MultiHeadAttention, d_model: int, n_heads: int) -> nn.MultiheadAttention:
    reference = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
    with torch.no_grad():
        reference.in_proj_weight.copy_(torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight]))
        reference.in_proj_bias.copy_(torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias]))
        reference.out_proj.weight.copy_(ours.w_o.weight)
        reference.out_proj.bias.copy_(ours.w_o.bias)
    return reference.eval()


@pytest.mark.parametrize("traced", [False, True])
def test_self_attention_matches_torch_multihead_attention(traced):
    torch.manual_seed(0)
    ours = MultiHeadAttention(32, 4).eval()
    reference = copy_into_torch_mha(ours, 32, 4)
    x = torch.randn(3, 9, 32)
    mask = causal_mask(9, 9)
    with Trace() if traced else nullcontext():
        ours_out = ours(x, mask)
    ref_out, ref_weights = reference(x, x, x, attn_mask=~mask, average_attn_weights=False)
    torch.testing.assert_close(ours_out, ref_out, atol=1e-5, rtol=0)


def test_cross_attention_with_padding_matches_torch_and_records_weights():
    torch.manual_seed(1)
    ours = MultiHeadAttention(32, 4).eval()
    name_hook_points(ours, "test.cross_attn")                                # a layer built on its own
    reference = copy_into_torch_mha(ours, 32, 4)
    x, memory = torch.randn(2, 5, 32), torch.randn(2, 7, 32)
    keep = torch.tensor([[True] * 7, [True] * 4 + [False] * 3])              # [B, S]
    with Trace() as trace:
        ours_out = ours(x, keep[:, None, None, :], context=memory)
    ref_out, ref_weights = reference(x, memory, memory, key_padding_mask=~keep, average_attn_weights=False)
    torch.testing.assert_close(ours_out, ref_out, atol=1e-5, rtol=0)
    torch.testing.assert_close(trace["test.cross_attn.weights"], ref_weights, atol=1e-5, rtol=0)
    assert trace["test.cross_attn.weights"][1, :, :, 4:].abs().max() == 0


def test_explicit_attention_is_the_textbook_formula():
    torch.manual_seed(2)
    q, k, v = torch.randn(1, 2, 4, 8), torch.randn(1, 2, 6, 8), torch.randn(1, 2, 6, 8)
    out, scores, weights = attend(q, k, v, None)
    expected_weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(8), dim=-1)
    torch.testing.assert_close(weights, expected_weights)
    torch.testing.assert_close(out, expected_weights @ v)
    torch.testing.assert_close(weights.sum(-1), torch.ones(1, 2, 4))


def test_split_and_merge_heads_are_inverse_and_split_features_not_positions():
    x = torch.arange(2 * 3 * 8, dtype=torch.float32).view(2, 3, 8)         # [B, T, D]
    heads = split_heads(x, 4)                                                # [B, H, T, Dh]
    assert heads.shape == (2, 4, 3, 2)
    assert torch.equal(heads[0, 1, 2], x[0, 2, 2:4])                         # head 1 of position 2 = features 2..3
    assert torch.equal(merge_heads(heads), x)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("positional", POSITIONALS)
def test_explicit_and_fused_paths_give_the_same_logits(arch, positional):
    model = tiny_model(arch, positional)
    ids = torch.randint(5, 23, (2, 11))
    src = torch.randint(5, 23, (2, 9))
    src[1, 6:] = 0                                                           # padded source
    fused = run(model, ids, src=src)
    explicit = run(model, ids, trace=Trace(), src=src)
    torch.testing.assert_close(fused, explicit, atol=1e-5, rtol=0)


def test_without_a_trace_the_fused_kernel_runs_and_nothing_is_recorded(monkeypatch):
    calls = {"fused": 0, "explicit": 0}
    real_sdpa = torch.nn.functional.scaled_dot_product_attention

    def counting_sdpa(*args, **kwargs):
        calls["fused"] += 1
        return real_sdpa(*args, **kwargs)

    monkeypatch.setattr(torch.nn.functional, "scaled_dot_product_attention", counting_sdpa)
    import playground.model.attention as attention_module
    real_attend = attention_module.attend

    def counting_attend(*args, **kwargs):
        calls["explicit"] += 1
        return real_attend(*args, **kwargs)

    monkeypatch.setattr(attention_module, "attend", counting_attend)
    model = tiny_model("encoder_decoder")
    model(torch.randint(5, 23, (1, 6)), torch.randint(5, 23, (1, 4)))
    assert calls == {"fused": 6, "explicit": 0}                              # 2 enc self + 2x(dec self + cross)
    trace = Trace(include=("decoder.1.cross_attn.weights",))
    model(torch.randint(5, 23, (1, 6)), torch.randint(5, 23, (1, 4)), trace=trace)
    assert trace.names() == ["decoder.1.cross_attn.weights"]
    assert calls["explicit"] == 1


def test_trace_records_every_named_stage_with_its_shape():
    model = tiny_model("encoder_decoder")
    trace = Trace()
    model(torch.randint(5, 23, (2, 7)), torch.randint(5, 23, (2, 5)), trace=trace)
    assert trace["encoder.0.self_attn.weights"].shape == (2, 4, 7, 7)
    assert trace["decoder.1.self_attn.scores"].shape == (2, 4, 5, 5)
    assert trace["decoder.0.cross_attn.weights"].shape == (2, 4, 5, 7)
    assert trace["decoder.0.self_attn.q"].shape == (2, 4, 5, 8)
    assert trace["decoder.1.ffn.hidden"].shape == (2, 5, 64)
    assert trace["decoder.1.resid_cross"].shape == (2, 5, 32)
    assert trace["encoder.pos_embed"].shape == (7, 32)
    assert trace["logits"].shape == (2, 5, 23)
    assert trace.attention(CROSS).shape == (2, 2, 4, 5, 7)
    upper = trace["decoder.0.self_attn.weights"].triu(diagonal=1)
    assert upper.abs().max() == 0                                            # causal: no weight on the future


def test_swapping_the_score_function_changes_outputs_and_uses_the_explicit_path():
    model = tiny_model("decoder_only")
    ids = torch.randint(5, 23, (1, 8))
    reference = model(ids)
    for module in model.modules():
        if isinstance(module, MultiHeadAttention):
            module.score_fn = lambda q, k: q @ k.transpose(-2, -1)           # 1/sqrt(d_k) left out
    assert not torch.allclose(model(ids), reference, atol=1e-4)
