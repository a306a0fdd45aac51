"""What a lab run leaves behind: plain data (no models, no tensors) a session can keep and compare.

    result.runs("en")                  -> {"reference": history, "upper-triangular mask": history}
    viz.compare_runs(result.runs("en"), metrics=("loss", "val_loss"))
    snapshot = result.variant("upper_triangular").end
    viz.attention_grid(snapshot.attention["decoder.self_attn"], *snapshot.tokens["decoder.self_attn"])
    viz.compare_runs(compare_results([earlier, latest], "en"))    # several labs of a session together
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from playground.bilingual import Bilingual
from playground.train import Snapshot

from .findings import Finding

HISTORY_COLUMNS = ("step", "loss", "val_loss", "accuracy", "exact_match", "lr", "grad_norm")


@dataclass(frozen=True)
class CheckResult:
    """One measurement of every variant: values (variant id -> number) and optional text examples."""

    id: str
    stage: str
    title: Bilingual
    unit: str
    values: dict[str, float]
    examples: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class VariantResult:
    """One trained variant.

    history: columns HISTORY_COLUMNS, one entry per evaluation (step 0 = the untrained model; None
        where a value does not exist), ready for viz.compare_runs / viz.training_curves.
    final: the last values: step, loss, val_loss, accuracy, exact_match (None for language
        models), status ("finished", "paused" when the lab's time budget ran out, "diverged"), message.
    start / end: attention, head scores and samples on the lab's probe input, before and after training.
    """

    id: str
    name: Bilingual
    is_reference: bool
    model_config: dict[str, Any]
    train_config: dict[str, Any]
    parameters: int
    history: dict[str, list]
    final: dict[str, Any]
    start: Snapshot
    end: Snapshot


@dataclass(frozen=True)
class LabResult:
    """Everything a lab run showed, with the lab's texts so it stands on its own in a session."""

    lab_id: str
    kind: str
    title: Bilingual
    question: Bilingual
    explanation: Bilingual
    data: str
    varies: tuple[str, ...]
    seed: int
    steps_planned: int
    steps_done: int
    seconds: float
    stopped_early: bool
    variants: tuple[VariantResult, ...]
    checks: tuple[CheckResult, ...]
    findings: tuple[Finding, ...] = ()          # what this run showed, filled in from its numbers

    @property
    def reference(self) -> VariantResult:
        return self.variants[0]

    def variant(self, variant_id: str) -> VariantResult:
        for variant in self.variants:
            if variant.id == variant_id:
                return variant
        raise ValueError(f"lab {self.lab_id!r} has no variant {variant_id!r}; choose one of "
                         f"{[v.id for v in self.variants]}")

    def check(self, check_id: str, stage: str | None = None) -> CheckResult:
        for check in self.checks:
            if check.id == check_id and (stage is None or check.stage == stage):
                return check
        raise ValueError(f"lab {self.lab_id!r} has no check {check_id!r}" + (f" at {stage!r}" if stage else "")
                         + f"; it has {[(c.id, c.stage) for c in self.checks]}")

    def runs(self, lang: str = "en") -> dict[str, dict[str, list]]:
        """Variant name in ``lang`` -> history, in variant order (the reference first)."""
        return {variant.name.get(lang): variant.history for variant in self.variants}


def compare_results(results: Sequence[LabResult], lang: str = "en") -> dict[str, dict[str, list]]:
    """The histories of several lab results together, named "lab title · variant name" (numbered
    when the same lab was run more than once), for one viz.compare_runs figure."""
    if not results:
        raise ValueError("no lab results to compare; run a lab first")
    runs: dict[str, dict[str, list]] = {}
    seen: dict[str, int] = {}
    for result in results:
        seen[result.lab_id] = seen.get(result.lab_id, 0) + 1
        title = result.title.get(lang) + (f" #{seen[result.lab_id]}" if seen[result.lab_id] > 1 else "")
        for name, history in result.runs(lang).items():
            runs[f"{title} · {name}"] = history
    return runs
