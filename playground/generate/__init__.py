"""Step-by-step decoding on the KV cache: the Stepper, sampling filters, beam search."""
from .beam import BeamNode, BeamResult, Hypothesis, beam_search
from .context import window_after_slide
from .filters import (
    apply_repetition_penalty, apply_temperature, draw, filter_stages, softmax, top_k_filter, top_p_filter,
)
from .settings import MAX_BEAM_WIDTH, MAX_NEW_TOKENS, MAX_REPETITION_PENALTY, STRATEGIES, SamplingConfig
from .stepper import STOP_REASONS, GenerationFinished, Step, Stepper

__all__ = [
    "MAX_BEAM_WIDTH", "MAX_NEW_TOKENS", "MAX_REPETITION_PENALTY", "STOP_REASONS", "STRATEGIES",
    "BeamNode", "BeamResult", "GenerationFinished", "Hypothesis", "SamplingConfig", "Step", "Stepper",
    "apply_repetition_penalty", "apply_temperature", "beam_search", "draw", "filter_stages", "softmax",
    "top_k_filter", "top_p_filter", "window_after_slide",
]
