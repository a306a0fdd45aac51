"""Running a lab: every variant trained side by side, as a generator of progress events.

    run = LabRun(get_lab("causal-mask"))
    for progress in run.run():          # stream to the page; closing the generator stops
        ...                             # run.histories() has the curves so far
    result = run.result()               # plain data: curves, final metrics, attention, checks

Variants are interleaved: each round trains every variant for the same number of steps, so the
curves grow together and a stopped run compares the variants at the same step. A round is not
started when the lab's time budget would run out before it ends.
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Iterator, Literal

from playground.train import Trainer, TrainEvent

from .checks import Check
from .lab import Lab
from .results import HISTORY_COLUMNS, CheckResult, LabResult, VariantResult

Phase = Literal["start", "train", "end"]
NO_INTERMEDIATE_EVENTS_S = 1e9          # a trainer reports once per round, at the round's end


@dataclass(frozen=True)
class LabProgress:
    """Where a lab run stands.

    phase: "start" (variants built and measured), "train" (``variant`` finished a round), "end"
        (every variant done and measured; ``run.result()`` is ready).
    step / max_steps, loss (mean of the round), val_loss, accuracy, exact_match, status ("paused",
        "finished", "diverged") and message: of ``variant`` (None outside "train").
    fraction: share of the lab's planned steps done; elapsed: seconds spent inside the run.
    """

    lab_id: str
    phase: Phase
    variant: str | None
    step: int
    max_steps: int
    loss: float | None
    val_loss: float | None
    accuracy: float | None
    exact_match: float | None
    status: str
    message: str
    fraction: float
    elapsed: float


class LabRun:
    """One run of a lab: a Trainer per variant, all on the lab's seed and data."""

    def __init__(self, lab: Lab, budget_s: float | None = None):
        if not isinstance(lab, Lab):
            raise TypeError(f"LabRun needs a Lab (see playground.labs.get_lab), got {type(lab).__name__}")
        if budget_s is not None and not (isinstance(budget_s, (int, float)) and budget_s > 0):
            raise ValueError(f"budget_s must be a number of seconds > 0, got {budget_s!r}")
        self.lab = lab
        self.budget_s = float(budget_s if budget_s is not None else lab.budget_s)
        self.trainers: dict[str, Trainer] = {}
        self.elapsed = 0.0
        self.stopped_early = False
        self._start_checks: list[CheckResult] = []
        self._end_checks: list[CheckResult] = []
        self._start_snapshots = {}
        self._end_snapshots = {}
        self._start_metrics = {}
        self._ended = False

    @property
    def steps_per_round(self) -> int:
        return math.ceil(self.lab.train_config.max_steps / self.lab.rounds)

    def run(self) -> Iterator[LabProgress]:
        """Build and measure the variants (first call), train them in rounds, measure again at the end.

        Calling ``run`` again after closing the generator continues where it stopped. Time spent
        by the caller between two events does not count against the budget.
        """
        clock = _Clock(self)
        if not self._start_metrics:
            self.prepare()
            self._measure_start()
            yield from self._emit(clock, "start", None)
        while not self._training_done():
            round_started = clock.read()
            for variant, trainer in self._active():
                self._train_round(trainer)
                yield from self._emit(clock, "train", variant)
            round_seconds = clock.read() - round_started
            if not self._training_done() and self.elapsed + round_seconds > self.budget_s:
                self.stopped_early = True
        if not self._ended:
            self._measure_end()
            self._ended = True
            yield from self._emit(clock, "end", None)

    def _emit(self, clock: _Clock, phase: Phase, variant: str | None) -> Iterator[LabProgress]:
        clock.read()
        yield self._progress(phase, variant)
        clock.restart()

    def prepare(self) -> None:
        """Build every variant's Trainer on the shared data and install its bug (once; ``run`` calls it)."""
        if self.trainers:
            return
        for variant in self.lab.variants:
            data = (variant.data or self.lab.data).build()
            model_config, train_config = self.lab.configs(variant, data.tokenizer.vocab_size)
            quiet = train_config.replace(eval_every_s=None, event_every_s=NO_INTERMEDIATE_EVENTS_S,
                                         snapshot_every_s=None)
            trainer = Trainer(model_config, quiet, data)
            if variant.bug is not None:
                variant.bug(trainer.model)
            self.trainers[variant.id] = trainer

    def _measure_start(self) -> None:
        self._start_checks = self._measure("start")
        for variant, trainer in self.trainers.items():
            self._start_snapshots[variant] = trainer.snapshot()
            self._start_metrics[variant] = trainer.evaluate()

    def _measure_end(self) -> None:
        self._end_checks = self._measure("end")
        for variant, trainer in self.trainers.items():
            self._end_snapshots[variant] = trainer.snapshot()

    def _measure(self, stage: str) -> list[CheckResult]:
        return [_result(check, check.measure(self.trainers)) for check in self.lab.checks if check.stage == stage]

    def _training_done(self) -> bool:
        return self.stopped_early or not self._active()

    def _active(self) -> list[tuple[str, Trainer]]:
        return [(v, t) for v, t in self.trainers.items() if not t.finished and t.failure is None]

    def _train_round(self, trainer: Trainer) -> None:
        for _ in trainer.run(max_steps=self.steps_per_round):
            pass

    def _progress(self, phase: Phase, variant: str | None) -> LabProgress:
        planned = self.lab.train_config.max_steps * len(self.trainers)
        done = sum(t.step for t in self.trainers.values())
        fraction = 1.0 if phase == "end" else min(1.0, done / planned)
        event = self.trainers[variant].history[-1] if variant is not None else None
        return LabProgress(
            lab_id=self.lab.id, phase=phase, variant=variant,
            step=event.step if event else 0, max_steps=self.lab.train_config.max_steps,
            loss=_finite(event.loss) if event else None, val_loss=_finite(event.val_loss) if event else None,
            accuracy=event.accuracy if event else None, exact_match=event.exact_match if event else None,
            status=event.status if event else "", message=event.message if event else "",
            fraction=fraction, elapsed=self.elapsed,
        )

    def histories(self) -> dict[str, dict[str, list]]:
        """Variant id -> history so far (columns HISTORY_COLUMNS; see VariantResult)."""
        return {variant: self._history(variant, trainer) for variant, trainer in self.trainers.items()}

    def runs(self, lang: str = "en") -> dict[str, dict[str, list]]:
        """Variant name in ``lang`` -> history so far, for viz.compare_runs while the lab runs."""
        histories = self.histories()
        return {v.name.get(lang): histories[v.id] for v in self.lab.variants if v.id in histories}

    def _history(self, variant: str, trainer: Trainer) -> dict[str, list]:
        start = self._start_metrics.get(variant)
        rows = []
        if start is not None:
            rows.append(dict(step=0, loss=None, val_loss=start.val_loss, accuracy=start.accuracy,
                             exact_match=start.exact_match, lr=None, grad_norm=None))
        for event in trainer.history:
            rows.append(dict(step=event.step, loss=_finite(event.loss), val_loss=_finite(event.val_loss),
                             accuracy=event.accuracy, exact_match=event.exact_match, lr=event.lr,
                             grad_norm=_finite(event.grad_norm)))
        return {column: [row[column] for row in rows] for column in HISTORY_COLUMNS}

    def result(self) -> LabResult:
        """Everything the run showed so far; the end measurements are taken now if the run was stopped."""
        if not self._start_metrics:
            raise RuntimeError("the lab has not started; iterate over run() first")
        if not self._ended:
            self._measure_end()
        lab = self.lab
        histories = self.histories()
        variants = tuple(
            VariantResult(
                id=variant.id, name=variant.name, is_reference=variant.is_reference,
                model_config=trainer.model_config.to_dict(), train_config=lab.configs(variant)[1].to_dict(),
                parameters=sum(p.numel() for p in trainer.model.parameters()),
                history=histories[variant.id], final=_final(trainer),
                start=self._start_snapshots[variant.id], end=self._end_snapshots[variant.id],
            )
            for variant in lab.variants
            for trainer in (self.trainers[variant.id],)
        )
        result = LabResult(
            lab_id=lab.id, kind=lab.kind, title=lab.title, question=lab.question, explanation=lab.explanation,
            data=lab.data.describe(), varies=lab.varies, seed=lab.train_config.seed,
            steps_planned=lab.train_config.max_steps, steps_done=max(t.step for t in self.trainers.values()),
            seconds=round(self.elapsed, 2), stopped_early=self.stopped_early, variants=variants,
            checks=tuple(self._start_checks + self._end_checks),
        )
        return result if lab.findings is None else dataclasses.replace(result, findings=tuple(lab.findings(result)))


