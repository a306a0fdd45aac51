"""Reading a model: per-head attention scores, induction heads, shapes through a forward pass, cost per
token, what switching heads off changes, and the logit lens."""
from .cost import (
    FLOP_COMPONENTS, MEMORY_COMPONENTS, activation_memory_per_token, flops_per_token, kv_cache_per_token,
)
from .head_scores import CROSS_SCORES, INDUCTION_THRESHOLD, SELF_SCORES, head_scores, induction_heads
from .induction import InductionVerdict, RepeatMeasurement, induction_verdict, measure_repeats
from .interventions import (
    ExactMatchChange, GenerationChange, NextTokenChange, exact_match_change, generation_change, kl_divergence,
    next_token_change,
)
from .logit_lens import LogitLens, logit_lens
from .shapes import ShapeRow, shape_walkthrough

__all__ = [
    "CROSS_SCORES", "FLOP_COMPONENTS", "INDUCTION_THRESHOLD", "InductionVerdict", "MEMORY_COMPONENTS",
    "RepeatMeasurement", "SELF_SCORES", "ExactMatchChange", "GenerationChange", "LogitLens", "NextTokenChange",
    "ShapeRow", "activation_memory_per_token", "exact_match_change", "flops_per_token", "generation_change",
    "head_scores", "induction_heads", "induction_verdict", "kl_divergence", "kv_cache_per_token", "logit_lens",
    "measure_repeats", "next_token_change", "shape_walkthrough",
]
