"""The query, key and value projections as one matrix product, with the stacked weight kept between passes.

    [q | k | v] = x [W_q | W_k | W_v]^T + [b_q | b_k | b_v]        [B, T, D] -> [B, T, Dq + 2 Dkv]

One product over the stacked weights reads x once instead of three times. Training needs the
stacking inside the autograd graph, so it is made on every call; otherwise it is kept until a
weight changes: an in-place update (an optimizer step, a load), new parameter objects, a move or a
new dtype. A change written through `param.data` goes unseen, and so does a fused optimizer's
step, which updates parameters without counting it: `weights_changed(model)` says so. Parameters
made in inference mode keep no version counter, so their stacking is never kept. Moving a model
(`.to()`, `.cuda()`, `.half()`) drops what is kept, so no copy stays on the old device.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def _stack(layers: tuple[nn.Linear, ...]) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The layers' weights stacked along the output features, and their biases (or None)."""
    weight = torch.cat([layer.weight for layer in layers])
    bias = None if layers[0].bias is None else torch.cat([layer.bias for layer in layers])
    return weight, bias


def _versions(parameters: tuple[torch.Tensor, ...]) -> tuple[tuple[int, int], ...] | None:
    """What changes when a tensor's values do: its in-place version counter and its storage (None for
    tensors made in inference mode, which keep no version counter)."""
    if any(p.is_inference() for p in parameters):
        return None
    return tuple((p._version, p.data_ptr()) for p in parameters)


def _needs_graph(parameters: tuple[torch.Tensor, ...]) -> bool:
    return torch.is_grad_enabled() and any(p.requires_grad for p in parameters)


class StackedProjection:
    """x through several Linear layers of one input size at once; the stacked weight kept while it is valid."""

    def __init__(self):
        self._kept = None                     # (parameters, their versions, stacked weight, stacked bias or None)

    def __call__(self, x: torch.Tensor, layers: tuple[nn.Linear, ...]) -> tuple[torch.Tensor, ...]:
        """Each layer's output of x, in order.  [B, T, D] -> [B, T, out_i] each"""
        out = F.linear(x, *self._weights(layers))
        return out.split([layer.out_features for layer in layers], dim=-1)

    def _weights(self, layers: tuple[nn.Linear, ...]) -> tuple[torch.Tensor, torch.Tensor | None]:
        kept = self._kept
        if kept is not None and not _needs_graph(kept[0]) and kept[1] == _versions(kept[0]):
            return kept[2], kept[3]
        parameters = tuple(p for layer in layers for p in (layer.weight, layer.bias) if p is not None)
        versions = _versions(parameters)
        if _needs_graph(parameters) or versions is None:
            return _stack(layers)
        with torch.inference_mode(False), torch.no_grad():                   # an ordinary tensor, usable anywhere
            weight, bias = _stack(layers)
        self._kept = (parameters, versions, weight, bias)
        return weight, bias

    def forget(self) -> None:
        """Drop the kept stacking (the weights changed, moved or were replaced)."""
        self._kept = None


def weights_changed(model: nn.Module) -> None:
    """Tell every stacked projection of ``model`` that its weights changed unseen (e.g. a fused AdamW step)."""
    for module in model.modules():
        for value in vars(module).values():
            if isinstance(value, StackedProjection):
                value.forget()
