"""Reading a model: per-head attention scores, shapes through a forward pass, cost per token."""
from .cost import (
    FLOP_COMPONENTS, MEMORY_COMPONENTS, activation_memory_per_token, flops_per_token, kv_cache_per_token,
)
from .head_scores import CROSS_SCORES, SELF_SCORES, head_scores
from .shapes import ShapeRow, shape_walkthrough

__all__ = [
    "CROSS_SCORES", "FLOP_COMPONENTS", "MEMORY_COMPONENTS", "SELF_SCORES", "ShapeRow",
    "activation_memory_per_token", "flops_per_token", "head_scores", "kv_cache_per_token", "shape_walkthrough",
]
