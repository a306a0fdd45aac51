"""The measures behind the lessons' new screens: ReLU and GELU, dead units, gradients per layer,
initialisation, positions beside tokens, per-head against fused projections, attention against
recurrence, and the baselines a loss is read against."""
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from playground.analysis.activations import curves, dead_units, dead_units_after_training, gelu, gelu_slope
from playground.analysis.baselines import as_unsure_as, uniform_loss, unigram_loss
from playground.analysis.gradients import layer_gradient_norms
from playground.analysis.initialisation import signal_through_linear_stack
from playground.analysis.positions import position_token_overlap
from playground.analysis.projections import compare_projections
from playground.analysis.recurrence import attention_layer, layer_costs, recurrent_layer
from playground.labs.bugs import drop_residuals
from playground.model import ModelConfig, MultiHeadAttention, build_model

TEXT = torch.tensor(list(b"the cat sat on the mat and the dog sat on the log; " * 8))     # byte ids


def decoder(**changes):
    torch.manual_seed(0)
    fields = dict(arch="decoder_only", vocab_size=256, d_model=32, n_heads=4, n_decoder_layers=3, d_ff=64, max_len=32,
                  tie_weights=False)
    return build_model(ModelConfig(**{**fields, **changes}))


def test_gelu_and_its_slope_match_torch_and_relu_is_flat_below_zero():
    z = torch.linspace(-4, 4, 41, dtype=torch.float64)
    np.testing.assert_allclose(gelu(z.numpy()), F.gelu(z).numpy(), atol=1e-12)
    z.requires_grad_(True)
    F.gelu(z).sum().backward()
    np.testing.assert_allclose(gelu_slope(z.detach().numpy()), z.grad.numpy(), atol=1e-12)
    shapes = curves()
    below = shapes["z"] < 0
    assert (shapes["relu"][below] == 0).all() and (shapes["relu_slope"][below] == 0).all()
    assert (shapes["gelu_slope"][below] != 0).all()                         # GELU still passes a gradient


def test_dead_units_are_the_ones_whose_input_is_never_positive():
    model = decoder(activation="relu")
    block = next(m for m in model.modules() if hasattr(m, "ffn"))
    with torch.no_grad():
        block.ffn.w_in.bias[:5] = -100.0                                    # five units that can never fire
    found = dead_units(model, TEXT[:32].tolist(), 0)
    assert found.units == 64 and found.positions == 32
    assert found.dead >= 5 and (found.largest[:5] < 0).all()
    assert found.dead == int((found.largest <= 0).sum())
    with pytest.raises(ValueError, match="layer must be in"):
        dead_units(model, TEXT[:8].tolist(), 9)


def test_a_short_training_reports_its_dead_units_even_without_gradients_around_it():
    with torch.no_grad():
        run = dead_units_after_training("relu", TEXT, steps=3)
    assert run.activation == "relu" and math.isfinite(run.loss)
    assert run.largest.shape == (2 * 128,) and run.dead == int((run.largest <= 0).sum())


def test_dead_units_are_counted_on_the_whole_text_not_its_first_window(monkeypatch):
    from playground.analysis import activations
    read = []
    real = activations.dead_units

    def recording(model, ids, layer=0):
        read.append((layer, list(ids)))
        return real(model, ids, layer)

    monkeypatch.setattr(activations, "dead_units", recording)
    with torch.no_grad():
        activations.dead_units_after_training("relu", TEXT, steps=1, block=32)
    for layer in (0, 1):
        covered = [token for at, ids in read if at == layer for token in ids]
        assert covered == TEXT.tolist()[:len(covered)] and len(covered) >= TEXT.numel() - 1


def test_gradient_norms_cover_every_parameter_once_and_residuals_keep_them_even():
    model = decoder(n_decoder_layers=4)
    x = TEXT[:4 * 17].view(4, 17)
    norms = layer_gradient_norms(model, x[:, :-1], x[:, 1:])
    assert list(norms) == ["embedding", "decoder.0", "decoder.1", "decoder.2", "decoder.3", "output"]
    model.zero_grad()
    F.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten()).backward()
    total = math.sqrt(sum(float(p.grad.double().pow(2).sum()) for p in model.parameters() if p.grad is not None))
    assert math.sqrt(sum(v * v for v in norms.values())) == pytest.approx(total, rel=1e-6)
    blocks = [norms[f"decoder.{i}"] for i in range(4)]
    assert max(blocks) / min(blocks) < 1.25                                  # the residual passes the gradient back
    broken = decoder(n_decoder_layers=4)
    drop_residuals(broken)
    without = layer_gradient_norms(broken, x[:, :-1], x[:, 1:])
    assert min(without[f"decoder.{i}"] for i in range(4)) > max(blocks)
    assert all(p.grad is None for p in broken.parameters())                 # gradients cleared after
    with pytest.raises(ValueError, match="both be"):
        layer_gradient_norms(model, x, x[:, :-1])


