"""Small models for tests."""
import torch

from playground.model import ModelConfig, build_model

ARCHS = ("encoder_decoder", "decoder_only", "encoder_only")
POSITIONALS = ("sinusoidal", "learned", "rope", "none")


def tiny_config(arch="decoder_only", positional="sinusoidal", **overrides) -> ModelConfig:
    layers = {
        "encoder_decoder": dict(n_encoder_layers=2, n_decoder_layers=2),
        "decoder_only": dict(n_encoder_layers=0, n_decoder_layers=2),
        "encoder_only": dict(n_encoder_layers=2, n_decoder_layers=0),
    }[arch]
    fields = dict(arch=arch, vocab_size=23, d_model=32, n_heads=4, d_ff=64, max_len=32, positional=positional, **layers)
    fields.update(overrides)
    return ModelConfig(**fields)


def tiny_model(arch="decoder_only", positional="sinusoidal", seed=0, **overrides):
    torch.manual_seed(seed)
    return build_model(tiny_config(arch, positional, **overrides)).eval()


def run(model, ids, trace=None, src=None):
    """Logits of any architecture; encoder_decoder decodes `ids` against `src`."""
    if model.config.arch == "encoder_decoder":
        return model(src, ids, trace=trace)
    return model(ids, trace=trace)
