"""Tiny seeded models and a tokenizer for generation tests."""
import torch

from playground.data import EOS_ID, CharTokenizer
from playground.data.tokenizer import NUM_SPECIAL
from playground.model import DecoderOnly, ModelConfig, build_model

TOKENIZER = CharTokenizer("abcdefghijklmnopq ")           # 18 characters + 5 special = 23 ids


def config(arch="decoder_only", positional="sinusoidal", **overrides) -> ModelConfig:
    layers = dict(n_encoder_layers=2, n_decoder_layers=2) if arch == "encoder_decoder" else dict(n_decoder_layers=2)
    fields = dict(arch=arch, vocab_size=TOKENIZER.vocab_size, d_model=32, n_heads=4, d_ff=64, max_len=32,
                  positional=positional, tie_weights=False, **layers)
    fields.update(overrides)
    return ModelConfig(**fields)


def _peaked(built, sharpness: float):
    """Scale the output head by `sharpness` and give it a bias of -100 on the special ids, so the
    distributions are peaked but varied and never pick a special token."""
    head = torch.nn.Linear(built.config.d_model, built.config.target_vocab_size)
    with torch.no_grad():
        head.weight.copy_(built.head.weight * sharpness)
        head.bias.zero_()
        head.bias[:NUM_SPECIAL] = -100.0
    built.head = head
    return built.eval()


def model(arch="decoder_only", positional="sinusoidal", seed=0, sharpness=40.0, **overrides):
    torch.manual_seed(seed)
    return _peaked(build_model(config(arch, positional, **overrides)), sharpness)


class EosAt(DecoderOnly):
    """A decoder-only model that predicts eos once the sequence has `length` tokens."""

    def __init__(self, cfg: ModelConfig, length: int):
        super().__init__(cfg)
        self.length = length

    def decode(self, ids, memory=None, cache=None, trace=None, last_only=False):
        offset = cache.length if cache is not None else 0
        logits = super().decode(ids, memory, cache, trace)                           # [B, T, V]
        seen = offset + torch.arange(1, ids.size(1) + 1)                             # tokens read at each position
        boost = torch.zeros_like(logits)
        boost[:, seen >= self.length, EOS_ID] = 200.0
        return (logits + boost)[:, -1:] if last_only else logits + boost


def eos_model(length: int, seed=0, sharpness=40.0) -> EosAt:
    torch.manual_seed(seed)
    return _peaked(EosAt(config(), length), sharpness)
