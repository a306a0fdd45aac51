"""Parameter counts per component, for any config, without allocating the weights."""
from __future__ import annotations

import torch

from .config import ModelConfig
from .models import build_model

COMPONENTS = ("token_embeddings", "position_embeddings", "attention", "feed_forward", "norms", "output_head")


def _component(parameter_name: str) -> str:
    if ".embed.tokens." in f".{parameter_name}":
        return "token_embeddings"
    if ".embed.positions." in f".{parameter_name}":
        return "position_embeddings"
    if "_attn." in parameter_name:
        return "attention"
    if ".ffn." in parameter_name:
        return "feed_forward"
    if "norm" in parameter_name:
        return "norms"
    if parameter_name.startswith("head."):
        return "output_head"
    raise ValueError(f"parameter {parameter_name!r} belongs to no known component")


def parameter_table(config: ModelConfig) -> dict[str, int]:
    """Every parameter tensor's name -> element count; a tied weight appears once, under its embedding."""
    with torch.device("meta"):
        model = build_model(config)
    return {name: p.numel() for name, p in model.named_parameters()}


def count_parameters(config: ModelConfig) -> dict[str, int]:
    """Component -> parameter count (see COMPONENTS), plus "total"."""
    counts = dict.fromkeys(COMPONENTS, 0)
    for name, size in parameter_table(config).items():
        counts[_component(name)] += size
    counts["total"] = sum(counts[c] for c in COMPONENTS)
    return counts


def gpt2_small_config() -> ModelConfig:
    """GPT-2 small: 124,439,808 parameters."""
    return ModelConfig(arch="decoder_only", vocab_size=50257, d_model=768, n_heads=12, n_decoder_layers=12,
                       d_ff=3072, max_len=1024, positional="learned", norm="pre", activation="gelu_tanh",
                       tie_weights=True, scale_embedding=False, bias=True)
