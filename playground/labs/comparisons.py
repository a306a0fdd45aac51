"""What any lab run showed about its variants' outcomes, in sentences filled in from the run: each
variant's final validation loss (and exact match) against the reference's, and, for a character
model, which variants ended at the letter-frequency loss of the text actually read.

The letter-frequency loss is the entropy of the text's character frequencies: the loss of a model
that predicts every character by how often it occurs, ignoring the context. It depends on the text
read (tiny Shakespeare or, offline, the bundled text), so it is computed, never typed.
"""
from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Callable

from playground.bilingual import Bilingual
from playground.claims import Claim

from .findings import Finding, compared, last_value, word
from .lab import DataSpec, corpus_text
from .results import LabResult, VariantResult

LEVEL = 0.02                # final losses within 2% of each other are level
NEAR_FREQUENCY = 0.15       # a final loss within this of the letter-frequency loss sits at it (nats)


@functools.lru_cache(maxsize=4)
def letter_frequency_loss(corpus: str) -> tuple[float, str]:
    """(entropy in nats of the character frequencies of the text read for `corpus`, name of the text read)."""
    text, name = corpus_text(corpus)
    counts = Counter(text)
    total = sum(counts.values())
    return -sum(c / total * math.log(c / total) for c in counts.values()), name


def _final_val(variant: VariantResult) -> float | None:
    return last_value(variant.history, "val_loss")


def _loss_finding(lab_id: str, variant: VariantResult, reference: VariantResult) -> Finding:
    val, ref_val = _final_val(variant), _final_val(reference)
    side = compared(val, ref_val, LEVEL * ref_val)
    en = (f"{variant.name.en}: final validation loss {val:.3f}, {word(side, 'en')} {reference.name.en}'s "
          f"{ref_val:.3f}.")
    zh = f"{variant.name.zh}：最终验证损失 {val:.3f}，{word(side, 'zh-CN')}{reference.name.zh}的 {ref_val:.3f}。"
    claims = [Claim(f"{lab_id}: {variant.id}'s final validation loss against {reference.id}'s", side,
                    compared(variant.final["val_loss"], reference.final["val_loss"],
                             LEVEL * reference.final["val_loss"]))]
    exact, ref_exact = variant.final.get("exact_match"), reference.final.get("exact_match")
    if exact is not None and ref_exact is not None:
        exact_side = compared(exact, ref_exact)
        en += f" Exact match {exact:.0%}, {word(exact_side, 'en')} its {ref_exact:.0%}."
        zh += f"完全匹配率 {exact:.0%}，{word(exact_side, 'zh-CN')}它的 {ref_exact:.0%}。"
        drawn = last_value(variant.history, "exact_match"), last_value(reference.history, "exact_match")
        claims.append(Claim(f"{lab_id}: {variant.id}'s exact match against {reference.id}'s", exact_side,
                            compared(*drawn)))
    return Finding(Bilingual(en, zh), tuple(claims))


def _at_frequency(variants, unigram: float) -> tuple[str, ...]:
    return tuple(v.id for v in variants if abs(v.final["val_loss"] - unigram) <= NEAR_FREQUENCY)


def _frequency_finding(lab_id: str, result: LabResult, corpus: str) -> Finding:
    unigram, name = letter_frequency_loss(corpus)
    stuck = [v for v in result.variants if abs(_final_val(v) - unigram) <= NEAR_FREQUENCY]
    en = f"Predicting each character by its frequency alone scores {unigram:.2f} on the text read ({name}). "
    zh = f"只按字符出现频率预测，在本次读取的文本（{name}）上损失为 {unigram:.2f}。"
    if stuck:
        en += (", ".join(v.name.en for v in stuck) + f" ended within {NEAR_FREQUENCY} of it: "
               "it predicts characters by their frequency and little else.")
        zh += "、".join(v.name.zh for v in stuck) + f"最终与它相差不到 {NEAR_FREQUENCY}：基本上只按频率预测字符。"
    else:
        en += f"No model ended within {NEAR_FREQUENCY} of it."
        zh += f"没有哪个模型最终与它相差不到 {NEAR_FREQUENCY}。"
    return Finding(Bilingual(en, zh), (Claim(f"{lab_id}: the variants that ended at the letter-frequency loss",
                                             tuple(v.id for v in stuck), _at_frequency(result.variants, unigram)),))


def outcome_findings(data: DataSpec) -> Callable[[LabResult], list[Finding]]:
    """The findings of a lab on `data`: every variant against the first, and for a character model the
    variants that ended at the letter-frequency loss of the text read."""

    def findings(result: LabResult) -> list[Finding]:
        reference = result.reference
        if _final_val(reference) is None:
            return []
        out = [_loss_finding(result.lab_id, v, reference) for v in result.variants[1:] if _final_val(v) is not None]
        if data.corpus is not None and data.bpe_vocab_size is None and all(_final_val(v) is not None
                                                                          for v in result.variants):
            out.append(_frequency_finding(result.lab_id, result, data.corpus))
        return out

    return findings
