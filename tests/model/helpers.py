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


def randomize_parameters(model, seed=0, std=0.2):
    """Every parameter (biases and LayerNorm weights included) drawn from N(0, std^2): nothing keeps
    the value a fresh model starts with (zero biases, unit norms), so a weight that is skipped shows."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * std)
    return model
