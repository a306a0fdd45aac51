"""Tiny versions of the labs: the same data, variants and depth, a few steps, small batches."""
import math

from playground.labs import Lab, LabRun, LabResult, get_lab

TINY_STEPS = 16


def tiny(lab: Lab, steps: int = TINY_STEPS, rounds: int = 3) -> Lab:
    """``lab`` with narrow layers (its depth kept), ``steps`` steps in ``rounds`` rounds, small batches."""
    model = dict(d_model=32, d_ff=64) if lab.model_config.d_model > 32 else {}
    train = dict(max_steps=steps, warmup_steps=min(lab.train_config.warmup_steps, steps // 4), batch_size=8,
                 val_size=16)
    return lab.resized(model_changes=model, train_changes=train, rounds=rounds)


def tiny_result(lab_id: str, **changes) -> LabResult:
    run = LabRun(tiny(get_lab(lab_id), **changes), budget_s=math.inf)
    for _ in run.run():
        pass
    return run.result()


def prepared(lab: Lab) -> LabRun:
    """A run whose variants are built (and bugs installed) but not trained."""
    run = LabRun(lab)
    run.prepare()
    return run
