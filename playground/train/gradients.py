"""Gradient norms per layer: the parameters grouped as embeddings, each block and the head.

A group is named from the module tree: "embeddings" (token and learned position embeddings of
every stack), "encoder.blocks.I" / "decoder.blocks.I" (one block) and "head" (everything else:
final norms and an untied output projection; a tied one is the embedding's parameter). The groups
partition the parameters, so the squares of their norms sum to the square of the total norm.
"""
from __future__ import annotations

import re

import torch
from torch import nn

_BLOCK = re.compile(r"^(encoder|decoder)\.blocks\.(\d+)\.")
_EMBEDDING = re.compile(r"^(encoder|decoder)\.embed\.")


def group_name(parameter_name: str) -> str:
    """The group of a parameter named as in ``model.named_parameters()``."""
    block = _BLOCK.match(parameter_name)
    if block:
        return f"{block.group(1)}.blocks.{block.group(2)}"
    return "embeddings" if _EMBEDDING.match(parameter_name) else "head"


def parameter_groups(model: nn.Module) -> dict[str, list[nn.Parameter]]:
    """Group name -> its trainable parameters: embeddings first, then the blocks in order, the head last."""
    groups: dict[str, list[nn.Parameter]] = {}
    for name, parameter in model.named_parameters():
        if parameter.requires_grad:
            groups.setdefault(group_name(name), []).append(parameter)
    return {name: groups[name] for name in sorted(groups, key=_order)}


def _order(name: str) -> tuple:
    """Embeddings, encoder blocks, decoder blocks, head."""
    block = _BLOCK.match(name + ".")
    if block is None:
        return (0,) if name == "embeddings" else (3,)
    return (1 if block.group(1) == "encoder" else 2, int(block.group(2)))


def group_grad_norms(groups: dict[str, list[nn.Parameter]]) -> torch.Tensor:
    """The L2 norm of each group's gradients, in the groups' order ([G], on the parameters' device;
    0 for a group without gradients)."""
    norms = []
    for parameters in groups.values():
        grads = [p.grad for p in parameters if p.grad is not None]
        norms.append(torch.nn.utils.get_total_norm(grads).float() if grads else
                     torch.zeros((), device=parameters[0].device))
    return torch.stack(norms)                                                # [G]
