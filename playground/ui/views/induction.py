"""The induction-head verdict of a model, in words: which heads the naming rule of
playground.analysis.head_scores accepts, or why none. Measured once per model and kept while the
model lives (pretrained models and their timeline steps are shared, never changed)."""
from __future__ import annotations

import threading
import weakref

from playground.analysis.head_scores import INDUCTION_THRESHOLD, SECOND_COPY_LOSS_RATIO
from playground.analysis.induction import VERDICT_SEQUENCES, InductionVerdict, induction_verdict

from playground.zoo import ModelEntry
from ..text.i18n import text

REASON_TEXT = {"low_score": "induction_verdict_low_score", "no_copy_gain": "induction_verdict_no_copy_gain"}
_verdicts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # model -> InductionVerdict
_lock = threading.Lock()


def verdict_of(entry: ModelEntry) -> InductionVerdict | None:
    """The verdict on a decoder-only model (measured at most once per model); None for other models."""
    if entry.config.arch != "decoder_only":
        return None
    with _lock:
        verdict = _verdicts.get(entry.model)
    if verdict is None:
        verdict = induction_verdict(entry.model)
        with _lock:
            _verdicts[entry.model] = verdict
    return verdict


def induction_text(entry: ModelEntry, lang: str) -> str:
    """The model's induction heads, or that it has none and why."""
    verdict = verdict_of(entry)
    if verdict is None:
        return text(lang, "induction_verdict_other_arch")
    m = verdict.measurement
    values = dict(n=VERDICT_SEQUENCES, period=m.period, threshold=INDUCTION_THRESHOLD, first=m.first_copy_loss,
                  second=m.second_copy_loss, score=verdict.best_score, layer=verdict.best[0], head=verdict.best[1],
                  ratio=SECOND_COPY_LOSS_RATIO)
    if verdict.reason == "named":
        heads = ", ".join(f"L{layer} H{head} ({m.induction[layer, head]:.2f})" for layer, head in verdict.heads)
        return text(lang, "induction_verdict_named", heads=heads, **values)
    return text(lang, REASON_TEXT[verdict.reason], **values)
