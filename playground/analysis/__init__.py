"""Reading a trained model: per-head attention scores, shapes through a forward pass, cost per token."""
from .head_scores import CROSS_SCORES, SELF_SCORES, head_scores

__all__ = ["CROSS_SCORES", "SELF_SCORES", "head_scores"]
