"""A lab result in words: the numbers each variant ended with and what the checks measured."""
from __future__ import annotations

from .results import LabResult, VariantResult

WORDS = {
    "en": dict(final="After {steps} steps", loss="loss", val_loss="validation loss", accuracy="accuracy",
               exact_match="exact match", start="before training", end="after training",
               stopped="The time budget ran out after step {done} of {planned}; every variant stopped there.",
               findings="What this run shows",
               diverged="{name} diverged: {message}"),
    "zh-CN": dict(final="训练 {steps} 步之后", loss="损失", val_loss="验证损失", accuracy="准确率",
                  exact_match="完全匹配率", start="训练前", end="训练后",
                  stopped="时间预算在第 {done} 步（共 {planned} 步）用完，所有变体都停在这里。",
                  findings="本次运行表明",
                  diverged="{name} 发散了：{message}"),
}


def summarize(result: LabResult, lang: str = "en") -> str:
    """Markdown: final metrics per variant, then each check's values (and examples), then what the
    run shows (its findings), in ``lang``."""
    if lang not in WORDS:
        raise ValueError(f"unknown language {lang!r}; use one of {tuple(WORDS)}")
    words = WORDS[lang]
    lines = [f"**{words['final'].format(steps=result.steps_done)}**"]
    lines += [f"- {variant.name.get(lang)}: {_metrics(variant, words)}" for variant in result.variants]
    for check in result.checks:
        lines.append(f"\n**{check.title.get(lang)}** ({words[check.stage]})")
        lines += [f"- {result.variant(v).name.get(lang)}: {_number(value, check.unit)}"
                  + (f" — `{check.examples[v]}`" if v in check.examples else "")
                  for v, value in check.values.items()]
    if result.stopped_early:
        lines.append("\n" + words["stopped"].format(done=result.steps_done, planned=result.steps_planned))
    lines += ["\n" + words["diverged"].format(name=v.name.get(lang), message=v.final["message"])
              for v in result.variants if v.final["status"] == "diverged"]
    if result.findings:
        lines.append(f"\n**{words['findings']}**")
        lines += [f"- {finding.text.get(lang)}" for finding in result.findings]
    return "\n".join(lines)


def _metrics(variant: VariantResult, words: dict) -> str:
    parts = []
    for key, percent in (("loss", False), ("val_loss", False), ("accuracy", True), ("exact_match", True)):
        value = variant.final.get(key)
        if value is not None:
            parts.append(f"{words[key]} {value:.1%}" if percent else f"{words[key]} {value:.3f}")
    return " · ".join(parts)


def _number(value: float, unit: str) -> str:
    if unit == "params":
        return f"{int(value):,}"
    if unit == "share":
        return f"{value:.0%}"
    return f"{value:.3g}"

