"""The hand-written stack against torch's own Transformer layers, weights copied across.

torch.nn.TransformerEncoderLayer / nn.Transformer are an independent implementation of the same
blocks (references in playground/bench/torch_reference.py). Every parameter is random, biases and
LayerNorm weights included, so a norm in the wrong place or a wrong activation changes the logits.
The references use learned positions and write the embedding (times sqrt(D) where configured) and
the head (tied or not) as the model does: torch has no layers for them. torch's nn.Transformer
ends both stacks with a LayerNorm even when post-norm; the playground adds that final LayerNorm to
pre-norm stacks only, so the reference drops torch's for post-norm (see torch_reference.py).
"""
import pytest
import torch

from playground.bench.torch_reference import TorchEncoderDecoderReference, TorchEncoderReference, TorchReference
from playground.model import build_model

from .helpers import randomize_parameters, tiny_config

BLOCK_VARIANTS = [(norm, activation) for norm in ("pre", "post") for activation in ("relu", "gelu")]


def _models(arch, norm, activation, reference_class, **overrides):
    config = tiny_config(arch, "learned", norm=norm, activation=activation, **overrides)
    model = randomize_parameters(build_model(config), seed=len(norm) + len(activation)).eval()
    return model, reference_class(config).eval().copy_from(model)


def _padded_source(batch=3, length=9):
    src = torch.randint(5, 23, (batch, length), generator=torch.Generator().manual_seed(1))
    src[1, 6:] = 0                                                           # pad_id: masked as keys
    return src


@pytest.mark.parametrize("norm,activation", BLOCK_VARIANTS)
@pytest.mark.parametrize("scale_embedding", [True, False])
def test_encoder_stack_equals_torch_encoder_layers(norm, activation, scale_embedding):
    model, reference = _models("encoder_only", norm, activation, TorchEncoderReference,
                               n_encoder_layers=3, tie_weights=False, scale_embedding=scale_embedding)
    src = _padded_source()
    torch.testing.assert_close(model(src), reference(src), atol=1e-5, rtol=0)


@pytest.mark.parametrize("norm,activation", BLOCK_VARIANTS)
@pytest.mark.parametrize("tie_weights", [True, False])
def test_encoder_decoder_equals_torch_transformer(norm, activation, tie_weights):
    model, reference = _models("encoder_decoder", norm, activation, TorchEncoderDecoderReference,
                               tie_weights=tie_weights)
    src, tgt = _padded_source(), torch.randint(5, 23, (3, 7), generator=torch.Generator().manual_seed(2))
    torch.testing.assert_close(model(src, tgt), reference(src, tgt), atol=1e-5, rtol=0)


@pytest.mark.parametrize("norm,activation", BLOCK_VARIANTS)
def test_decoder_only_equals_causal_torch_encoder_layers(norm, activation):
    model, reference = _models("decoder_only", norm, activation, TorchReference, bias=False)
    ids = torch.randint(5, 23, (2, 11), generator=torch.Generator().manual_seed(3))
    torch.testing.assert_close(model(ids), reference(ids), atol=1e-5, rtol=0)


def test_the_reference_is_sensitive_to_the_weights_it_copies():
    model, reference = _models("encoder_decoder", "pre", "gelu", TorchEncoderDecoderReference)
    with torch.no_grad():
        reference.transformer.decoder.layers[1].norm3.bias.add_(0.1)
    src, tgt = _padded_source(), torch.randint(5, 23, (3, 7))
    assert (model(src, tgt) - reference(src, tgt)).abs().max() > 1e-3
