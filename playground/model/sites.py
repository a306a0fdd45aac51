"""Attention sites: the places where a model attends, named once for every part of the app.

A site is a (stack, sublayer) pair. Its layers' activations are recorded in a Trace under
`STACK.{layer}.SUBLAYER.PART` (see trace.py), so a site knows its trace keys and patterns; its
short `id` ("encoder", "decoder", "cross") names it in the UI, in links and in head scores.

    ENCODER_SELF  encoder self-attention     queries and keys: the source (bidirectional)
    DECODER_SELF  decoder self-attention     queries and keys: the target (causal)
    CROSS         decoder cross-attention    queries: the target, keys: the source
"""
from __future__ import annotations

from dataclasses import dataclass

STACKS = ("encoder", "decoder")
SUBLAYERS = ("self_attn", "cross_attn")


@dataclass(frozen=True)
class AttentionSite:
    """One kind of attention sub-layer of a model: its stack and its sub-layer."""

    stack: str
    sublayer: str

    def __post_init__(self) -> None:
        if self.stack not in STACKS or self.sublayer not in SUBLAYERS:
            raise ValueError(f"an attention site is a stack in {STACKS} and a sub-layer in {SUBLAYERS}, "
                             f"got {self.stack!r}, {self.sublayer!r}")
        if self.stack == "encoder" and self.sublayer == "cross_attn":
            raise ValueError("the encoder has no cross-attention")

    @property
    def id(self) -> str:
        """"encoder", "decoder" or "cross": the name used in the UI, links and score tables."""
        return "cross" if self.is_cross else self.stack

    @property
    def name(self) -> str:
        """"encoder.self_attn", "decoder.self_attn" or "decoder.cross_attn"."""
        return f"{self.stack}.{self.sublayer}"

    @property
    def is_cross(self) -> bool:
        return self.sublayer == "cross_attn"

    @property
    def causal(self) -> bool:
        """Whether a query may only see keys at or before its own position."""
        return self.stack == "decoder" and not self.is_cross

    @property
    def query_side(self) -> str:
        """"source" (the encoder's input) or "target" (the decoder's input)."""
        return "source" if self.stack == "encoder" else "target"

    @property
    def key_side(self) -> str:
        return "source" if self.stack == "encoder" or self.is_cross else "target"

    def layer_name(self, layer: int) -> str:
        """The name of one layer's attention module, e.g. "decoder.1.cross_attn"."""
        return f"{self.stack}.{layer}.{self.sublayer}"

    def key(self, layer: int, part: str = "weights") -> str:
        """The trace name of one layer's activation, e.g. "decoder.1.cross_attn.weights"."""
        return f"{self.layer_name(layer)}.{part}"

    def pattern(self, part: str = "weights") -> str:
        """A Trace pattern matching `part` in every layer of the site."""
        return f"{self.stack}.*.{self.sublayer}.{part}"

    @classmethod
    def from_key(cls, name: str) -> tuple["AttentionSite", int, str] | None:
        """(site, layer, part) of an attention trace name, e.g. "decoder.1.cross_attn.weights" ->
        (CROSS, 1, "weights"); None for any other name."""
        parts = name.split(".", 3)
        if len(parts) < 4 or not parts[1].isdigit():
            return None
        for site in SITES:
            if (site.stack, site.sublayer) == (parts[0], parts[2]):
                return site, int(parts[1]), parts[3]
        return None

    @classmethod
    def parse(cls, value: str) -> "AttentionSite":
        """The site named by its id ("cross") or its name ("decoder.cross_attn")."""
        for site in SITES:
            if value in (site.id, site.name):
                return site
        raise ValueError(f"{value!r} is not an attention site; use one of "
                         f"{[s.id for s in SITES]} or {[s.name for s in SITES]}")


ENCODER_SELF = AttentionSite("encoder", "self_attn")
DECODER_SELF = AttentionSite("decoder", "self_attn")
CROSS = AttentionSite("decoder", "cross_attn")
SITES = (ENCODER_SELF, DECODER_SELF, CROSS)
