"""The Train tab's recipes: a Recipe (a task, its data and every setting, as a learner gives them)
checked once into a TrainSpec, and the Trainer built from it, its size checked before any weight exists.

    spec = check_spec(Recipe.of("copy", steps=200))
    trainer = build_trainer(spec, None)

Each Recipe field declares its default and its rule (playground.checks) once; the Train tab's form
is a Recipe. Every refusal is an InputError: a ValueError whose English message says what to change,
with a message key, the values that fill it and the field at fault, so a front end can say the same
in its own words (playground.ui does, in the session's language).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cache

from playground.analysis import flops_per_token
from playground.checks import InputError, OneOf, Real, Switch, Text, Whole, check_choice
from playground.data import CharTokenizer, bundled_text, tang_poems_text, tasks
from playground.data.lm_data import TextTooShort
from playground.limits import (
    MAX_MODEL_VOCAB,
    MAX_TRAIN_PARAMETERS,
    MAX_TRAIN_STEP_GFLOPS,
    MAX_TRAIN_TEXT_CHARS,
    TRAIN_LIMITS,
)
from playground.model import (
    ACTIVATIONS,
    NORM_PLACEMENTS,
    NORM_TYPES,
    POSITIONAL_ENCODINGS,
    ModelConfig,
    count_parameters,
)
from playground.model.config import ROPE_BASE_RANGE
from playground.train.config import SCHEDULES
from playground.train.presets import PRESETS, RHYME_BLOCK_SIZE, Preset
from playground.train.trainer import Trainer

TASK_PRESETS = {"copy": "copy", "reverse": "reverse", "sort": "sort", "dates": "dates",
                "char-lm": "shakespeare-char", "bpe-lm": "shakespeare-bpe", "masked-lm": "masked-char",
                "induction": "induction"}
DATA_SOURCES = ("bundled", "tiny_shakespeare", "rhyme", "tang_poems", "pasted")   # an uploaded .txt becomes pasted text
DATA_BLOCK_SIZES = {"rhyme": RHYME_BLOCK_SIZE}       # a block size the text's validation split can hold
EVENT_EVERY_S = 0.5           # progress (curves, status) at most this often
EVAL_EVERY_S = 2.0            # held-out loss, accuracy and exact match at most this often
SNAPSHOT_EVERY_S = 3.0        # probe attention, head scores and samples at most this often
FIRST_TASK = "copy"           # the task a recipe starts at


@dataclass(frozen=True)
class TrainSpec:
    """What the form asked for: the task key, the data source and the preset it becomes (the quick
    preset of the task with the form's architecture and optimiser)."""

    task: str
    data: str
    preset: Preset

    @property
    def seq2seq(self) -> bool:
        return self.preset.kind == "seq2seq"

    @property
    def synthetic(self) -> bool:
        """True when the preset makes its own examples (a seq2seq task, repeated sequences): no text."""
        return self.preset.synthetic


def base_preset(task: str) -> Preset:
    """The live-training preset of a task (no total time cap: each run is capped instead)."""
    preset = PRESETS[TASK_PRESETS[task]].quick()
    return replace(preset, train_config=preset.train_config.replace(max_seconds=None))


def takes_text(task: str) -> bool:
    """Whether a task trains on a text (a language model of a corpus) rather than making its own examples."""
    return not base_preset(task).synthetic


LLM_FIELDS = ("norm_type", "gated_ffn", "n_kv_heads", "rope_base", "qkv_bias")   # the LLM pieces, as a form has them
LLM_LIMITS = {"n_kv_heads": (0, TRAIN_LIMITS["n_heads"][1]), "rope_base": tuple(int(x) for x in ROPE_BASE_RANGE)}


def llm_form_values(config: ModelConfig) -> dict:
    """A config's LLM pieces as a form shows them: n_kv_heads 0 for one key/value head per query head,
    a whole rotary base, qkv_bias on for q/k/v biases in a model without other biases (Qwen2)."""
    return dict(norm_type=config.norm_type, gated_ffn=config.gated_ffn, n_kv_heads=config.n_kv_heads or 0,
                rope_base=int(round(config.rope_base)), qkv_bias=bool(config.qkv_bias) and not config.bias)


def llm_config_fields(norm_type: str, gated_ffn: bool, n_kv_heads: int, rope_base: int, qkv_bias: bool,
                      bias: bool) -> dict:
    """The ModelConfig fields of a form's LLM pieces (llm_form_values read back)."""
    return dict(norm_type=norm_type, gated_ffn=gated_ffn, n_kv_heads=n_kv_heads or None, rope_base=float(rope_base),
                qkv_bias=True if qkv_bias and not bias else None)


def form_defaults(task: str) -> dict:
    """The form's values for a task's preset: architecture (with its LLM pieces) and optimiser."""
    preset = base_preset(task)
    model, train = preset.model_config, preset.train_config
    return dict(layers=model.n_decoder_layers or model.n_encoder_layers, n_heads=model.n_heads,
                d_model=model.d_model, d_ff=model.d_ff, positional=model.positional, norm=model.norm,
                activation=model.activation, dropout=model.dropout, tie_weights=model.tie_weights, lr=train.lr,
                warmup=train.warmup_steps, batch_size=train.batch_size, steps=train.max_steps, bias=model.bias,
                **llm_form_values(model))


def stability_defaults(task: str) -> dict:
    """The form's block size (language models), schedule and clipping for a task's preset."""
    preset, train = base_preset(task), base_preset(task).train_config
    return dict(block_size=preset.block_size, schedule=train.schedule, decay_every=train.decay_every,
                decay_factor=train.decay_factor, clip=train.grad_clip is not None, grad_clip=train.grad_clip or 1.0)


def config_conflict(n_heads: int, d_model: int, positional: str, n_kv_heads: int = 0) -> tuple[str, str, dict] | None:
    """The first of a model config's choices that does not fit the others, as (its field, the
    message key, the message's fields), else None. n_kv_heads 0: one key/value head per query head."""
    if d_model % n_heads:
        suggestion = max(n_heads, round(d_model / n_heads) * n_heads)
        return "n_heads", "err_heads_divide", dict(d_model=d_model, heads=n_heads, suggestion=suggestion)
    if n_kv_heads and n_heads % n_kv_heads:
        choices = ", ".join(str(k) for k in range(1, n_heads + 1) if n_heads % k == 0)
        return "n_kv_heads", "err_kv_heads_divide", dict(heads=n_heads, kv_heads=n_kv_heads, choices=choices)
    if positional == "rope" and (d_model // n_heads) % 2:
        return "positional", "err_rope_head_dim", dict(head_dim=d_model // n_heads)
    return None


def form_conflict(n_heads: int, d_model: int, positional: str, warmup: int, steps: int,
                  n_kv_heads: int = 0) -> tuple[str, str, dict] | None:
    """The first of the form's choices that does not fit the others, as (its field, the message
    key, the message's fields), else None."""
    conflict = config_conflict(n_heads, d_model, positional, n_kv_heads)
    if conflict is not None:
        return conflict
    if warmup > steps:
        return "warmup", "err_warmup_steps", dict(warmup=warmup, steps=steps)
    return None


CONFLICT_MESSAGES = {
    "err_heads_divide": "d_model={d_model} does not split into {heads} heads; try d_model={suggestion}",
    "err_rope_head_dim": "RoPE needs an even head dimension, got d_model / n_heads = {head_dim}",
    "err_kv_heads_divide": "the {heads} query heads share the key/value heads in equal groups, so {kv_heads} "
                           "key/value heads do not fit; use one of {choices} (0: one per query head)",
    "err_warmup_steps": "{warmup} warm-up steps is longer than the run ({steps} steps)",
}


def _preset_field(rule, name: str):
    """A setting a task's preset gives (its default: the first task's)."""
    return field(default=_FIRST[name], metadata={"rule": rule, "group": "preset"})


def _stability_field(rule, name: str):
    """A block size, schedule or clipping setting (its default: a character language model's)."""
    return field(default=_LANGUAGE_MODEL[name], metadata={"rule": rule, "group": "stability"})


def _whole(name: str) -> Whole:
    return Whole(*TRAIN_LIMITS[name])


def _real(name: str) -> Real:
    return Real(*TRAIN_LIMITS[name])


_FIRST = form_defaults(FIRST_TASK)
_LANGUAGE_MODEL = stability_defaults("char-lm")


@dataclass(frozen=True)
class Recipe:
    """What a learner asks to train, as given: check_spec checks it. Each field declares its rule once.

    task: a TASK_PRESETS key; data: a DATA_SOURCES name of a language model's text ("pasted": `pasted`,
    the text itself; a task that makes its own examples ignores both); the architecture, with the LLM
    pieces as llm_form_values has them (n_kv_heads 0: one per query head; qkv_bias: q/k/v biases in a
    model without other biases); the optimiser (warmup and steps in optimisation steps); block_size
    (language models), the learning-rate schedule and gradient clipping (grad_clip when clip is on).
    """

    task: str = field(default=FIRST_TASK, metadata={"rule": OneOf(tuple(TASK_PRESETS))})
    data: str = field(default="bundled", metadata={"rule": OneOf(DATA_SOURCES)})
    pasted: str = field(default="", metadata={"rule": Text(MAX_TRAIN_TEXT_CHARS)})
    layers: int = _preset_field(_whole("layers"), "layers")
    n_heads: int = _preset_field(_whole("n_heads"), "n_heads")
    d_model: int = _preset_field(_whole("d_model"), "d_model")
    d_ff: int = _preset_field(_whole("d_ff"), "d_ff")
    positional: str = _preset_field(OneOf(POSITIONAL_ENCODINGS), "positional")
    norm: str = _preset_field(OneOf(NORM_PLACEMENTS), "norm")
    activation: str = _preset_field(OneOf(ACTIVATIONS), "activation")
    dropout: float = _preset_field(_real("dropout"), "dropout")
    tie_weights: bool = _preset_field(Switch(), "tie_weights")
    lr: float = _preset_field(_real("lr"), "lr")
    warmup: int = _preset_field(_whole("warmup"), "warmup")
    batch_size: int = _preset_field(_whole("batch_size"), "batch_size")
    steps: int = _preset_field(_whole("steps"), "steps")
    block_size: int = _stability_field(_whole("block_size"), "block_size")
    schedule: str = _stability_field(OneOf(SCHEDULES), "schedule")
    decay_every: int = _stability_field(_whole("decay_every"), "decay_every")
    decay_factor: float = _stability_field(_real("decay_factor"), "decay_factor")
    clip: bool = _stability_field(Switch(), "clip")
    grad_clip: float = _stability_field(_real("grad_clip"), "grad_clip")
    bias: bool = _preset_field(Switch(), "bias")
    norm_type: str = _preset_field(OneOf(NORM_TYPES), "norm_type")
    gated_ffn: bool = _preset_field(Switch(), "gated_ffn")
    n_kv_heads: int = _preset_field(Whole(*LLM_LIMITS["n_kv_heads"]), "n_kv_heads")
    rope_base: int = _preset_field(Whole(*LLM_LIMITS["rope_base"]), "rope_base")
    qkv_bias: bool = _preset_field(Switch(), "qkv_bias")

    @classmethod
    def of(cls, task: str, **changes):
        """The task's preset in every setting it gives (a seq2seq task keeps the default block size), with
        `changes`; an InputError for an unknown task."""
        check_choice(task, tuple(TASK_PRESETS), "task")
        stability = {name: value for name, value in stability_defaults(task).items() if value is not None}
        return cls(**{"task": task, **form_defaults(task), **stability, **changes})


PRESET_FIELDS = tuple(f.name for f in fields(Recipe) if f.metadata.get("group") == "preset")     # a task's preset
STABILITY_FIELDS = tuple(f.name for f in fields(Recipe) if f.metadata.get("group") == "stability")


def check_fields(recipe: Recipe) -> Recipe:
    """The recipe with every field through its rule (whole numbers as int, numbers as float), or an
    InputError naming the first field refused."""
    return replace(recipe, **{f.name: f.metadata["rule"].check(f.name, getattr(recipe, f.name))
                              for f in fields(Recipe)})


def check_consistent(recipe: Recipe) -> None:
    """Heads that divide d_model, key/value heads that divide the heads, an even RoPE head size and a
    warm-up within the training, else an InputError naming the setting to change."""
    conflict = form_conflict(recipe.n_heads, recipe.d_model, recipe.positional, recipe.warmup, recipe.steps,
                             recipe.n_kv_heads)
    if conflict is not None:
        name, key, values = conflict
        raise InputError(CONFLICT_MESSAGES[key].format(**values), key, name, **values)


def check_spec(recipe: Recipe, event_every_s: float | None = None, eval_every_s: float | None = None,
               snapshot_every_s: float | None = None) -> TrainSpec:
    """The recipe checked, once: every field in range, the fields consistent, a config the model accepts;
    or an InputError saying what to change.

    The run reports progress every ``event_every_s``, evaluates every ``eval_every_s`` and takes a
    snapshot every ``snapshot_every_s`` seconds (None: the Train tab's live cadence, EVENT_EVERY_S,
    EVAL_EVERY_S and SNAPSHOT_EVERY_S as they are at the call).
    """
    event_every_s = EVENT_EVERY_S if event_every_s is None else event_every_s
    eval_every_s = EVAL_EVERY_S if eval_every_s is None else eval_every_s
    snapshot_every_s = SNAPSHOT_EVERY_S if snapshot_every_s is None else snapshot_every_s
    recipe = check_fields(recipe)
    check_consistent(recipe)
    if recipe.schedule == "inverse_sqrt" and recipe.warmup < 1:
        raise InputError("the inverse_sqrt schedule needs at least one warm-up step", "err_inverse_sqrt_warmup",
                         "warmup")
    base = base_preset(recipe.task)
    model = base.model_config
    try:
        model = model.replace(
            n_encoder_layers=recipe.layers if model.n_encoder_layers else 0,
            n_decoder_layers=recipe.layers if model.n_decoder_layers else 0,
            n_heads=recipe.n_heads, d_model=recipe.d_model, d_ff=recipe.d_ff, positional=recipe.positional,
            norm=recipe.norm, activation=recipe.activation, dropout=recipe.dropout, tie_weights=recipe.tie_weights,
            bias=recipe.bias, **llm_config_fields(recipe.norm_type, recipe.gated_ffn, recipe.n_kv_heads,
                                                  recipe.rope_base, recipe.qkv_bias, recipe.bias))
        train = base.train_config.replace(
            lr=recipe.lr, warmup_steps=recipe.warmup, batch_size=recipe.batch_size, max_steps=recipe.steps,
            eval_every_s=eval_every_s, event_every_s=event_every_s, snapshot_every_s=snapshot_every_s,
            schedule=recipe.schedule, decay_every=recipe.decay_every, decay_factor=recipe.decay_factor,
            grad_clip=recipe.grad_clip if recipe.clip else None)
    except ValueError as error:
        raise InputError(str(error), "err_config", error=str(error)) from None
    preset = replace(base, model_config=model, train_config=train)
    if preset.kind != "seq2seq":
        preset = preset.with_block_size(recipe.block_size)
    return TrainSpec(recipe.task, "task" if base.synthetic else recipe.data, preset)


@cache
def _task(name: str, knobs: tuple) -> tasks.Task:
    return tasks.get(name, **dict(knobs))


def sequence_length(preset: Preset) -> int:
    """Tokens per training example: the longest source or target (+ <bos>) of a task, else the block size."""
    if preset.repeats is not None:
        return preset.repeats["block_size"]
    if preset.task is None:
        return preset.block_size
    task = _task(preset.task, tuple(sorted(preset.task_knobs.items())))
    return max(task.max_source_len, task.max_target_len + 1)


def training_cost(spec: TrainSpec, vocab_size: int) -> tuple[int, float]:
    """(parameters, estimated GFLOPs of one training step: forward + backward = 3 x forward)."""
    config = spec.preset.model_config.replace(vocab_size=vocab_size)
    context = sequence_length(spec.preset)
    tokens = spec.preset.train_config.batch_size * context
    return count_parameters(config)["total"], 3 * flops_per_token(config, context)["total"] * tokens / 1e9


def estimated_vocab(spec: TrainSpec, pasted: str | None = None) -> int:
    """The vocabulary the model will have: a task's own, a character tokenizer of pasted text or of a bundled
    text, else the preset's."""
    if spec.preset.tokenizer == "char" and spec.data == "pasted" and isinstance(pasted, str) and pasted:
        return CharTokenizer.from_text(pasted).vocab_size
    if spec.preset.tokenizer == "char" and spec.data in BUNDLED_TEXTS:
        return _char_vocab(spec.data)
    if spec.preset.tokenizer == "bpe":
        return spec.preset.bpe_vocab_size
    return spec.preset.model_config.vocab_size


BUNDLED_TEXTS = {"bundled": bundled_text, "tang_poems": tang_poems_text}     # texts shipped with the project


@cache
def _char_vocab(source: str) -> int:
    return CharTokenizer.from_text(BUNDLED_TEXTS[source]()).vocab_size


def check_size(spec: TrainSpec, vocab_size: int) -> tuple[int, float]:
    """(parameters, GFLOPs per step) within what a shared CPU trains live, and a vocabulary the app's views
    can read (MAX_MODEL_VOCAB, as for an upload), or an InputError with the numbers."""
    if vocab_size > MAX_MODEL_VOCAB:
        raise InputError(f"the text has {vocab_size:,} distinct tokens, more than the {MAX_MODEL_VOCAB:,} a model "
                          "here may have", "err_train_vocab", vocab=f"{vocab_size:,}", limit=f"{MAX_MODEL_VOCAB:,}")
    params, gflops = training_cost(spec, vocab_size)
    if params > MAX_TRAIN_PARAMETERS:
        raise InputError(f"the model has {params:,} parameters, more than the {MAX_TRAIN_PARAMETERS:,} trained live; "
                          "make it smaller", "err_train_too_large", params=f"{params:,}",
                          limit=f"{MAX_TRAIN_PARAMETERS:,}")
    if gflops > MAX_TRAIN_STEP_GFLOPS:
        raise InputError(f"a step costs about {gflops:.1f} GFLOPs, more than the {MAX_TRAIN_STEP_GFLOPS:.0f} trained "
                          "live; use a smaller model, batch or block", "err_train_too_slow", gflops=gflops,
                          limit=MAX_TRAIN_STEP_GFLOPS)
    return params, gflops


def data_name(spec: TrainSpec) -> str:
    """What the model card calls the training data."""
    if spec.data == "task":
        return "repeated random sequences" if spec.preset.task is None else f"the {spec.preset.task} task"
    return "pasted text" if spec.data == "pasted" else spec.data


def build_trainer(spec: TrainSpec, training_data: str | None) -> Trainer:
    """A Trainer for the spec on the text (None for a task that makes its own examples), its size
    checked before any weight exists."""
    try:
        data = spec.preset.build_data(training_data)
        config = spec.preset.model_config.replace(vocab_size=data.tokenizer.vocab_size)
        check_size(replace(spec, preset=replace(spec.preset, model_config=config)), config.vocab_size)
        return Trainer(config, spec.preset.train_config, data)
    except InputError:
        raise
    except TextTooShort as error:               # named by the setting that changes it
        key = "err_train_text_short" if error.largest >= 1 else "err_train_text_short_any"
        raise InputError(str(error), key, "block_size", tokens=error.tokens, train=error.train, val=error.val,
                          block_size=error.block_size, needed=error.needed, largest=error.largest) from None
    except ValueError as error:                 # the text does not fit the windows or the batch
        raise InputError(f"this data cannot train this model: {error}", "err_train_setup", error=str(error)) from None
