"""The hand-written Transformer stack: config, attention, positions, blocks, models, hook points, trace, interventions."""
from .attention import LayerCache, MultiHeadAttention, attend, merge_heads, scaled_scores, split_heads
from .blocks import DecoderBlock, EncoderBlock, FeedForward, residual_add
from .config import ACTIVATIONS, ARCHITECTURES, FIELD_RANGES, NORM_PLACEMENTS, NORM_TYPES, POSITIONAL_ENCODINGS, ModelConfig
from .hooks import HookPoint, hook_names, hooks
from .interventions import ABLATIONS, Head, heads_off
from .limits import SizeLimitError, SizeLimits
from .masks import causal_mask, padding_mask
from .models import DecoderOnly, EncoderDecoder, EncoderOnly, KVCache, Memory, build_model
from .params import COMPONENTS, count_parameters, gpt2_small_config, parameter_table
from .positional import rope_angles, sinusoidal_table
from .residency import tensors_on
from .sites import CROSS, DECODER_SELF, ENCODER_SELF, SITES, AttentionSite
from .trace import Trace

__all__ = [
    "ABLATIONS", "ACTIVATIONS", "ARCHITECTURES", "COMPONENTS", "CROSS", "DECODER_SELF", "ENCODER_SELF",
    "FIELD_RANGES", "NORM_PLACEMENTS", "NORM_TYPES", "POSITIONAL_ENCODINGS", "SITES",
    "AttentionSite", "DecoderBlock", "DecoderOnly", "EncoderBlock", "EncoderDecoder", "EncoderOnly", "FeedForward",
    "Head", "HookPoint", "KVCache", "LayerCache", "Memory", "ModelConfig", "MultiHeadAttention", "SizeLimitError", "SizeLimits",
    "Trace", "attend", "build_model", "causal_mask", "count_parameters", "gpt2_small_config", "heads_off",
    "hook_names", "hooks",
    "merge_heads",
    "padding_mask", "parameter_table", "residual_add", "rope_angles", "scaled_scores", "sinusoidal_table",
    "split_heads", "tensors_on",
]
