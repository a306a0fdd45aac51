"""How the initial weights of a linear layer scale a signal: N(0, 0.02) (GPT-2, this app's models)
against Xavier (Glorot & Bengio, 2010).

y = W x with W of shape [D, D] and entries of standard deviation s multiplies the size of x by
about s * sqrt(D). Xavier chooses s = sqrt(2 / (fan_in + fan_out)) = 1 / sqrt(D) for a square
layer, so the size stays; N(0, 0.02) gives 0.02 * sqrt(D): 0.16 at D = 64, 0.55 at D = 768, and
a plain stack of such layers shrinks the signal geometrically. A Transformer is no plain stack: each
sub-layer adds to the residual stream and LayerNorm rescales what it reads, which is why GPT-2's
small N(0, 0.02) trains.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

SCHEMES = ("normal_0.02", "xavier")
SIGNAL_ROWS = 256


def init_linear(layer: nn.Linear, scheme: str, generator: torch.Generator) -> None:
    """Draw `layer`'s weight by `scheme` ("normal_0.02" or "xavier" uniform); bias 0."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    with torch.no_grad():
        if scheme == "normal_0.02":
            layer.weight.normal_(0.0, 0.02, generator=generator)
        else:
            fan_out, fan_in = layer.weight.shape
            bound = (6.0 / (fan_in + fan_out)) ** 0.5                      # std = sqrt(2 / (fan_in + fan_out))
            layer.weight.uniform_(-bound, bound, generator=generator)
        if layer.bias is not None:
            layer.bias.zero_()


@dataclass(frozen=True)
class SignalSizes:
    """std: scheme -> the standard deviation of the signal at the input (entry 0) and after each layer."""

    width: int
    layers: int
    std: dict[str, list[float]]

    def per_layer_gain(self, scheme: str) -> float:
        """The factor the signal's size changes by per layer, on average (geometric mean)."""
        sizes = self.std[scheme]
        return (sizes[-1] / sizes[0]) ** (1 / self.layers)


@torch.no_grad()
def signal_through_linear_stack(width: int, layers: int, seed: int = 0) -> SignalSizes:
    """A [SIGNAL_ROWS, width] input of unit variance through `layers` square linear layers with no
    activation, no residual and no norm, once per scheme, each on the same input and seed."""
    if width < 2 or layers < 1:
        raise ValueError(f"width must be >= 2 and layers >= 1, got width={width}, layers={layers}")
    x0 = torch.randn(SIGNAL_ROWS, width, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    sizes = {}
    for scheme in SCHEMES:
        generator = torch.Generator().manual_seed(seed + 1)
        x, stds = x0, [float(x0.std())]
        for _ in range(layers):
            layer = nn.Linear(width, width, dtype=torch.float64)
            init_linear(layer, scheme, generator)
            x = layer(x)
            stds.append(float(x.std()))
        sizes[scheme] = stds
    return SignalSizes(width, layers, sizes)
