"""Trainer: AdamW with a warm-up and a learning-rate schedule, run as a generator of progress events.

    trainer = Trainer(model_config, TrainConfig(lr=3e-3, max_steps=1000), tasks.get("copy"))
    for item in trainer.run(max_seconds=30):     # TrainEvent every event_every_s, Snapshot now and then
        ...
    for item in trainer.run():                   # continues exactly where the first run stopped

Every piece of state that decides the next step (model, optimiser moments, step counter, data
random streams, the random state used by dropout) lives on the Trainer, and a run only ever
pauses between two whole steps. So closing the generator and calling ``run`` again gives the same
losses and weights as one uninterrupted run; evaluation and snapshots never touch that state.
"""
from __future__ import annotations

import math
import time
from typing import Iterator

import torch
from torch import nn

from playground.device import default_device
from playground.model import ModelConfig, build_model
from playground.train.config import TrainConfig
from playground.train.events import Snapshot, TrainEvent
from playground.train.metrics import perplexity
from playground.train.objectives import Metrics, Objective, build_objective
from playground.train.schedule import learning_rate


class Trainer:
    """Trains one model on one data object (a seq2seq task, LMData or MLMData).

    Attributes: ``model``, ``tokenizer``, ``step`` (optimisation steps done), ``elapsed``
    (training seconds so far), ``history`` (every TrainEvent yielded), ``step_losses`` (the
    loss of every step), ``last_snapshot``. Raises ValueError before any work when the data
    does not fit the architecture or the hyperparameters do not fit the data. The model (a given
    one too) is moved to the process's device (playground.device) and trains there.
    """

    def __init__(self, model_config: ModelConfig, train_config: TrainConfig, data, model: nn.Module | None = None):
        if not isinstance(model_config, ModelConfig):
            raise TypeError(f"model_config must be a playground.model.ModelConfig, got {type(model_config).__name__}")
        if not isinstance(train_config, TrainConfig):
            raise TypeError(f"train_config must be a TrainConfig, got {type(train_config).__name__}")
        if model is not None and getattr(model, "config", None) != model_config:
            raise ValueError("the given model was built from a different ModelConfig; pass model.config as model_config")
        self.model_config = model_config
        self.config = train_config
        self.objective: Objective = build_objective(data, model_config, train_config)
        self.tokenizer = self.objective.tokenizer
        self.model = (model if model is not None else self._new_model()).to(default_device())
        self._params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = self._new_optimizer()
        self.step = 0
        self.elapsed = 0.0
        self.history: list[TrainEvent] = []
        self.step_losses: list[float] = []
        self.last_snapshot: Snapshot | None = None
        self.last_metrics: Metrics | None = None
        self.failure: str | None = None        # set when a step's loss or gradient was NaN / inf
        self._grad_norm = 0.0
        self._tokens_since_event = 0
        self._last_eval_at = 0.0
        self._last_snapshot_at: float | None = None
        self._rng_state = torch.Generator().manual_seed(train_config.seed).get_state()  # dropout's random stream

    def _new_model(self) -> nn.Module:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.config.seed)
            return build_model(self.model_config)

    def _new_optimizer(self) -> torch.optim.Optimizer:
        """AdamW; matrices and embeddings decay, biases and LayerNorm gains do not."""
        decay = [p for p in self._params if p.dim() >= 2]
        no_decay = [p for p in self._params if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": self.config.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=self.config.lr, betas=(self.config.beta1, self.config.beta2))

    def to(self, device: torch.device) -> "Trainer":
        """Move the model and the optimizer's state to ``device``; training continues exactly there."""
        self.model.to(device)
        for state in self.optimizer.state.values():
            for key, value in state.items():
                if torch.is_tensor(value) and key != "step":     # AdamW counts its steps on the CPU
                    state[key] = value.to(device)
        return self

    @property
    def finished(self) -> bool:
        """True once max_steps or max_seconds of the config is reached."""
        limit = self.config.max_seconds
        return self.step >= self.config.max_steps or (limit is not None and self.elapsed >= limit)

    @property
    def lr(self) -> float:
        """The learning rate of the latest step (of the first step before any)."""
        return learning_rate(max(self.step - 1, 0), self.config, self.model_config.d_model)

    def train_step(self) -> float:
        """One optimisation step; returns its loss.

        A NaN or infinite loss or gradient norm skips the update and sets ``failure``; the
        model keeps the weights of the last good step.
        """
        if self.failure is not None:
            raise RuntimeError(f"training stopped: {self.failure}")
        lr = learning_rate(self.step, self.config, self.model_config.d_model)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        batch = self.objective.next_batch()
        self.model.train()
        with torch.random.fork_rng(devices=[]):
            torch.set_rng_state(self._rng_state)
            loss = self.objective.loss(self.model, batch)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self._rng_state = torch.get_rng_state()
        clip = self.config.grad_clip if self.config.grad_clip is not None else math.inf
        grad_norm = float(torch.nn.utils.clip_grad_norm_(self._params, clip))
        value = loss.item()
        self._grad_norm = grad_norm
        if not (math.isfinite(value) and math.isfinite(grad_norm)):
            self.optimizer.zero_grad(set_to_none=True)
            self.failure = self._failure_message(value, grad_norm, lr)
            return value
        self.optimizer.step()
        self.step += 1
        self.step_losses.append(value)
        self._tokens_since_event += batch.n_tokens
        return value

    def _failure_message(self, loss: float, grad_norm: float, lr: float) -> str:
        what = f"the loss became {loss}" if not math.isfinite(loss) else f"the gradient norm became {grad_norm}"
        clipping = ", or turn gradient clipping on (grad_clip=1.0)" if self.config.grad_clip is None else ""
        return (f"{what} at step {self.step + 1} (learning rate {lr:.3g}); the weights of step {self.step} are kept. "
                f"Lower the learning rate (try {lr / 10:.2g}) or use more warm-up steps{clipping}")

    def evaluate(self) -> Metrics:
        """Held-out loss, token accuracy and exact match (seq2seq) of the current model."""
        was_training = self.model.training
        self.model.eval()
        try:
            self.last_metrics = self.objective.evaluate(self.model)
        finally:
            self.model.train(was_training)
        return self.last_metrics

    def snapshot(self) -> Snapshot:
        """Attention and head scores on the fixed probe input, and a few samples, at the current step."""
        was_training = self.model.training
        self.model.eval()
        try:
            probe = self.objective.probe(self.model)
            samples = self.objective.samples(self.model)
        finally:
            self.model.train(was_training)
        self.last_snapshot = Snapshot(self.step, probe.text, probe.attention, probe.tokens, probe.head_scores, samples)
        return self.last_snapshot

    def run(self, max_steps: int | None = None, max_seconds: float | None = None) -> Iterator[TrainEvent | Snapshot]:
        """Train, yielding a TrainEvent at most every ``event_every_s`` and a Snapshot now and then.

        Stops after ``max_steps`` more steps or ``max_seconds`` more seconds of this call (status
        "paused"), when the config's max_steps / max_seconds are reached ("finished"), or at a
        NaN / inf loss ("diverged"); the last item yielded is always that final TrainEvent,
        just after a final Snapshot. A first run also yields a Snapshot of the untrained model.
        Closing the generator stops between two steps; ``run`` again continues exactly.
        Time spent by the caller between two items does not count as training time.
        """
        _check_cap("max_steps", max_steps, integer=True)
        _check_cap("max_seconds", max_seconds, integer=False)
        return self._run(max_steps, max_seconds)

    def run_steps(self, n: int) -> Iterator[TrainEvent | Snapshot]:
        """``n`` more steps (fewer if the run finishes first), then a final snapshot and event."""
        return self.run(max_steps=n)

    def _run(self, max_steps: int | None, max_seconds: float | None) -> Iterator[TrainEvent | Snapshot]:
        config = self.config
        snapshots = config.snapshot_every_s is not None
        if snapshots and self.failure is None and self.step == 0 and self._last_snapshot_at is None:
            yield self._timed_snapshot()
        first_step, run_seconds = self.step, 0.0
        losses: list[float] = []
        self._tokens_since_event = 0
        clock = event_started = time.perf_counter()
        try:
            while True:
                now = time.perf_counter()
                run_seconds += now - clock
                self.elapsed += now - clock
                clock = now
                status = "diverged" if self.failure is not None else self._stop_status(
                    first_step, run_seconds, max_steps, max_seconds)
                if status is not None:
                    break
                if losses and now - event_started >= config.event_every_s:
                    yield self._event(losses, now - event_started, self._due(self._last_eval_at, config.eval_every_s))
                    if self._due(self._last_snapshot_at, config.snapshot_every_s):
                        yield self._timed_snapshot()
                    losses, self._tokens_since_event = [], 0
                    clock = event_started = time.perf_counter()
                    continue
                losses.append(self.train_step())
            seconds = time.perf_counter() - event_started
            if status == "diverged":
                yield self._event(losses[-1:], seconds, evaluate=False, status=status)
                return
            if snapshots:
                yield self._timed_snapshot()
            yield self._event(losses, seconds, evaluate=True, status=status)
        finally:
            self.model.eval()

    def _timed_snapshot(self) -> Snapshot:
        started = time.perf_counter()
        snapshot = self.snapshot()
        self.elapsed += time.perf_counter() - started
        self._last_snapshot_at = self.elapsed
        return snapshot

    def _due(self, last: float | None, every: float | None) -> bool:
        return every is not None and (last is None or self.elapsed - last >= every)

    def _stop_status(self, first_step: int, run_seconds: float, max_steps: int | None, max_seconds: float | None):
        if self.finished:
            return "finished"
        if (max_steps is not None and self.step - first_step >= max_steps) or (
                max_seconds is not None and run_seconds >= max_seconds):
            return "paused"
        return None

    def _event(self, losses: list[float], seconds: float, evaluate: bool, status: str = "running") -> TrainEvent:
        """The event closing an interval of ``seconds`` with these step losses; evaluates when asked."""
        metrics = None
        if evaluate:
            started = time.perf_counter()
            metrics = self.evaluate()
            self.elapsed += time.perf_counter() - started
            self._last_eval_at = self.elapsed
        if losses:
            loss = sum(losses) / len(losses)
        else:
            loss = self.step_losses[-1] if self.step_losses else math.nan
        event = TrainEvent(
            step=self.step,
            loss=loss,
            val_loss=metrics.val_loss if metrics else None,
            perplexity=perplexity(metrics.val_loss) if metrics else None,
            accuracy=metrics.accuracy if metrics else None,
            exact_match=metrics.exact_match if metrics else None,
            lr=self.lr,
            grad_norm=self._grad_norm,
            tokens_per_s=self._tokens_since_event / seconds if seconds > 0 else 0.0,
            elapsed=self.elapsed,
            status=status,
            message=self.failure if status == "diverged" else "",
            bleu=metrics.bleu if metrics else None,
        )
        self.history.append(event)
        return event


def _check_cap(name: str, value, integer: bool) -> None:
    if value is None:
        return
    if integer:
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
        kind = "an integer >= 1"
    else:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
        kind = "a number of seconds > 0"
    if not ok:
        raise ValueError(f"run({name}=...) must be {kind}, or None for no cap, got {value!r}")
