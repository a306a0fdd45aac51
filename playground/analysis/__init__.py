"""Reading a model: per-head attention scores, induction heads, shapes through a forward pass, cost per
token, what switching heads off changes, the logit lens, activation patching, direct logit attribution,
linear probes, and the guess-the-next-character game."""
from .attribution import Component, LogitAttribution, logit_attribution
from .cost import (
    FLOP_COMPONENTS, MEMORY_COMPONENTS, activation_memory_per_token, flops_per_token, kv_cache_per_token,
)
from .guessing import GuessingGame, ModelGuess, Round, Score, held_out_text, model_guess
from .head_scores import CROSS_SCORES, INDUCTION_THRESHOLD, SELF_SCORES, head_scores, induction_heads
from .induction import InductionVerdict, RepeatMeasurement, induction_verdict, measure_repeats
from .interventions import (
    ExactMatchChange, GenerationChange, NextTokenChange, exact_match_change, generation_change, kl_divergence,
    next_token_change,
)
from .logit_lens import LogitLens, logit_lens
from .patching import (
    MIN_SPREAD, HeadPatching, Patch, PatchingPair, PatchingTooCostly, PatchingView, ResidualPatching,
    activation_patching, flipping_pairs, induction_pair, pair_from_inputs, pair_metrics, patched_metrics, task_pair,
    view_flops,
)
from .probes import (
    MAX_PROBE_LENGTH, MAX_PROBE_SEQUENCES, ProbeData, ProbeResult, fit_probes, induction_probe_data,
    line_end_probe_data, next_vowel_probe_data, reverse_probe_data, thinned,
)
from .shapes import ShapeRow, shape_walkthrough

__all__ = [
    "Component", "GuessingGame", "HeadPatching", "LogitAttribution", "ModelGuess", "Patch", "PatchingPair",
    "PatchingView", "ProbeData", "ProbeResult", "ResidualPatching", "Round", "Score", "activation_patching",
    "fit_probes", "held_out_text", "induction_pair", "induction_probe_data", "line_end_probe_data",
    "logit_attribution", "model_guess",
    "next_vowel_probe_data", "pair_from_inputs", "patched_metrics", "reverse_probe_data", "task_pair",
    "MAX_PROBE_LENGTH", "MAX_PROBE_SEQUENCES", "MIN_SPREAD", "PatchingTooCostly", "flipping_pairs", "pair_metrics",
    "thinned", "view_flops",
    "CROSS_SCORES", "FLOP_COMPONENTS", "INDUCTION_THRESHOLD", "InductionVerdict", "MEMORY_COMPONENTS",
    "RepeatMeasurement", "SELF_SCORES", "ExactMatchChange", "GenerationChange", "LogitLens", "NextTokenChange",
    "ShapeRow", "activation_memory_per_token", "exact_match_change", "flops_per_token", "generation_change",
    "head_scores", "induction_heads", "induction_verdict", "kl_divergence", "kv_cache_per_token", "logit_lens",
    "measure_repeats", "next_token_change", "shape_walkthrough",
]
