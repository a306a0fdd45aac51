"""Tiny versions of the labs: the same data, variants and depth, a few steps, small batches."""
import math

from playground.labs import Lab, LabRun, LabResult, get_lab
from playground.labs import lab as lab_module

from ..offline import without_tiny_shakespeare_loader

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


def without_tiny_shakespeare(monkeypatch) -> None:
    """Labs read their corpora as on a machine with no copy of tiny Shakespeare and no network (the
    labs' corpus caches are emptied first; the caller empties them again when it is done)."""
    lab_module.corpus_text.cache_clear()
    lab_module._text_data.cache_clear()
    monkeypatch.setattr(lab_module, "load_corpus", without_tiny_shakespeare_loader(lab_module.load_corpus))
