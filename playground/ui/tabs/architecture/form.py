"""The Architecture tab's controls as one value, and how a link names them.

    ?view=architecture&preset=gpt2-small&lang=en                      (a preset's config)
    ?view=architecture&arch=decoder_only&n_decoder_layers=6&d_model=512&n_heads=8&...&context=1024
    ?view=architecture&preset=llama-style-small&lang=zh-CN                (RMSNorm, SwiGLU, rope, 2 key/value heads)

A link that names a preset and none of the config fields opens that preset's config.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.model import gpt2_small_config
from playground.model.config import ROPE_BASE_RANGE
from playground.train.recipes import llm_form_values

from ...page.forms import Choice, Flag, Form, Integer, Refused, String, param
from ...inputs.validation import CONFIG_LIMITS
from ...page.widgets import CONFIG_CHOICES, CONFIG_FLAGS
from ...views.architecture import FIELDS, GPT2_PRESET, form_values, presets

LIMIT_OF = {"n_encoder_layers": "n_layers", "n_decoder_layers": "n_layers", "d_model": "d_model",
            "n_heads": "n_heads", "d_ff": "d_ff", "vocab_size": "vocab_size", "max_len": "max_len"}
GPT2 = gpt2_small_config()
DEFAULT_CONTEXT = 1024
GPT2_VALUES = {**GPT2.to_dict(), **llm_form_values(GPT2)}


def _field_param(name: str):
    default = GPT2_VALUES[name]
    if name == "n_kv_heads":                                   # 0: one key/value head per query head
        return param(Integer(default, 0, CONFIG_LIMITS["n_heads"][1]))
    if name == "rope_base":
        return param(Integer(default, *(int(x) for x in ROPE_BASE_RANGE)))
    if name in CONFIG_CHOICES:
        return param(Choice(default, CONFIG_CHOICES[name]))
    if name in CONFIG_FLAGS:
        return param(Flag(default))
    return param(Integer(default, *CONFIG_LIMITS[LIMIT_OF[name]]))


@dataclass(frozen=True)
class ArchitectureForm(Form):
    VIEW = "architecture"

    preset: str = param(String(GPT2_PRESET, 100))
    arch: str = _field_param("arch")
    n_encoder_layers: int = _field_param("n_encoder_layers")
    n_decoder_layers: int = _field_param("n_decoder_layers")
    d_model: int = _field_param("d_model")
    n_heads: int = _field_param("n_heads")
    d_ff: int = _field_param("d_ff")
    vocab_size: int = _field_param("vocab_size")
    max_len: int = _field_param("max_len")
    positional: str = _field_param("positional")
    norm: str = _field_param("norm")
    activation: str = _field_param("activation")
    tie_weights: bool = _field_param("tie_weights")
    bias: bool = _field_param("bias")
    scale_embedding: bool = _field_param("scale_embedding")
    context: int = param(Integer(DEFAULT_CONTEXT, 1, CONFIG_LIMITS["max_len"][1]))
    norm_type: str = _field_param("norm_type")
    gated_ffn: bool = _field_param("gated_ffn")
    n_kv_heads: int = _field_param("n_kv_heads")
    rope_base: int = _field_param("rope_base")
    qkv_bias: bool = _field_param("qkv_bias")

    def config_values(self) -> dict:
        """The config fields, by name."""
        return {name: getattr(self, name) for name in FIELDS}

    def with_preset(self, registry) -> "ArchitectureForm":
        """The form with the preset's config in every field and a context it can hold; a preset that
        does not exist is refused by name."""
        config = presets(registry).get(self.preset)
        if config is None:
            raise Refused("preset", "err_bad_choice", value=self.preset[:40], choices=", ".join(presets(registry)))
        return replace(self, **form_values(config), context=min(config.max_len, 1024))

    def fit(self, registry, given: set[str]) -> tuple["ArchitectureForm", list[Refused]]:
        """A link naming a preset and no config field opens the preset's config."""
        if "preset" not in given or given & set(FIELDS):
            return self, []
        try:
            return self.with_preset(registry), []
        except Refused as error:
            return replace(self, preset=GPT2_PRESET), [error]