class _Clock:
    """Adds the seconds spent inside a run's generator to ``run.elapsed``, leaving out the caller's."""

    def __init__(self, run: LabRun):
        self.run = run
        self.since = time.perf_counter()

    def read(self) -> float:
        now = time.perf_counter()
        self.run.elapsed += now - self.since
        self.since = now
        return self.run.elapsed

    def restart(self) -> None:
        self.since = time.perf_counter()


def run_lab(lab: Lab, budget_s: float | None = None) -> LabResult:
    """Run a lab to the end without watching it and return its result."""
    run = LabRun(lab, budget_s)
    for _ in run.run():
        pass
    return run.result()


def _result(check: Check, measurement) -> CheckResult:
    return CheckResult(check.id, check.stage, check.title, check.unit, measurement.values, measurement.examples)


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _final(trainer: Trainer) -> dict:
    event: TrainEvent | None = trainer.history[-1] if trainer.history else None
    metrics = trainer.last_metrics
    return dict(
        step=trainer.step,
        loss=_finite(event.loss) if event else None,
        val_loss=_finite(metrics.val_loss) if metrics else None,
        accuracy=metrics.accuracy if metrics else None,
        exact_match=metrics.exact_match if metrics else None,
        status=event.status if event else "paused",
        message=trainer.failure or "",
    )
