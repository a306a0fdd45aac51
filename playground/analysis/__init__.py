"""Reading a model: per-head attention scores, induction heads, shapes through a forward pass, cost per token."""
from .cost import (
    FLOP_COMPONENTS, MEMORY_COMPONENTS, activation_memory_per_token, flops_per_token, kv_cache_per_token,
)
from .head_scores import CROSS_SCORES, INDUCTION_THRESHOLD, SELF_SCORES, head_scores, induction_heads
from .induction import InductionVerdict, RepeatMeasurement, induction_verdict, measure_repeats
from .shapes import ShapeRow, shape_walkthrough

__all__ = [
    "CROSS_SCORES", "FLOP_COMPONENTS", "INDUCTION_THRESHOLD", "InductionVerdict", "MEMORY_COMPONENTS",
    "RepeatMeasurement", "SELF_SCORES", "ShapeRow", "activation_memory_per_token", "flops_per_token", "head_scores",
    "induction_heads", "induction_verdict", "kv_cache_per_token", "measure_repeats", "shape_walkthrough",
]
