"""Switching heads off: a view of a model in which chosen attention heads contribute nothing.

A head's output is its slice [B, T, Dh] of the attention output before the heads are merged and
projected by W_o: the hook point `STACK.{i}.ATTN.z` [B, T, H, Dh]. Switching it off replaces that slice

    zero: by 0, so W_o receives nothing from the head;
    mean: by its mean over the positions of the pass (every position gets the same vector, so
          the head still adds its average, but nothing that depends on where it looked).

The reference code has no switch for this: the intervention is a hook at the chosen layers' `z`
points. It never changes the model it is given: `heads_off` returns a view that shares every
parameter with the model and has its own copy of the modules on the way to each changed hook
point, whose copy carries the hook, so a model shared between users stays as it is while one of
them experiments.

Mean ablation averages over the positions of one call: decode without a KV cache (the whole
sequence at each step) for the mean to cover the whole input.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable, Iterable

import torch
from torch import nn

from .attention import MultiHeadAttention
from .hooks import HookPoint
from .sites import AttentionSite

ABLATIONS = ("zero", "mean")


@dataclass(frozen=True)
class Head:
    """One attention head: its site, layer and index."""

    site: AttentionSite
    layer: int
    head: int


def ablate_heads(z: torch.Tensor, heads: list[int], how: str) -> torch.Tensor:
    """Per-head outputs z [B, T, H, Dh] with `heads` replaced by zero or by their mean over T."""
    out = z.clone()
    if how == "zero":
        out[:, :, heads] = 0.0
    else:
        out[:, :, heads] = z[:, :, heads].mean(dim=1, keepdim=True)          # [B, 1, h, Dh] -> every position
    return out


def _heads_off_hook(heads: list[int], how: str) -> Callable[[torch.Tensor, str], torch.Tensor]:
    def switch_heads_off(z: torch.Tensor, name: str) -> torch.Tensor:         # [B, T, H, Dh]
        return ablate_heads(z, heads, how)
    return switch_heads_off


def _attention_layers(model: nn.Module) -> dict[str, tuple[str, MultiHeadAttention]]:
    """Layer name ("decoder.1.cross_attn") -> (module path in the model, the module)."""
    return {m.name: (path, m) for path, m in model.named_modules() if isinstance(m, MultiHeadAttention)}


def _check(model: nn.Module, heads: list[Head], how: str, layers: dict) -> None:
    if how not in ABLATIONS:
        raise ValueError(f"a head is switched off by one of {ABLATIONS}, got {how!r}")
    sites = model.sites()
    for h in heads:
        if not isinstance(h, Head):
            raise TypeError(f"heads must be Head(site, layer, head) values, got {type(h).__name__}")
        if h.site not in sites:
            raise ValueError(f"this model has no {h.site.name}; its attention sites are {[s.name for s in sites]}")
        name = h.site.layer_name(h.layer)
        if name not in layers:
            n_layers = sum(1 for n in layers if n.startswith(f"{h.site.stack}.") and n.endswith(h.site.sublayer))
            raise ValueError(f"{h.site.name} has layers 0..{n_layers - 1}, got layer {h.layer}")
        n_heads = layers[name][1].n_heads
        if not 0 <= h.head < n_heads:
            raise ValueError(f"{name} has heads 0..{n_heads - 1}, got head {h.head}")


def _copy_along(module: nn.Module, path: list[str], replace: Callable) -> nn.Module:
    """A shallow copy of `module` whose descendant at `path` (submodules, then the attribute named last) is
    `replace`d; every other child is shared."""
    clone = copy.copy(module)
    clone._modules = dict(module._modules)
    if len(path) == 1:
        setattr(clone, path[0], replace(getattr(module, path[0])))
    else:
        clone._modules[path[0]] = _copy_along(module._modules[path[0]], path[1:], replace)
    return clone


def heads_off(model: nn.Module, heads: Iterable[Head], how: str = "zero") -> nn.Module:
    """`model` with `heads` switched off ("zero" or "mean"); the model itself is left unchanged.

    The result shares the model's parameters, so it costs a few module objects, not a copy of
    the weights; it answers the same interface (encode, decode, sites).
    """
    heads = list(heads)
    layers = _attention_layers(model)
    _check(model, heads, how, layers)
    by_layer: dict[str, list[int]] = {}
    for h in heads:
        by_layer.setdefault(h.site.layer_name(h.layer), []).append(h.head)
    view = model
    for name, indices in by_layer.items():
        def replace(point: HookPoint, indices=sorted(set(indices))) -> HookPoint:
            return point.with_hook(_heads_off_hook(indices, how))
        view = _copy_along(view, f"{layers[name][0]}.hook_z".split("."), replace)
    return view
