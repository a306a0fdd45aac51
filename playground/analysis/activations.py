"""ReLU against GELU in a feed-forward layer: the two functions, their slopes, and the units that a
ReLU leaves dead on a text.

A unit of FFN(x) = W2 act(W1 x + b1) + b2 whose input W1 x + b1 is negative at every position of a
text outputs exactly 0 under ReLU and passes no gradient back (ReLU's slope is 0 there): on that
text it is dead. GELU(z) = z Φ(z) is small but not zero for a negative z, and so is its slope, so
the same unit still moves.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from playground.model import ModelConfig, Trace, build_model
from playground.model.blocks import DecoderBlock, EncoderBlock

CURVE_POINTS = 201


def gelu(z: np.ndarray) -> np.ndarray:
    """GELU(z) = z Φ(z), Φ the standard normal CDF (the exact form, not the tanh approximation)."""
    return z * 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))


def gelu_slope(z: np.ndarray) -> np.ndarray:
    """d GELU / dz = Φ(z) + z φ(z)."""
    pdf = np.exp(-z ** 2 / 2) / math.sqrt(2 * math.pi)
    return 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2))) + z * pdf


def relu(z: np.ndarray) -> np.ndarray:
    return np.maximum(z, 0.0)


def relu_slope(z: np.ndarray) -> np.ndarray:
    return (z > 0).astype(np.float64)


@dataclass(frozen=True)
class DeadUnits:
    """The feed-forward inputs W1 x + b1 of one block on a text.

    block: the block's trace name; units: d_ff; positions: tokens read.
    largest: [F] each unit's largest input over the text; dead: units whose largest input is <= 0
    (ReLU would give them output 0 and slope 0 at every position); gelu_output_floor: the most
    negative GELU output among the dead units' inputs (what GELU passes on where ReLU passes 0);
    gelu_slope_mean: the mean GELU slope over the dead units' inputs (ReLU's is 0).
    """

    block: str
    units: int
    positions: int
    largest: np.ndarray
    dead: int
    gelu_output_floor: float
    gelu_slope_mean: float


def _blocks(model: nn.Module) -> list[nn.Module]:
    return [m for m in model.modules() if isinstance(m, (EncoderBlock, DecoderBlock))]


@torch.no_grad()
def ffn_inputs(model: nn.Module, block: nn.Module, trace: Trace) -> torch.Tensor:
    """W1 x + b1 of `block`'s feed-forward at every position of the traced pass [T, F] (the first
    sequence of the batch), computed from the residual stream the trace recorded."""
    name = block.name
    before = f"{name}.resid_cross" if f"{name}.resid_cross" in trace else f"{name}.resid_mid"
    x = trace[before][0]                                                     # [T, D]
    if block.pre_norm:
        x = block.norm_ffn(x)
    return block.ffn.w_in(x)                                                 # [T, F]


@torch.no_grad()
def dead_units(model: nn.Module, ids: list[int], layer: int = 0) -> DeadUnits:
    """The units of block `layer` of a decoder-only (or encoder-only) model that ReLU would leave
    dead on the text `ids` (see DeadUnits)."""
    blocks = _blocks(model)
    if not 0 <= layer < len(blocks):
        raise ValueError(f"layer must be in 0..{len(blocks) - 1}, got {layer}")
    if model.has_encoder and model.has_decoder:
        raise ValueError("dead_units reads one stack: give a decoder-only or an encoder-only model")
    if len(ids) < 2:
        raise ValueError("give a text of at least two tokens")
    block = blocks[layer]
    trace = Trace(include=(f"{block.name}.resid_mid", f"{block.name}.resid_cross"))
    model.eval()
    model(torch.tensor([ids]), trace=trace)
    z = ffn_inputs(model, block, trace).double()                            # [T, F]
    largest = z.max(dim=0).values                                           # [F]
    dead = largest <= 0
    dead_inputs = z[:, dead].flatten()
    floor = float(F.gelu(dead_inputs).min()) if dead_inputs.numel() else 0.0
    slope = float(gelu_slope(dead_inputs.numpy()).mean()) if dead_inputs.numel() else 0.0
    return DeadUnits(block.name, z.size(1), z.size(0), largest.numpy(), int(dead.sum()), floor, slope)


def curves(low: float = -4.0, high: float = 4.0) -> dict[str, np.ndarray]:
    """The two activations and their slopes on CURVE_POINTS points from `low` to `high`."""
    z = np.linspace(low, high, CURVE_POINTS)
    return {"z": z, "relu": relu(z), "gelu": gelu(z), "relu_slope": relu_slope(z), "gelu_slope": gelu_slope(z)}


@dataclass(frozen=True)
class DeadUnitRun:
    """A small decoder trained briefly with one activation: its final training loss and, over every
    feed-forward unit of every block, each unit's largest input on a probe text; dead: how many are
    <= 0 there (for ReLU: output 0 and no gradient at every position)."""

    activation: str
    loss: float
    largest: np.ndarray
    dead: int


def dead_units_after_training(activation: str, ids: torch.Tensor, steps: int = 40, lr: float = 5e-2, seed: int = 0,
                              width: int = 32, layers: int = 2, batch: int = 4, block: int = 32) -> DeadUnitRun:
    """Train a `layers`-block decoder of width `width` (d_ff = 4 x width, byte vocabulary) with `activation`
    for `steps` AdamW steps at learning rate `lr` on random windows of `ids` [N] (byte ids), from the
    seed `seed`, then read every feed-forward unit's largest input over the whole of `ids`, window by
    window of `block` ids. Gradients are on for the training even when the caller runs without them."""
    if ids.dim() != 1 or ids.numel() <= block + 1:
        raise ValueError(f"ids must be one sequence of more than {block + 1} byte ids")
    with torch.inference_mode(False), torch.enable_grad():
        return _train_and_read(activation, ids.clone(), steps, lr, seed, width, layers, batch, block)


def _train_and_read(activation: str, ids: torch.Tensor, steps: int, lr: float, seed: int, width: int, layers: int,
                    batch: int, block: int) -> DeadUnitRun:
    torch.manual_seed(seed)
    config = ModelConfig(arch="decoder_only", vocab_size=256, d_model=width, n_heads=4, n_decoder_layers=layers,
                         d_ff=4 * width, max_len=block, tie_weights=False, activation=activation)
    model = build_model(config)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)
    loss = torch.tensor(float("nan"))
    for _ in range(steps):
        starts = torch.randint(0, ids.numel() - block - 1, (batch,), generator=generator)
        windows = torch.stack([ids[s:s + block + 1] for s in starts.tolist()])          # [B, block + 1]
        logits = model(windows[:, :-1])                                                  # [B, block, V]
        loss = F.cross_entropy(logits.flatten(0, 1), windows[:, 1:].flatten())
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
    windows = [ids[start:start + block].tolist() for start in range(0, ids.numel() - 1, block)]
    windows = [window for window in windows if len(window) >= 2]
    largest = np.concatenate([np.max([dead_units(model, window, layer).largest for window in windows], axis=0)
                              for layer in range(layers)])                          # [layers * d_ff]
    return DeadUnitRun(activation, loss.item(), largest, int((largest <= 0).sum()))
