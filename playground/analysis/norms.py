"""LayerNorm by hand, LayerNorm against BatchNorm, and the size of the residual stream.

    LayerNorm(x) = gamma * (x - mean(x)) / sqrt(var(x) + eps) + beta

with the mean and the (biased, divide-by-D) variance taken over the D features of ONE token.
BatchNorm takes them over the batch instead: one mean and variance per feature, across tokens.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from playground.model import Trace


@dataclass(frozen=True)
class LayerNormSteps:
    """Every step of LayerNorm on one vector x [D], in float64."""

    x: torch.Tensor              # [D]
    mean: float
    variance: float              # biased: mean of (x - mean)^2
    eps: float
    normalised: torch.Tensor     # [D] (x - mean) / sqrt(variance + eps)
    gamma: torch.Tensor          # [D]
    beta: torch.Tensor           # [D]
    output: torch.Tensor         # [D] gamma * normalised + beta


def layer_norm_steps(x: torch.Tensor, norm: nn.LayerNorm) -> LayerNormSteps:
    """LayerNorm of one vector x [D] with `norm`'s own gamma, beta and eps, step by step."""
    x = x.double()
    mean = x.mean()
    variance = ((x - mean) ** 2).mean()
    normalised = (x - mean) / torch.sqrt(variance + norm.eps)
    gamma = norm.weight.detach().double()
    beta = torch.zeros_like(gamma) if norm.bias is None else norm.bias.detach().double()
    return LayerNormSteps(x, float(mean), float(variance), norm.eps, normalised, gamma, beta, gamma * normalised + beta)


def first_norm_input(model: nn.Module, trace: Trace, layer: int) -> tuple[torch.Tensor, nn.LayerNorm, str]:
    """What the first LayerNorm of block `layer` of the model's first stack reads: ([T, D], the norm, its name).

    Pre-norm: the residual stream entering the block. Post-norm: the stream plus the self-attention's output.
    """
    stack_name = "encoder" if model.has_encoder else "decoder"
    block = getattr(model, stack_name).blocks[layer]
    x = trace[f"{stack_name}.{layer}.resid_pre"][0]                          # [T, D]
    if not block.pre_norm:
        x = x + trace[f"{stack_name}.{layer}.self_attn.out"][0]
    return x, block.norm_self, f"{stack_name}.blocks.{layer}.norm_self"


@dataclass(frozen=True)
class BatchAndLayerNorm:
    """One small batch x [N, D] normalised both ways (no gamma/beta), with the statistics of each."""

    x: torch.Tensor              # [N, D]
    layer_mean: torch.Tensor     # [N]  one per token (row)
    layer_var: torch.Tensor      # [N]
    layer_out: torch.Tensor      # [N, D]
    batch_mean: torch.Tensor     # [D]  one per feature (column)
    batch_var: torch.Tensor      # [D]
    batch_out: torch.Tensor      # [N, D]


def batch_vs_layer(x: torch.Tensor, eps: float = 1e-5) -> BatchAndLayerNorm:
    """Normalise x [N, D] over each row (LayerNorm) and over each column (BatchNorm, training statistics)."""
    x = x.double()
    layer_mean, layer_var = x.mean(dim=1), x.var(dim=1, unbiased=False)     # [N]
    batch_mean, batch_var = x.mean(dim=0), x.var(dim=0, unbiased=False)     # [D]
    layer_out = (x - layer_mean[:, None]) / torch.sqrt(layer_var[:, None] + eps)
    batch_out = (x - batch_mean) / torch.sqrt(batch_var + eps)
    return BatchAndLayerNorm(x, layer_mean, layer_var, layer_out, batch_mean, batch_var, batch_out)


def residual_norms(model: nn.Module, trace: Trace) -> dict[str, torch.Tensor]:
    """The L2 norm of the residual stream at every token, after the embedding, after each block of
    each stack, and after the final LayerNorm where there is one: trace name -> norms [T]."""
    names = []
    for stack in ("encoder", "decoder"):
        if f"{stack}.0.resid_pre" not in trace:
            continue
        names.append(f"{stack}.0.resid_pre")
        layer = 0
        while f"{stack}.{layer}.resid_post" in trace:
            names.append(f"{stack}.{layer}.resid_post")
            layer += 1
        if isinstance(getattr(model, stack).final_norm, nn.LayerNorm):
            names.append(f"{stack}.final_norm")
    return {name: trace[name][0].double().norm(dim=-1) for name in names}
