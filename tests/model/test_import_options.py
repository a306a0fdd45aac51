"""ModelConfig options that imported checkpoints need: GPT-2's tanh GELU, the LayerNorm epsilon and
token ids the head never predicts."""
from __future__ import annotations

import math

import pytest
import torch
from torch import nn

from playground.model import ModelConfig, build_model


def _config(**changes) -> ModelConfig:
    return ModelConfig(arch="decoder_only", vocab_size=20, d_model=16, n_heads=2, n_decoder_layers=2, d_ff=32,
                       max_len=16, **changes)


def test_gelu_tanh_is_gpt2s_approximation():
    model = build_model(_config(activation="gelu_tanh"))
    x = torch.linspace(-4, 4, 101)
    expected = 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    activation = model.decoder.blocks[0].ffn.activation
    assert torch.allclose(activation(x), expected, atol=1e-6)
    assert not torch.allclose(build_model(_config(activation="gelu")).decoder.blocks[0].ffn.activation(x), expected,
                              atol=1e-5)


@pytest.mark.parametrize("arch", ["decoder_only", "encoder_decoder", "encoder_only"])
def test_every_layer_norm_uses_the_configured_epsilon(arch):
    layers = {"decoder_only": dict(n_decoder_layers=1), "encoder_only": dict(n_decoder_layers=0, n_encoder_layers=1),
              "encoder_decoder": dict(n_decoder_layers=1, n_encoder_layers=1)}[arch]
    config = ModelConfig(arch=arch, vocab_size=20, d_model=16, n_heads=2, d_ff=32, norm_eps=1e-3, **layers)
    norms = [m for m in build_model(config).modules() if isinstance(m, nn.LayerNorm)]
    assert norms and all(m.eps == 1e-3 for m in norms)


def test_never_predicted_ids_take_no_probability_and_log_probabilities_stay_finite():
    config = _config(never_predict=(0, 3, 4))
    model = build_model(config).eval()
    with torch.no_grad():
        logits = model(torch.randint(5, 20, (2, 6)))                          # [B, T, V]
    probabilities = torch.softmax(logits, dim=-1)
    assert torch.all(probabilities[..., [0, 3, 4]] == 0)
    assert torch.all(probabilities[..., [1, 2, 5]] > 0)
    assert torch.isfinite(torch.log_softmax(logits.double(), dim=-1)).all()


def test_never_predict_round_trips_through_json_and_is_validated():
    config = _config(never_predict=(0, 4))
    assert ModelConfig.from_json(config.to_json()) == config
    for bad in ((20,), (1, 1), tuple(range(20)), ("0",)):
        with pytest.raises(ValueError, match="never_predict"):
            _config(never_predict=bad)
    with pytest.raises(ValueError, match="norm_eps"):
        _config(norm_eps=0)