@pytest.mark.parametrize("width", [64, 256])
def test_normal_0_02_scales_a_signal_by_0_02_sqrt_d_per_layer_and_xavier_keeps_it(width):
    sizes = signal_through_linear_stack(width, 6)
    assert sizes.per_layer_gain("normal_0.02") == pytest.approx(0.02 * math.sqrt(width), rel=0.05)
    assert sizes.per_layer_gain("xavier") == pytest.approx(1.0, rel=0.05)
    assert sizes.std["xavier"][0] == sizes.std["normal_0.02"][0]            # the same input


def test_positions_in_the_tokens_main_directions_score_high_and_positions_beside_them_low():
    model = decoder(positional="learned")
    embed = model.decoder.embed
    with torch.no_grad():
        tokens = embed.tokens.weight[5:] * embed.scale
        main = torch.linalg.svd(tokens - tokens.mean(0), full_matrices=False).Vh[0]          # [D]
        embed.positions.embedding.weight.copy_(torch.linspace(-1, 1, 32)[:, None] * main)     # along it
    inside = position_token_overlap(model)
    k = inside.directions
    assert inside.token_share[k - 1] >= 0.9 > (inside.token_share[k - 2] if k > 1 else 0.0)
    assert inside.position_share[0] == pytest.approx(1.0) and inside.random_share[0] == pytest.approx(1 / 32)
    with torch.no_grad():
        last = torch.linalg.svd(tokens - tokens.mean(0), full_matrices=True).Vh[-1]           # least used
        embed.positions.embedding.weight.copy_(torch.linspace(-1, 1, 32)[:, None] * last)
    beside = position_token_overlap(model)
    assert beside.position_share[k - 1] < beside.random_share[k - 1]
    with pytest.raises(ValueError, match="adds no position vectors"):
        position_token_overlap(decoder(positional="rope"))


def test_per_head_and_fused_projections_give_the_same_queries_with_the_same_parameters():
    attention = next(m for m in decoder().modules() if isinstance(m, MultiHeadAttention))
    found = compare_projections(attention, tokens=16, repeats=3)
    assert found.heads == 4 and found.head_dim == 8
    assert found.max_difference < 1e-6 and found.per_head_parameters == found.fused_parameters == 32 * 32 + 32
    assert found.per_head_ms > 0 and found.fused_ms > 0


def test_a_whole_attention_layer_costs_more_than_a_recurrent_one_at_every_length():
    assert attention_layer(512, 512) == 4 * 512 ** 3 + 2 * 512 ** 3 == 3 * recurrent_layer(512, 512)
    costs = layer_costs(512, [16, 128, 512, 4096])
    assert all(a > r for a, r in zip(costs.attention, costs.recurrent))
    assert costs.ratios == pytest.approx([2 + n / 512 for n in costs.lengths])
    assert costs.recurrent_steps == [16, 128, 512, 4096] and costs.attention_steps == [1] * 4
    assert costs.recurrent_path == [15, 127, 511, 4095]
    with pytest.raises(ValueError, match="increasing"):
        layer_costs(512, [256, 128])


def test_the_attention_count_is_what_torch_counts_for_the_models_attention():
    from torch.utils.flop_counter import FlopCounterMode
    from playground.model.attention import MultiHeadAttention
    n, d = 12, 32
    attention = MultiHeadAttention(d, 4).eval()
    attention.uses_fused_kernel = lambda: False          # the written-out softmax(QK^T / sqrt(d_k)) V
    x = torch.randn(1, n, d)
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        attention(x)
    assert counter.get_total_flops() == 2 * attention_layer(n, d)      # a multiply-add is 2 FLOPs


def test_the_baselines_of_a_loss():
    assert uniform_loss(70) == pytest.approx(math.log(70))
    assert unigram_loss([1, 2, 3, 4] * 5) == pytest.approx(math.log(4))      # four equally frequent tokens
    assert unigram_loss([7] * 9) == 0.0
    assert as_unsure_as(math.log(4.5)) == pytest.approx(4.5)
    with pytest.raises(ValueError):
        unigram_loss([])
