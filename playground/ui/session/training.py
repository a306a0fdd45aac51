"""A session's live training: a Trainer built from the Train tab's TrainSpec (playground.train.recipes,
refusals in the session's language), and runs in a worker thread whose items the page streams, so that Stop, Resume and closing
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
from dataclasses import replace
from pathlib import Path
from typing import Callable, Hashable, Iterator

import numpy as np

from playground.checkpoint import to_bytes
from playground.checks import InputError
from playground.data import CorpusUnavailable, bundled_text, rhyme_text, tang_poems_text, tiny_shakespeare
from playground.train import Snapshot, Trainer, TrainEvent, recipes, zerogpu
from playground.train.card import card, metadata
from playground.train.metrics import perplexity
from playground.train.recipes import (  # noqa: F401  (the tab's names for the recipes)
    DATA_BLOCK_SIZES,
    DATA_SOURCES,
    TASK_PRESETS,
    TrainSpec,
    base_preset,
    data_name,
    estimated_vocab,
    form_defaults,
    sequence_length,
    stability_defaults,
    takes_text,
    training_cost,
)
from playground.zoo import ModelEntry, freeze

from ..inputs.validation import MAX_TEXT_UPLOAD_BYTES, MAX_TRAIN_TEXT_CHARS, check_text, fail, refused
from ..text.i18n import text
from .examples import own_examples
from .worker import STOP_WAIT_SECONDS, Put, Worker

RUN_SECONDS = 90.0            # one Start / Resume trains at most this long, then the slot goes to the next in line
STEP_SIZE = 10                # optimisation steps per press of Step
MAX_SCORE_SNAPSHOTS = 200     # head scores kept for the over-training figure
SHAKESPEARE_RETRY_SECONDS = 600.0
TRAINED_PREFIX = "trained-"
LESSON_PREFIX = "lesson-"     # a lesson's live run: its model is kept beside the one trained in the Train tab
BEGUN = "begun"               # a run's first item after `build` made a new Trainer
CARD_COMMAND = "Trained live in the Transformer Playground's Train tab (settings above)."


def check_size(spec: TrainSpec, vocab_size: int, lang: str) -> tuple[int, float]:
    """(parameters, GFLOPs per step) within what a shared CPU trains live, or a gr.Error with both numbers."""
    try:
        return recipes.check_size(spec, vocab_size)
    except InputError as error:
        raise refused(error, lang) from None


def build_trainer(spec: TrainSpec, training_data: str | None, lang: str) -> Trainer:
    """A Trainer for the spec on the text (or the task), its size checked before any weight exists."""
    try:
        return recipes.build_trainer(spec, training_data)
    except InputError as error:
        raise refused(error, lang) from None


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
    if spec.data == "tang_poems":
        return tang_poems_text()
    return check_text(pasted, lang, MAX_TRAIN_TEXT_CHARS, what="train_text")


class TrainingLine:
    """The app's Train tab runs across sessions, for a waiting student's estimate: who waits for a
    training slot (pressed Start or Resume, not running yet) and when each running run began.

    A session is known by a key (its workspace's id). A wait never followed by a run (the page
    closed while in line) is forgotten after FORGET_WAIT_S.
    """

    FORGET_WAIT_S = 900.0

    def __init__(self):
        self._lock = threading.Lock()
        self._waiting: dict[Hashable, float] = {}   # key -> when it joined the line
        self._running: dict[Hashable, float] = {}   # key -> when its run began

    def waits(self, key: Hashable) -> None:
        with self._lock:
            self._waiting[key] = time.monotonic()

    def runs(self, key: Hashable) -> None:
        with self._lock:
            self._waiting.pop(key, None)
            self._running[key] = time.monotonic()

    def ends(self, key: Hashable) -> None:
        with self._lock:
            self._waiting.pop(key, None)
            self._running.pop(key, None)

    def estimate(self, key: Hashable, slots: int, run_s: float = RUN_SECONDS) -> tuple[int, float]:
        """(place in line, 1 for the next to start; seconds until a slot is likely free for it), each
        run lasting at most `run_s` (an upper bound: a run that finishes its steps ends sooner)."""
        now = time.monotonic()
        with self._lock:
            self._waiting = {k: t for k, t in self._waiting.items() if now - t < self.FORGET_WAIT_S}
            joined = self._waiting.get(key, now)
            place = 1 + sum(1 for k, t in self._waiting.items() if k != key and t <= joined)
            ends = sorted(max(0.0, began + run_s - now) for began in self._running.values())
        frees = sorted(ends + [0.0] * max(0, slots - len(ends)))[:slots]
        for _ in range(place - 1):                    # those before in line take the slots as they free
            frees = sorted(frees[1:] + [frees[0] + run_s])
        return place, frees[0]


LINE = TrainingLine()


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
        self.prefix = TRAINED_PREFIX              # of the published model's name (see model_name)
        self.download: Path | None = None
        self.download_best: Path | None = None   # the weights at the lowest validation loss, when not the last
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

    def begin(self, spec: TrainSpec, trainer: Trainer, data_label: str, prefix: str = TRAINED_PREFIX) -> None:
        """Start afresh with a new Trainer (the published model, if any, stays); `data_label` names
        a language model's text on its card; the model is published as `prefix` + its task."""
        self.prefix = prefix
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
        return self.prefix + self.spec.task

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
        examples = own_examples(_data_of(trainer), trainer.tokenizer)
        payload = to_bytes(model, trainer.tokenizer, model_card, self._metadata(trainer, final, examples))
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix="playground-train-"))
        self.download = self._directory / f"{self.model_name}.safetensors"
        self.download.write_bytes(payload)
        self.download_best = self._best_file(trainer, examples)
        self.entry = ModelEntry(self.model_name, model, trainer.tokenizer, trainer.model_config, model_card, "session",
                                held_out_loss=final.val_loss, examples=examples)
        self._published = (trainer, trainer.step)
        return self.entry

    def _metadata(self, trainer: Trainer, event: TrainEvent, examples: tuple[str, ...]) -> dict:
        """The training metadata a file of the run records, with the model's examples: the model the
        browser keeps comes back with its held-out loss and its examples (kept_models.kept_entry)."""
        return {**metadata(self.spec.preset, trainer, event, CARD_COMMAND), "examples": list(examples)}

    def _best_file(self, trainer: Trainer, examples: tuple[str, ...]) -> Path | None:
        """The weights at the run's lowest validation loss as a .safetensors file beside the last ones,
        when they are other weights (an earlier step); None otherwise."""
        best = trainer.best
        if best is None or best.step == trainer.step:
            return None
        model = copy.deepcopy(trainer.model).cpu()
        model.load_state_dict(best.state)
        evaluated = next(e for e in reversed(trainer.history) if e.step == best.step and e.evaluated)
        model_card = card(self.spec.preset, trainer, evaluated, CARD_COMMAND)
        path = self._directory / f"{self.model_name}-best-step{best.step}.safetensors"
        path.write_bytes(to_bytes(freeze(model), trainer.tokenizer, model_card,
                                  self._metadata(trainer, evaluated, examples)))
        return path

    def close(self) -> None:
        """The session is gone: stop its run and delete its download file."""
        self._closed = True
        self._worker.stop()
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None


def _data_of(trainer: Trainer):
    """The data a trainer learns from: its seq2seq task, or its text (LMData / MLMData)."""
    objective = trainer.objective
    return getattr(objective, "task", None) or getattr(objective, "data", None)
