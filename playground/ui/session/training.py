"""A session's live training: the Train tab's form checked into a TrainSpec, a Trainer built from
it, and runs in a worker thread whose items the page streams, so that Stop, Resume and closing
the tab act between two optimisation steps and a stopped run continues exactly.

Each run is capped (RUN_SECONDS, and the steps of the form); when a run ends its model is
published: a frozen copy for the session's models, written as one .safetensors file for
download. Nothing here draws: playground.ui.views.training turns a session into figures.
"""
from __future__ import annotations

import copy
import shutil
import tempfile
import threading
import time
from contextlib import closing
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from playground.analysis import flops_per_token
from playground.checkpoint import to_bytes
from playground.data import CharTokenizer, CorpusUnavailable, bundled_text, rhyme_text, tasks, tiny_shakespeare
from playground.model import ACTIVATIONS, NORM_PLACEMENTS, POSITIONAL_ENCODINGS, count_parameters
from playground.train import PRESETS, Preset, Snapshot, Trainer, TrainEvent, zerogpu
from playground.train.card import card, metadata
from playground.train.config import SCHEDULES
from playground.train.metrics import perplexity
from playground.train.presets import RHYME_BLOCK_SIZE

from ..page.validation import (
    MAX_MODEL_VOCAB,
    MAX_TEXT_UPLOAD_BYTES,
    MAX_TRAIN_PARAMETERS,
    MAX_TRAIN_STEP_GFLOPS,
    MAX_TRAIN_TEXT_CHARS,
    TRAIN_LIMITS,
    check_choice,
    check_number,
    check_text,
    fail,
)
from ..text.i18n import text
from .registry import ModelEntry, freeze
from .worker import STOP_WAIT_SECONDS, Put, Worker

TASK_PRESETS = {"copy": "copy", "reverse": "reverse", "sort": "sort", "dates": "dates",
                "char-lm": "shakespeare-char", "bpe-lm": "shakespeare-bpe", "masked-lm": "masked-char",
                "induction": "induction"}
DATA_SOURCES = ("bundled", "tiny_shakespeare", "rhyme", "pasted")     # an uploaded .txt becomes pasted text
DATA_BLOCK_SIZES = {"rhyme": RHYME_BLOCK_SIZE}       # a block size the text's validation split can hold
RUN_SECONDS = 90.0            # one Start / Resume trains at most this long, then the slot goes to the next in line
STEP_SIZE = 10                # optimisation steps per press of Step
EVENT_EVERY_S = 0.5           # progress (curves, status) at most this often
EVAL_EVERY_S = 2.0            # held-out loss, accuracy and exact match at most this often
SNAPSHOT_EVERY_S = 3.0        # probe attention, head scores and samples at most this often
MAX_SCORE_SNAPSHOTS = 200     # head scores kept for the over-training figure
SHAKESPEARE_RETRY_SECONDS = 600.0
TRAINED_PREFIX = "trained-"
BEGUN = "begun"               # a run's first item after `build` made a new Trainer
CARD_COMMAND = "Trained live in the Transformer Playground's Train tab (settings above)."


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


def form_defaults(task: str) -> dict:
    """The form's values for a task's preset: architecture and optimiser."""
    preset = base_preset(task)
    model, train = preset.model_config, preset.train_config
    return dict(layers=model.n_decoder_layers or model.n_encoder_layers, n_heads=model.n_heads,
                d_model=model.d_model, d_ff=model.d_ff, positional=model.positional, norm=model.norm,
                activation=model.activation, dropout=model.dropout, tie_weights=model.tie_weights, lr=train.lr,
                warmup=train.warmup_steps, batch_size=train.batch_size, steps=train.max_steps)


STABILITY_FIELDS = ("block_size", "schedule", "decay_every", "decay_factor", "clip", "grad_clip")   # form order


def stability_defaults(task: str) -> dict:
    """The form's block size (language models), schedule and clipping for a task's preset."""
    preset, train = base_preset(task), base_preset(task).train_config
    return dict(block_size=preset.block_size, schedule=train.schedule, decay_every=train.decay_every,
                decay_factor=train.decay_factor, clip=train.grad_clip is not None, grad_clip=train.grad_clip or 1.0)


