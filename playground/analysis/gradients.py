"""The gradient each layer of a model gets from one batch: its L2 norm, block by block.

Pre-norm and post-norm stacks of the same depth and the same initial weights get very different
gradients at initialisation (Xiong et al., 2020, "On Layer Normalization in the Transformer
Architecture"): a post-norm stack's last blocks get the largest, which is why it needs a
learning-rate warm-up; a pre-norm stack's are smaller near the output and even across depth.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from playground.model.blocks import DecoderBlock, EncoderBlock


def _groups(model: nn.Module) -> list[tuple[str, list[nn.Parameter]]]:
    """(name, parameters) of the embedding, each block in order, and the output head with the final norm."""
    blocks = [m for m in model.modules() if isinstance(m, (EncoderBlock, DecoderBlock))]
    in_blocks = {id(p) for block in blocks for p in block.parameters()}
    groups = [("embedding", [p for name, p in model.named_parameters()
                             if id(p) not in in_blocks and ".embed." in f".{name}"])]
    groups += [(block.name, list(block.parameters())) for block in blocks]
    grouped = {id(p) for _, params in groups for p in params}
    groups.append(("output", [p for p in model.parameters() if id(p) not in grouped]))
    return [(name, params) for name, params in groups if params]


def layer_gradient_norms(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor) -> dict[str, float]:
    """Group name -> L2 norm of the gradient of the mean next-token cross-entropy of a decoder-only
    `model` on `inputs` [B, T] (targets [B, T]) over that group's parameters, in forward order
    ("embedding", each block by its trace name, "output"). The model's gradients are cleared after;
    gradients are on for this pass even when the caller runs without them."""
    if model.has_encoder:
        raise ValueError("layer_gradient_norms runs a decoder-only model; give one with arch='decoder_only'")
    if inputs.shape != targets.shape or inputs.dim() != 2:
        raise ValueError(f"inputs and targets must both be [B, T] of one shape, got {tuple(inputs.shape)} "
                         f"and {tuple(targets.shape)}")
    model.zero_grad(set_to_none=True)
    model.train()
    with torch.inference_mode(False), torch.enable_grad():
        logits = model(inputs.clone())                                        # [B, T, V]
        F.cross_entropy(logits.flatten(0, 1), targets.clone().flatten()).backward()
    norms = {}
    for name, params in _groups(model):
        squares = [p.grad.double().pow(2).sum() for p in params if p.grad is not None]
        norms[name] = float(torch.stack(squares).sum().sqrt()) if squares else 0.0
    model.zero_grad(set_to_none=True)
    model.eval()
    return norms
