"""Direct logit attribution: what each part of a pre-norm model adds to the logit of one token.

In a pre-norm model the residual stream leaving the last block is a plain sum of what every part
wrote into it:

    x = tok_embed + pos_embed + sum over layers ( sum over heads z_h W_O[:, h]^T + b_O  +  FFN(...) )

(a decoder layer of a sequence-to-sequence model adds its cross-attention heads too). The final
LayerNorm maps x to gamma * (x - mean(x)) / sigma + beta. With sigma frozen at its value for this x,
as TransformerLens does, the norm is linear, and the logit of token t splits exactly:

    logit_t = sum over parts c of  (gamma * (c - mean(c)) / sigma) . W_U[t]   +   beta . W_U[t]

A final RMSNorm maps x to gamma * x / rms(x), rms(x) = sqrt(mean(x^2) + eps): nothing is centred and
there is no beta, so with rms frozen each part's share is (gamma * c / rms) . W_U[t].

So a head's share is its output through the frozen norm and the unembedding. The shares say what
each part adds directly; a head whose output matters only through later layers shows little here
(activation patching sees it).

A post-norm model ends every block with a LayerNorm of the whole stream, which rescales everything
written before it together: the parts cannot be told apart, and the view refuses such a model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
from torch import nn

from playground.model import Trace
from playground.model.blocks import RMSNorm

from .logit_lens import read_stack

KINDS = ("embedding", "positions", "head", "attention_bias", "mlp", "norm_bias")


@dataclass(frozen=True)
class Component:
    """One part's share of the logit. kind: one of KINDS; sublayer: "self_attn" / "cross_attn" for heads
    and attention biases, else None."""

    name: str                    # e.g. "decoder.1.self_attn.head0", "decoder.0.ffn", "decoder.final_norm.bias"
    kind: str
    layer: int | None
    head: int | None
    sublayer: str | None
    value: float


@dataclass
class LogitAttribution:
    token: int                   # the token whose logit is split
    position: int                # where it is predicted (an index into the input)
    logit: float                 # the model's own logit of the token there
    scale: float                 # 1 / sigma (1 / rms for RMSNorm): the final norm's frozen scale
    components: list[Component]

    @property
    def total(self) -> float:
        """The sum of every part's share: the logit, up to rounding."""
        return float(sum(c.value for c in self.components))

    def values(self) -> np.ndarray:
        return np.array([c.value for c in self.components])


def _check(model: nn.Module, ids: Sequence[int], source: Sequence[int] | None, position: int) -> None:
    config = model.config
    if config.norm != "pre":
        raise ValueError("direct logit attribution splits the residual stream of a pre-norm model; in this post-norm "
                         "model every block ends with a LayerNorm that rescales the sum of everything written before "
                         "it, so the parts' shares cannot be told apart (activation patching still works)")
    if model.training and config.dropout > 0:
        raise ValueError("dropout is on (the model is in training mode); call model.eval() first")
    if len(ids) == 0:
        raise ValueError("the input is empty; give at least one token id")
    if model.has_encoder and model.has_decoder and not source:
        raise ValueError("a sequence-to-sequence model needs the source its encoder reads")
    if not -len(ids) <= position < len(ids):
        raise ValueError(f"position {position} is outside the input's {len(ids)} tokens")


@torch.no_grad()
def logit_attribution(model: nn.Module, ids: Sequence[int], position: int = -1, token: int | None = None,
                      source: Sequence[int] | None = None) -> LogitAttribution:
    """Each part's share of the logit of `token` (default: the top token) at `position` of the input `ids`
    (the decoder's input; `source` is what the encoder of a sequence-to-sequence model reads)."""
    _check(model, ids, source, position)
    stack = read_stack(model)
    last = len(stack.blocks) - 1
    trace = Trace(include=(f"{stack.name}.tok_embed", f"{stack.name}.pos_embed", f"{stack.name}.*.z",
                           f"{stack.name}.*.ffn.out", f"{stack.name}.{last}.resid_post", "logits"))
    memory = model.encode(torch.tensor([list(source)]), trace) if source else None
    model.decode(torch.tensor([list(ids)]), memory, None, trace)
    position = position % len(ids)
    logits = trace["logits"][0, position]                                    # [V]
    token = int(logits.argmax()) if token is None else token
    if isinstance(token, bool) or not isinstance(token, int) or not 0 <= token < logits.numel():
        raise ValueError(f"token must be an id of the model's vocabulary (0..{logits.numel() - 1}), got {token!r}")
    if model.config.never_predict and bool(model.never_predict[token]):
        raise ValueError(f"the model never predicts token {token}: its logit is fixed, not computed")

    parts = _parts(stack, trace, position)                                   # (name, kind, layer, head, sublayer, [D])
    stream = trace[f"{stack.name}.{last}.resid_post"][0, position].double()  # [D]
    written = sum(vector for *_, vector in parts)
    if not torch.allclose(written, stream, atol=1e-4 * (1 + float(stream.abs().max()))):
        raise ValueError("the parts do not add up to the residual stream (a component of this model was swapped "
                         "for another); direct logit attribution needs the reference residual connections")
    norm = stack.final_norm
    centred = not isinstance(norm, RMSNorm)                                 # RMSNorm subtracts no mean
    spread = stream.var(unbiased=False) if centred else stream.pow(2).mean()
    sigma = torch.sqrt(spread + norm.eps)
    unembed = model.head.weight[token].double()                             # [D]
    gamma = norm.weight.double() if norm.weight is not None else torch.ones_like(unembed)
    direction = gamma * unembed / sigma                                      # [D]
    components = [Component(name, kind, layer, head, sublayer,
                            float(((vector - vector.mean()) if centred else vector) @ direction))
                  for name, kind, layer, head, sublayer, vector in parts]
    if norm.bias is not None:
        components.append(Component(f"{stack.name}.final_norm.bias", "norm_bias", None, None, None,
                                    float(norm.bias.double() @ unembed)))
    return LogitAttribution(token, position, float(logits[token]), float(1 / sigma), components)


def _parts(stack: nn.Module, trace: Trace, position: int) -> list[tuple]:
    """What each part wrote into the residual stream at `position`, in float64 [D], in forward order."""
    name = stack.name
    parts = [(f"{name}.tok_embed", "embedding", None, None, None, trace[f"{name}.tok_embed"][0, position].double())]
    if f"{name}.pos_embed" in trace:
        parts.append((f"{name}.pos_embed", "positions", None, None, None,
                      trace[f"{name}.pos_embed"][position].double()))
    for layer, block in enumerate(stack.blocks):
        for sublayer in ("self_attn", "cross_attn"):
            attention = getattr(block, sublayer, None)
            if attention is None:
                continue
            z = trace[f"{name}.{layer}.{sublayer}.z"][0, position].double()  # [H, Dh]
            w_o = attention.w_o.weight.double()                               # [D, H*Dh]
            head_dim = z.size(-1)
            for head in range(z.size(0)):
                out = w_o[:, head * head_dim:(head + 1) * head_dim] @ z[head]   # [D]
                parts.append((f"{name}.{layer}.{sublayer}.head{head}", "head", layer, head, sublayer, out))
            if attention.w_o.bias is not None:
                parts.append((f"{name}.{layer}.{sublayer}.bias", "attention_bias", layer, None, sublayer,
                              attention.w_o.bias.double()))
        ffn_out = trace[f"{name}.{layer}.ffn.out"][0, position].double()    # [D], the second bias included
        parts.append((f"{name}.{layer}.ffn", "mlp", layer, None, None, ffn_out))
    return parts