def check_stability(preset: Preset, lang: str, block_size=None, schedule="cosine", decay_every=500, decay_factor=0.5,
                    clip=True, grad_clip=1.0) -> Preset:
    """The preset with the form's block size (language models only), learning-rate schedule and
    gradient clipping, each checked, or a gr.Error saying what to change."""
    schedule = check_choice(schedule, SCHEDULES, lang, "schedule")
    decay_every = check_number(decay_every, lang, "decay_every", *TRAIN_LIMITS["decay_every"], integer=True)
    decay_factor = check_number(decay_factor, lang, "decay_factor", *TRAIN_LIMITS["decay_factor"])
    clip = bool(check_choice(clip, (True, False), lang, "clip"))
    grad_clip = check_number(grad_clip, lang, "grad_clip", *TRAIN_LIMITS["grad_clip"]) if clip else None
    if schedule == "inverse_sqrt" and preset.train_config.warmup_steps < 1:
        raise fail(lang, "err_inverse_sqrt_warmup")
    train = preset.train_config.replace(schedule=schedule, decay_every=decay_every, decay_factor=decay_factor,
                                        grad_clip=grad_clip)
    preset = replace(preset, train_config=train)
    if preset.kind == "seq2seq" or block_size is None:
        return preset
    return preset.with_block_size(check_number(block_size, lang, "block_size", *TRAIN_LIMITS["block_size"],
                                               integer=True))


