"""Trainer: AdamW with a warm-up and a learning-rate schedule, run as a generator of progress events.

    trainer = Trainer(model_config, TrainConfig(lr=3e-3, max_steps=1000), tasks.get("copy"))
    for item in trainer.run(max_seconds=30):     # TrainEvent every event_every_s, Snapshot now and then
        ...
    for item in trainer.run():                   # continues exactly where the first run stopped

Every piece of state that decides the next step (model, optimiser moments, step counter, data
random streams, the random streams dropout draws from on the CPU and on a GPU) lives on the
Trainer, and a run only ever pauses between two whole steps. So closing the generator and calling
``run`` again gives the same losses and weights as one uninterrupted run on the same device;
evaluation and snapshots never touch that state.

On a CUDA GPU a step does not wait for the GPU: matmuls use TF32, the forward pass runs under
bfloat16 autocast where the GPU supports it (TrainConfig.bf16_autocast; see
playground.train.precision), AdamW is fused, language-model batches are drawn on the GPU, and a
step's loss and gradient norm stay there until the next event reads them all at once (every
``event_every_s``). The promise that a bad step's weights are never kept holds without reading
them: each step checks on the GPU that its loss and gradient norm are finite, and the fused AdamW
skips its whole update (weights, moments, step count) when told a check failed, through the
``found_inf`` flag torch's own GradScaler skips steps with. Once one step has failed every later
one is skipped too, so the weights stay those of the last good step until the event reads the
losses, finds the first bad one, and the run ends "diverged" exactly as on the CPU, where each
step's loss is read at once (reading costs nothing there).
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import torch
from torch import nn

from playground.device import default_device
from playground.model import ModelConfig, build_model
from playground.train import precision
from playground.train.config import TrainConfig
from playground.train.events import Snapshot, TrainEvent
from playground.train.gradients import group_grad_norms, parameter_groups
from playground.train.metrics import perplexity
from playground.train.objectives import Metrics, Objective, build_objective
from playground.train.schedule import learning_rate

FUSED_DEVICE_TYPES = ("cuda",)      # where AdamW runs fused and a step's loss is read at event time, not at once
MAX_UNREAD_STEPS = 1_000            # read them then anyway, however far the next event is


@dataclass(frozen=True)
class BestWeights:
    """The model's weights (on the CPU) at the evaluation with the lowest validation loss of a run: what
    to keep when training past that point only fits the training data better."""

    step: int
    val_loss: float
    state: dict[str, torch.Tensor]


class Trainer:
    """Trains one model on one data object (a seq2seq task, LMData or MLMData).

    Attributes: ``model``, ``tokenizer``, ``step`` (optimisation steps done), ``elapsed``
    (training seconds so far), ``history`` (every TrainEvent yielded), ``step_losses`` (the
    loss of every step), ``last_snapshot``, ``best`` (BestWeights: the weights at the lowest
    validation loss so far), ``device``, ``trained_on`` (device type -> how its steps computed
    there, e.g. {"cuda": "bfloat16 autocast, TF32 matmuls", "cpu": "float32"}).
    Raises ValueError before any work when the data does not fit the architecture or the
    hyperparameters do not fit the data. The model (a given one too) is moved to the process's
    device (playground.device) and trains there; ``to`` moves the whole trainer.
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
        self.model = model if model is not None else self._new_model()
        self._params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = self._new_optimizer()
        self.step = 0
        self.elapsed = 0.0
        self.history: list[TrainEvent] = []
        self.step_losses: list[float] = []
        self.last_snapshot: Snapshot | None = None
        self.last_metrics: Metrics | None = None
        self.best: BestWeights | None = None   # the weights at the lowest validation loss so far
        self.failure: str | None = None        # set when a step's loss or gradient was NaN / inf
        self.trained_on: dict[str, str] = {}   # device type -> how it computed there, in the order trained on
        self._grad_norm = 0.0
        self._groups = parameter_groups(self.model)
        self._layer_grad_norms: torch.Tensor | None = None   # [G] of the latest step, read at the next event
        self._failed_loss = math.nan
        self._tokens_since_event = 0
        self._last_eval_at = 0.0
        self._last_snapshot_at: float | None = None
        self._rng_state = torch.Generator().manual_seed(train_config.seed).get_state()  # dropout's random stream
        self._cuda_rng_state: torch.Tensor | None = None   # dropout's stream on CUDA, seeded on first use there
        self._unread: list[torch.Tensor] = []              # [loss, grad norm] of each step not read yet (CUDA)
        self._unread_tokens: list[int] = []
        self._healthy: torch.Tensor | None = None          # on the GPU: every unread step was finite
        self.to(default_device())

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

    def to(self, device: torch.device | str) -> "Trainer":
        """Move the model, the optimizer's state and the data's random streams to ``device``; training
        continues exactly there. On CUDA, AdamW runs fused; elsewhere as torch picks (foreach)."""
        device = torch.device(device)
        self._read_steps()
        self.model.to(device)
        fused = device.type in FUSED_DEVICE_TYPES
        for group in self.optimizer.param_groups:
            group["fused"] = True if fused else None
        for state in self.optimizer.state.values():
            for key, value in state.items():
                if torch.is_tensor(value):          # unfused, AdamW counts its steps on the CPU
                    state[key] = value.to(device) if key != "step" or fused else value.cpu()
        self.optimizer.__dict__.pop("found_inf", None)
        self.objective.to(device)
        if self._layer_grad_norms is not None:
            self._layer_grad_norms = self._layer_grad_norms.to(device)
        self.device = device
        self._reads_on_device = fused
        self._bfloat16 = precision.uses_bfloat16(device, self.config)
        return self

    @property
    def precision(self) -> str:
        """How a step computes on the trainer's device, e.g. "bfloat16 autocast, TF32 matmuls"."""
        return precision.describe(self.device, self._bfloat16)

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
        """One optimisation step; returns its loss (on CUDA, waiting for the step, which ``run`` never does).

        A NaN or infinite loss or gradient norm skips the update and sets ``failure``; the
        model keeps the weights of the last good step.
        """
        if self.failure is not None:
            raise RuntimeError(f"training stopped: {self.failure}")
        self._step()
        self._read_steps()
        return self._failed_loss if self.failure is not None else self.step_losses[-1]

    def _step(self) -> None:
        """One optimisation step; on CUDA its loss and gradient norm are left on the GPU (see the module docstring)."""
        lr = learning_rate(self.step, self.config, self.model_config.d_model)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        batch = self.objective.next_batch()
        self.model.train()
        if self.device.type not in self.trained_on:
            self.trained_on[self.device.type] = self.precision
        with self._random_streams(), precision.computing(self.device):
            with precision.forward(self.device, self._bfloat16):
                loss = self.objective.loss(self.model, batch)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
        self._layer_grad_norms = group_grad_norms(self._groups)                     # [G]
        grad_norm = torch.linalg.vector_norm(self._layer_grad_norms)        # the groups partition the parameters
        clip = self.config.grad_clip if self.config.grad_clip is not None else math.inf
        torch.nn.utils.clip_grads_with_norm_(self._params, clip, grad_norm)
        if self._reads_on_device:
            self._update_unread(loss.detach(), grad_norm, batch.n_tokens)
        else:
            self._update_read(loss.item(), float(grad_norm), lr, batch.n_tokens)

    def _update_read(self, loss: float, grad_norm: float, lr: float, n_tokens: int) -> None:
        """The update of a step whose loss and gradient norm were read: skipped, ending training, when
        either is not finite."""
        self._grad_norm = grad_norm
        if not (math.isfinite(loss) and math.isfinite(grad_norm)):
            self.optimizer.zero_grad(set_to_none=True)
            self._fail(loss, grad_norm, lr)
            return
        self.optimizer.step()
        self.step += 1
        self.step_losses.append(loss)
        self._tokens_since_event += n_tokens

    def _update_unread(self, loss: torch.Tensor, grad_norm: torch.Tensor, n_tokens: int) -> None:
        """The update of a step on CUDA, applied only while every step so far was finite, decided on the GPU."""
        values = torch.stack((loss.float(), grad_norm.float()))               # [2]
        finite = torch.isfinite(values).all()
        self._healthy = finite if self._healthy is None else self._healthy & finite
        self.optimizer.found_inf = (~self._healthy).float()      # 1: the fused AdamW leaves everything as it is
        self.optimizer.step()
        self.step += 1
        self._unread.append(values)
        self._unread_tokens.append(n_tokens)
        if len(self._unread) >= MAX_UNREAD_STEPS:
            self._read_steps()

    def _read_steps(self) -> None:
        """Read the losses and gradient norms of the steps left on the GPU (one wait for it). A step
        that was not finite ends training as on the CPU: its update and every later one were skipped."""
        if not self._unread:
            return
        values = torch.stack(self._unread).tolist()                # [steps, 2]
        tokens, first = self._unread_tokens, self.step - len(self._unread)
        self._unread, self._unread_tokens, self._healthy = [], [], None
        self.optimizer.__dict__.pop("found_inf", None)
        for i, (loss, grad_norm) in enumerate(values):
            self._grad_norm = grad_norm
            if not (math.isfinite(loss) and math.isfinite(grad_norm)):
                self.step = first + i
                self._fail(loss, grad_norm, learning_rate(self.step, self.config, self.model_config.d_model))
                return
            self.step_losses.append(loss)
            self._tokens_since_event += tokens[i]

    def _fail(self, loss: float, grad_norm: float, lr: float) -> None:
        self._failed_loss = loss
        self.failure = self._failure_message(loss, grad_norm, lr)

    @contextmanager
    def _random_streams(self) -> Iterator[None]:
        """Dropout draws from the trainer's own random streams, the CPU's and, on CUDA, the GPU's;
        the process's streams are left as they were."""
        cuda = self.device.type == "cuda"
        forked = (torch.random.fork_rng(devices=[self.device], device_type="cuda") if cuda
                  else torch.random.fork_rng(devices=[]))
        with forked:
            torch.set_rng_state(self._rng_state)
            if cuda:
                if self._cuda_rng_state is None:
                    self._cuda_rng_state = torch.Generator(self.device).manual_seed(self.config.seed).get_state()
                torch.cuda.set_rng_state(self._cuda_rng_state, self.device)
            yield
            self._rng_state = torch.get_rng_state()
            if cuda:
                self._cuda_rng_state = torch.cuda.get_rng_state(self.device)

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
            with precision.computing(self.device):
                self.last_metrics = self.objective.evaluate(self.model)
        finally:
            self.model.train(was_training)
        return self.last_metrics

    def snapshot(self) -> Snapshot:
        """Attention and head scores on the fixed probe input, and a few samples, at the current step."""
        was_training = self.model.training
        self.model.eval()
        try:
            with precision.computing(self.device):
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
        interval = len(self.step_losses)               # the losses of the steps since the last event start here
        stepped = False
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
                    self._read_steps()
                    status = "diverged" if self.failure is not None else status
                    break
                if stepped and now - event_started >= config.event_every_s:
                    self._read_steps()
                    if self.failure is not None:
                        continue                       # the next turn ends the run
                    yield self._event(self.step_losses[interval:], now - event_started,
                                      self._due(self._last_eval_at, config.eval_every_s))
                    if self._due(self._last_snapshot_at, config.snapshot_every_s):
                        yield self._timed_snapshot()
                    interval, stepped, self._tokens_since_event = len(self.step_losses), False, 0
                    clock = event_started = time.perf_counter()
                    continue
                self._step()
                stepped = True
            seconds = time.perf_counter() - event_started
            if status == "diverged":
                yield self._event([self._failed_loss], seconds, evaluate=False, status=status)
                return
            if snapshots:
                yield self._timed_snapshot()
            yield self._event(self.step_losses[interval:], seconds, evaluate=True, status=status)
        finally:
            self.model.eval()

    def _read_layer_grad_norms(self) -> dict[str, float]:
        if self._layer_grad_norms is None:
            return {}
        return dict(zip(self._groups, self._layer_grad_norms.tolist()))

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
            layer_grad_norms=self._read_layer_grad_norms(),
        )
        self.history.append(event)
        if metrics is not None and math.isfinite(metrics.val_loss) and (
                self.best is None or metrics.val_loss < self.best.val_loss):
            self.best = BestWeights(self.step, metrics.val_loss, {name: tensor.detach().to("cpu", copy=True)
                                                                  for name, tensor in self.model.state_dict().items()})
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
