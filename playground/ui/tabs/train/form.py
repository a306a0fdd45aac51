"""The Train tab's form: the task, its text, the architecture, the optimiser and the stability
settings, as one value, and how a link names them.

    ?view=train&task=copy&data=bundled&pasted=&layers=2&n_heads=4&d_model=64&...&grad_clip=1.0&lang=en

A link opens the form; training starts only when Start or Step is pressed. A link that names a
task and none of the other settings opens that task's preset (its defaults in every field).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from playground.model import ACTIVATIONS, NORM_PLACEMENTS, NORM_TYPES, POSITIONAL_ENCODINGS
from playground.train.config import SCHEDULES
from playground.train.recipes import LLM_FIELDS, LLM_LIMITS

from ...page.forms import Choice, Flag, Form, Integer, Number, Refused, String, param
from ...page.validation import MAX_TRAIN_TEXT_CHARS, TRAIN_LIMITS
from ...session.training import (
    DATA_SOURCES,
    STABILITY_FIELDS,
    TASK_PRESETS,
    TrainSpec,
    check_spec,
    form_conflict,
    form_defaults,
    stability_defaults,
)

FIRST_TASK = "copy"
FIRST = form_defaults(FIRST_TASK)
LM_DEFAULTS = stability_defaults("char-lm")
SETTINGS = ("layers", "n_heads", "d_model", "d_ff", "positional", "norm", "activation", "dropout", "tie_weights",
            "lr", "warmup", "batch_size", "steps", "bias", *LLM_FIELDS)        # a task's preset sets these


def _integer(name: str, default: int):
    return param(Integer(default, *TRAIN_LIMITS[name]))


def _number(name: str, default: float):
    return param(Number(default, *TRAIN_LIMITS[name]))


@dataclass(frozen=True)
class TrainForm(Form):
    VIEW = "train"

    task: str = param(Choice(FIRST_TASK, tuple(TASK_PRESETS)))
    data: str = param(Choice("bundled", DATA_SOURCES))
    pasted: str = param(String("", MAX_TRAIN_TEXT_CHARS))
    layers: int = _integer("layers", FIRST["layers"])
    n_heads: int = _integer("n_heads", FIRST["n_heads"])
    d_model: int = _integer("d_model", FIRST["d_model"])
    d_ff: int = _integer("d_ff", FIRST["d_ff"])
    positional: str = param(Choice(FIRST["positional"], POSITIONAL_ENCODINGS))
    norm: str = param(Choice(FIRST["norm"], NORM_PLACEMENTS))
    activation: str = param(Choice(FIRST["activation"], ACTIVATIONS))
    dropout: float = _number("dropout", FIRST["dropout"])
    tie_weights: bool = param(Flag(FIRST["tie_weights"]))
    lr: float = _number("lr", FIRST["lr"])
    warmup: int = _integer("warmup", FIRST["warmup"])
    batch_size: int = _integer("batch_size", FIRST["batch_size"])
    steps: int = _integer("steps", FIRST["steps"])
    block_size: int = _integer("block_size", LM_DEFAULTS["block_size"])
    schedule: str = param(Choice(LM_DEFAULTS["schedule"], SCHEDULES))
    decay_every: int = _integer("decay_every", LM_DEFAULTS["decay_every"])
    decay_factor: float = _number("decay_factor", LM_DEFAULTS["decay_factor"])
    clip: bool = param(Flag(LM_DEFAULTS["clip"]))
    grad_clip: float = _number("grad_clip", LM_DEFAULTS["grad_clip"])
    bias: bool = param(Flag(FIRST["bias"]))
    norm_type: str = param(Choice(FIRST["norm_type"], NORM_TYPES))
    gated_ffn: bool = param(Flag(FIRST["gated_ffn"]))
    n_kv_heads: int = param(Integer(FIRST["n_kv_heads"], *LLM_LIMITS["n_kv_heads"]))     # 0: one per query head
    rope_base: int = param(Integer(FIRST["rope_base"], *LLM_LIMITS["rope_base"]))
    qkv_bias: bool = param(Flag(FIRST["qkv_bias"]))

    def validated(self) -> "TrainForm":
        """Heads that divide d_model, key/value heads that divide the heads, an even RoPE head size, a
        warm-up within the training."""
        conflict = form_conflict(self.n_heads, self.d_model, self.positional, self.warmup, self.steps, self.n_kv_heads)
        if conflict is not None:
            name, key, fields = conflict
            raise Refused(name, key, **fields)
        return self

    def settings(self) -> dict:
        """The architecture (with its LLM pieces) and optimiser fields, by name (check_spec's arguments)."""
        return {name: getattr(self, name) for name in SETTINGS}

    def stability(self) -> dict:
        """Block size, schedule and clipping, by name."""
        return {name: getattr(self, name) for name in STABILITY_FIELDS}

    def spec(self, lang: str) -> TrainSpec:
        """The TrainSpec the form asks for, or a gr.Error saying what to change."""
        return check_spec(self.task, self.data, **self.settings(), lang=lang, **self.stability())

    def with_task_defaults(self) -> "TrainForm":
        """The form with its task's preset in the architecture and optimiser fields."""
        return replace(self, **{name: form_defaults(self.task)[name] for name in SETTINGS})

    def fit(self, registry, given: set[str]) -> tuple["TrainForm", list[Refused]]:
        """A link naming a task and no setting opens the task's preset (with its stability settings);
        settings that still do not fit together once a refused one took its default (from_query
        reported it) are the task's preset."""
        if "task" not in given or given & {*SETTINGS, *STABILITY_FIELDS}:
            try:
                return self.validated(), []
            except Refused:
                return self.with_task_defaults(), []
        stability = {name: value for name, value in stability_defaults(self.task).items() if value is not None}
        return replace(self.with_task_defaults(), **stability), []