def form_conflict(n_heads: int, d_model: int, positional: str, warmup: int, steps: int) -> tuple[str, str, dict] | None:
    """The first of the form's choices that does not fit the others, as (its field, the message
    key, the message's fields), else None."""
    if d_model % n_heads:
        suggestion = max(n_heads, round(d_model / n_heads) * n_heads)
        return "n_heads", "err_heads_divide", dict(d_model=d_model, heads=n_heads, suggestion=suggestion)
    if positional == "rope" and (d_model // n_heads) % 2:
        return "positional", "err_rope_head_dim", dict(head_dim=d_model // n_heads)
    if warmup > steps:
        return "warmup", "err_warmup_steps", dict(warmup=warmup, steps=steps)
    return None


def check_spec(task, data, layers, n_heads, d_model, d_ff, positional, norm, activation, dropout, tie_weights,
               lr, warmup, batch_size, steps, lang: str, **stability) -> TrainSpec:
    """Every choice of the form in range and consistent, or a gr.Error saying what to change.
    ``stability``: block_size, schedule, decay_every, decay_factor, clip, grad_clip (see check_stability)."""
    task = check_choice(task, tuple(TASK_PRESETS), lang, "task")
    base = base_preset(task)
    data = "task" if base.synthetic else check_choice(data, DATA_SOURCES, lang, "data")
    number = {name: check_number(value, lang, name, *TRAIN_LIMITS[name], integer=name != "dropout")
              for name, value in dict(layers=layers, n_heads=n_heads, d_model=d_model, d_ff=d_ff, dropout=dropout,
                                      warmup=warmup, batch_size=batch_size, steps=steps).items()}
    lr = check_number(lr, lang, "lr", *TRAIN_LIMITS["lr"])
    positional = check_choice(positional, POSITIONAL_ENCODINGS, lang, "positional")
    norm = check_choice(norm, NORM_PLACEMENTS, lang, "norm")
    activation = check_choice(activation, ACTIVATIONS, lang, "activation")
    tie_weights = bool(check_choice(tie_weights, (True, False), lang, "tie_weights"))
    d_model, heads = number["d_model"], number["n_heads"]
    conflict = form_conflict(heads, d_model, positional, number["warmup"], number["steps"])
    if conflict is not None:
        _, key, fields = conflict
        raise fail(lang, key, **fields)
    model = base.model_config
    try:
        model = model.replace(
            n_encoder_layers=number["layers"] if model.n_encoder_layers else 0,
            n_decoder_layers=number["layers"] if model.n_decoder_layers else 0,
            n_heads=heads, d_model=d_model, d_ff=number["d_ff"], positional=positional, norm=norm,
            activation=activation, dropout=number["dropout"], tie_weights=tie_weights)
        train = base.train_config.replace(lr=lr, warmup_steps=number["warmup"], batch_size=number["batch_size"],
                                          max_steps=number["steps"], eval_every_s=EVAL_EVERY_S,
                                          event_every_s=EVENT_EVERY_S, snapshot_every_s=SNAPSHOT_EVERY_S)
    except ValueError as error:
        raise fail(lang, "err_config", error=str(error)) from None
    preset = check_stability(replace(base, model_config=model, train_config=train), lang, **stability)
    return TrainSpec(task, data, preset)


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
    """The vocabulary the model will have: a task's own, a character tokenizer of pasted text, else the preset's."""
    if spec.preset.tokenizer == "char" and spec.data == "pasted" and isinstance(pasted, str) and pasted:
        return CharTokenizer.from_text(pasted).vocab_size
    if spec.preset.tokenizer == "char" and spec.data == "bundled":
        return CharTokenizer.from_text(bundled_text()).vocab_size
    if spec.preset.tokenizer == "bpe":
        return spec.preset.bpe_vocab_size
    return spec.preset.model_config.vocab_size


def check_size(spec: TrainSpec, vocab_size: int, lang: str) -> tuple[int, float]:
    """(parameters, GFLOPs per step) within what a shared CPU trains live, and a vocabulary the views can
    read (MAX_MODEL_VOCAB, as for an upload), or a gr.Error with the numbers."""
    if vocab_size > MAX_MODEL_VOCAB:
        raise fail(lang, "err_train_vocab", vocab=f"{vocab_size:,}", limit=f"{MAX_MODEL_VOCAB:,}")
    params, gflops = training_cost(spec, vocab_size)
    if params > MAX_TRAIN_PARAMETERS:
        raise fail(lang, "err_train_too_large", params=f"{params:,}", limit=f"{MAX_TRAIN_PARAMETERS:,}")
    if gflops > MAX_TRAIN_STEP_GFLOPS:
        raise fail(lang, "err_train_too_slow", gflops=gflops, limit=MAX_TRAIN_STEP_GFLOPS)
    return params, gflops


_shakespeare_lock = threading.Lock()
_shakespeare: dict[str, object] = {}       # "text" once found; "failed_at" (monotonic) after a failed download


def shakespeare_text(lang: str) -> str:
    """Tiny Shakespeare from a local copy, else downloaded (tried again at most every
    SHAKESPEARE_RETRY_SECONDS), or a gr.Error suggesting another text."""
    with _shakespeare_lock:
        if "text" not in _shakespeare:
            failed_at = _shakespeare.get("failed_at")
            download = failed_at is None or time.monotonic() - failed_at > SHAKESPEARE_RETRY_SECONDS
            try:
                _shakespeare["text"] = tiny_shakespeare(allow_download=download)
            except CorpusUnavailable:
                if download:
                    _shakespeare["failed_at"] = time.monotonic()
                raise fail(lang, "err_shakespeare_missing") from None
        return _shakespeare["text"]


def read_text_file(path, lang: str) -> str:
    """An uploaded .txt file as text: size-capped, UTF-8 (a byte-order mark is dropped), not empty."""
    if not path:
        raise fail(lang, "err_text_file_missing")
    path = Path(path)
    if path.suffix.lower() != ".txt":
        raise fail(lang, "err_text_file_type", name=path.name)
    size = path.stat().st_size
    if size > MAX_TEXT_UPLOAD_BYTES:
        raise fail(lang, "err_text_file_size", size=size / 2**20, limit=MAX_TEXT_UPLOAD_BYTES // 2**20)
    try:
        content = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(lang, "err_text_not_utf8", name=path.name, position=error.start) from None
    if not content.strip():
        raise fail(lang, "err_empty", what=text(lang, "what_train_text"))
    return content


def training_text(spec: TrainSpec, pasted, lang: str) -> str | None:
    """The text a language model trains on (None for tasks that make their own examples)."""
    if spec.synthetic:
        return None
    if spec.data == "bundled":
        return bundled_text()
    if spec.data == "tiny_shakespeare":
        return shakespeare_text(lang)
    if spec.data == "rhyme":
        return rhyme_text()
    return check_text(pasted, lang, MAX_TRAIN_TEXT_CHARS, what="train_text")


def data_name(spec: TrainSpec) -> str:
    """What the model card calls the training data."""
    if spec.data == "task":
        return "repeated random sequences" if spec.preset.task is None else f"the {spec.preset.task} task"
    return "pasted text" if spec.data == "pasted" else spec.data


def build_trainer(spec: TrainSpec, training_data: str | None, lang: str) -> Trainer:
    """A Trainer for the spec on the text (or the task), its size checked before any weight exists."""
    try:
        data = spec.preset.build_data(training_data)
        config = spec.preset.model_config.replace(vocab_size=data.tokenizer.vocab_size)
        check_size(replace(spec, preset=replace(spec.preset, model_config=config)), config.vocab_size, lang)
        return Trainer(config, spec.preset.train_config, data)
    except ValueError as error:                 # the text does not fit the windows or the batch
        raise fail(lang, "err_train_setup", error=str(error)) from None


class TrainingSession:
    """One browser session's training: the spec, the Trainer, the run's state and what was shown.

    A run goes in a worker thread of its own, at a lower CPU priority than the threads that answer
    viewers, so the Trainer never waits for the page and a busy CPU serves viewers first; the
    page's generator reads the worker's items from a queue. At most one run goes at a time.

    state: "idle" (nothing trained yet), "running", "paused" (a run reached RUN_SECONDS),
    "stepped" (Step's steps are done), "stopped", "finished" (every step of the form is done) or
    "diverged". `figures` holds figures the page keeps updating in place (see training_views).
    """

    def __init__(self):
        self.spec: TrainSpec | None = None
        self.trainer: Trainer | None = None
        self.state = "idle"
        self.snapshot: Snapshot | None = None
        self.score_history: list[tuple[int, dict[str, np.ndarray]]] = []
        self.view_kind: str | None = None        # the probe attention shown, e.g. "decoder.cross_attn"
        self.view_score: str | None = None       # the head score followed, e.g. "decoder.cross_attn.diagonal"
        self.entry: ModelEntry | None = None     # the published model
        self.download: Path | None = None
        self.figures: dict[str, object] = {}
        self._published: tuple[Trainer, int] | None = None
        self._worker = Worker()
        self._directory: Path | None = None
        self._closed = False

    @property
    def running(self) -> bool:
        return self._worker.running

    @property
    def last_event(self) -> TrainEvent | None:
        return self.trainer.history[-1] if self.trainer is not None and self.trainer.history else None

    def launch(self, lang: str, build: Callable[[], None] | None = None,
               max_steps: int | None = None) -> Iterator[list]:
        """Start a run in a worker thread and return its items as they come, in batches.

        `build` (run first, in the worker) makes a new Trainer with `begin`; it is followed by the
        BEGUN marker. The run trains at most `max_steps` steps and RUN_SECONDS, then publishes the
        model. Refused with a gr.Error while another run goes. Closing the returned generator asks
        the worker to stop between two steps; the Trainer keeps every state, so the next run
        continues exactly. An error in the worker is raised by the generator.
        """
        return self._worker.launch(lambda put: self._work(put, build, max_steps), fail(lang, "err_train_running"))

    def _work(self, put: Put, build: Callable[[], None] | None, max_steps: int | None) -> None:
        """The worker's job: build, train, publish."""
        if build is not None:
            build()
            put(BEGUN)
        self._train(put, max_steps)
        if self.state == "stopped" and not self._closed and self.trainer.step:
            self._record(self.trainer.snapshot(), False)     # the probe of the model as it stopped
        self.publish()

    def _train(self, put: Put, max_steps: int | None) -> None:
        first_step = self.trainer.step
        self.state = "running"
        with closing(zerogpu.run(self.trainer, max_steps, RUN_SECONDS)) as run:
            for item in run:
                self._record(item, max_steps is not None and self.trainer.step - first_step >= max_steps)
                put(item)
                if self._worker.stopping:
                    self.state = "stopped"
                    return

    def _record(self, item: TrainEvent | Snapshot, stepped: bool) -> None:
        if isinstance(item, Snapshot):
            self.snapshot = item
            self.score_history = [*self.score_history, (item.step, item.head_scores)][-MAX_SCORE_SNAPSHOTS:]
        elif item.status == "paused":
            self.state = "stepped" if stepped else "paused"
        elif item.status != "running":
            self.state = item.status

    def begin(self, spec: TrainSpec, trainer: Trainer, data_label: str) -> None:
        """Start afresh with a new Trainer (the published model, if any, stays); `data_label` names
        a language model's text on its card."""
        preset = replace(spec.preset, model_config=trainer.model_config)
        self.spec = replace(spec, preset=preset if spec.synthetic else replace(preset, corpus=data_label))
        self.trainer = trainer
        self.state = "running"
        self.snapshot = None
        self.score_history = []
        self.view_kind = self.view_score = None
        self.figures = {}

    def stop_and_wait(self, timeout: float = STOP_WAIT_SECONDS) -> bool:
        """Ask a going run to stop; True once no run goes (False if it is still going after `timeout`)."""
        return self._worker.stop_and_wait(timeout)

    def reset(self) -> None:
        """Forget the training (no run may be going); the published model stays in the session."""
        self.spec = self.trainer = self.snapshot = None
        self.state = "idle"
        self.score_history = []
        self.view_kind = self.view_score = None
        self.figures = {}

    def final_event(self) -> TrainEvent:
        """The latest progress with held-out metrics at the current step (evaluating if needed)."""
        trainer = self.trainer
        last = self.last_event
        if last is not None and last.evaluated and last.step == trainer.step:
            return last
        metrics = trainer.evaluate()
        loss = trainer.step_losses[-1] if trainer.step_losses else metrics.val_loss
        return TrainEvent(step=trainer.step, loss=loss, val_loss=metrics.val_loss,
                          perplexity=perplexity(metrics.val_loss), accuracy=metrics.accuracy, bleu=metrics.bleu,
                          exact_match=metrics.exact_match, lr=trainer.lr, grad_norm=last.grad_norm if last else 0.0,
                          tokens_per_s=last.tokens_per_s if last else 0.0, elapsed=trainer.elapsed,
                          status="finished" if trainer.finished else "paused")

    @property
    def model_name(self) -> str:
        return TRAINED_PREFIX + self.spec.task

    def publish(self) -> ModelEntry | None:
        """A frozen copy of the trained model as a session model, written as a .safetensors file with
        its config, tokenizer and card; None before the first step. Only the worker publishes."""
        trainer = self.trainer
        if trainer is None or trainer.step == 0 or self._closed:
            return self.entry
        if self._published == (trainer, trainer.step):
            return self.entry
        final = self.final_event()
        model = freeze(copy.deepcopy(trainer.model).cpu())         # views read models on the CPU
        model_card = card(self.spec.preset, trainer, final, CARD_COMMAND)
        payload = to_bytes(model, trainer.tokenizer, model_card, metadata(self.spec.preset, trainer, final, CARD_COMMAND))
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix="playground-train-"))
        self.download = self._directory / f"{self.model_name}.safetensors"
        self.download.write_bytes(payload)
        self.entry = ModelEntry(self.model_name, model, trainer.tokenizer, trainer.model_config, model_card, "session",
                                held_out_loss=final.val_loss)
        self._published = (trainer, trainer.step)
        return self.entry

    def close(self) -> None:
        """The session is gone: stop its run and delete its download file."""
        self._closed = True
        self._worker.stop()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None

