"""The 2017 block against the 2024 block: the four pieces today's LLMs changed, at equal parameters.

The reference is the character model of the other labs (pre-norm LayerNorm, a GELU feed-forward,
sinusoidal positions, one key/value head per query head, biases). The 2024 block swaps all four
pieces at once, as Llama and Qwen do: RMSNorm, a gated SwiGLU feed-forward, rotary positions and
grouped-query attention, without biases. Its feed-forward width is chosen so that both models
have as many parameters as can be matched (a SwiGLU has three matrices where GELU has two, and
grouped queries keep fewer key/value weights).

What a run showed goes into its findings: each model's final validation loss, and the first
evaluated step at which each reached a target loss computed from the text read.
"""
from __future__ import annotations

from playground.bilingual import Bilingual
from playground.claims import Claim
from playground.model import ModelConfig
from playground.model.params import count_parameters

from . import checks
from .comparisons import letter_frequency_loss, outcome_findings
from .findings import Finding
from .lab import Lab, Variant
from .presets import CHAR_LM_MODEL, CHAR_LM_TRAIN, CHARACTERS
from .results import LabResult, VariantResult

KV_HEADS = 2                       # of the reference's 4 query heads: two query heads share each key/value head
TARGET_BELOW_FREQUENCY = 0.85      # the target loss: this many nats below the letter-frequency loss of the text
LLM_PIECES = dict(norm_type="rmsnorm", gated_ffn=True, activation="silu", positional="rope", n_kv_heads=KV_HEADS,
                  bias=False)


def matched_d_ff(reference: ModelConfig, changes: dict) -> int:
    """The feed-forward width that gives `reference` with `changes` the parameter count closest to the
    reference's (parameters grow linearly with the width)."""
    target = count_parameters(reference)["total"]
    at = {width: count_parameters(reference.replace(**changes, d_ff=width))["total"] for width in (1, 2)}
    per_unit = at[2] - at[1]
    return max(1, round(1 + (target - at[1]) / per_unit))


LLM_BLOCK = Variant(
    "llm_2024", Bilingual("2024 block (RMSNorm, SwiGLU, RoPE, grouped-query)", "2024 年的块（RMSNorm、SwiGLU、RoPE、分组查询）"),
    model_changes=dict(LLM_PIECES, d_ff=matched_d_ff(CHAR_LM_MODEL, LLM_PIECES)))


def target_loss(corpus: str) -> float:
    """The lab's target validation loss: TARGET_BELOW_FREQUENCY below the letter-frequency loss of the text read."""
    return round(letter_frequency_loss(corpus)[0] - TARGET_BELOW_FREQUENCY, 2)


def steps_to(variant: VariantResult, target: float) -> int | None:
    """The first evaluated step whose validation loss is at or below `target` (None if none is)."""
    return next((step for step, loss in zip(variant.history["step"], variant.history["val_loss"])
                 if loss is not None and loss <= target), None)


def _steps_finding(result: LabResult) -> Finding:
    target = target_loss(CHARACTERS.corpus)
    reached = {v.id: steps_to(v, target) for v in result.variants}
    every = result.variants[0].history["step"]
    gap = every[1] - every[0] if len(every) > 1 else 0
    parts_en, parts_zh = [], []
    for v in result.variants:
        step = reached[v.id]
        parts_en.append(f"{v.name.en} at step {step}" if step is not None else f"{v.name.en} not within the run")
        parts_zh.append(f"{v.name.zh}在第 {step} 步" if step is not None else f"{v.name.zh}在本次运行中没有达到")
    reference, llm = (reached[v.id] for v in result.variants[:2])
    if reference is None and llm is None:
        first = "neither"
    elif reference is None or (llm is not None and llm < reference):
        first = result.variants[1].id
    elif llm is None or reference < llm:
        first = result.variants[0].id
    else:
        first = "same"
    verdict = {"neither": ("Neither reached it: train longer to compare them.", "两者都没有达到：训练更久才能比较。"),
               "same": ("Both reached it at the same evaluation.", "两者在同一次评估时达到。")}
    if first in verdict:
        closing_en, closing_zh = verdict[first]
    else:
        winner = result.variant(first).name
        closing_en, closing_zh = f"{winner.en} got there first.", f"{winner.zh}先达到。"
    en = (f"Target: validation loss {target:.2f}, {TARGET_BELOW_FREQUENCY} below the letter-frequency loss of the "
          f"text read (losses are evaluated every {gap} steps). First evaluation at or below it: "
          + "; ".join(parts_en) + f". {closing_en}")
    zh = (f"目标：验证损失 {target:.2f}，比本次读取文本的字母频率损失低 {TARGET_BELOW_FREQUENCY}（每 {gap} 步评估一次损失）。"
          f"第一次达到或低于它的评估：" + "；".join(parts_zh) + f"。{closing_zh}")
    measured = {v.id: steps_to(v, target_loss(CHARACTERS.corpus)) for v in result.variants}
    return Finding(Bilingual(en, zh), (
        Claim("llm-block: the steps each block took to the target loss", tuple(reached.values()),
              tuple(measured.values())),))


def _findings(result: LabResult) -> list[Finding]:
    if any(v.history["val_loss"][-1] is None for v in result.variants):
        return []
    return [*outcome_findings(CHARACTERS)(result), _steps_finding(result)]


LLM_BLOCK_LAB = Lab(
    id="llm-block",
    kind="ablation",
    title=Bilingual("The 2017 block against the 2024 block", "2017 年的块与 2024 年的块"),
    question=Bilingual(
        "Today's LLMs (Llama, Qwen) changed four pieces of the 2017 block: RMSNorm, a SwiGLU feed-forward, rotary "
        "positions and grouped-query attention. At the same number of parameters, on the same characters, does "
        "the 2024 block learn faster?",
        "今天的大模型（Llama、Qwen）改了 2017 年那个块的四个部件：RMSNorm、SwiGLU 前馈、旋转位置编码和分组查询注意力。"
        "参数量相同、读同样的字符时，2024 年的块学得更快吗？"),
    explanation=Bilingual(
        "Both models are 2 pre-norm blocks of width 64 with 4 query heads, trained on the same characters from the "
        "same seed. The 2017 block normalises with LayerNorm (centre, then scale), feeds forward through GELU, adds "
        "sinusoidal positions to the embeddings and gives every query head its own keys and values. The 2024 block "
        "uses RMSNorm (scale only), a SwiGLU feed-forward W_down(silu(W_gate x) ⊙ W_up x), "
        "rotary positions (queries and keys rotated by their position, nothing added to the embeddings) and 2 "
        "key/value heads shared by the 4 query heads, with no biases. A SwiGLU has three matrices, so its width is "
        "set to match the parameters (the check counts both). Compare the loss curves and, in the findings, the "
        "step at which each first reaches a target loss set from the text read. Both blocks are pre-norm, as every "
        "model since GPT-2: the 2017 paper put the norm after the residual add. Some of what the new pieces buy "
        "does not show in a loss curve: the KV cache of the 2024 block is half as large (2 key/value heads for 4 "
        "query heads), and rotary positions depend only on offsets.",
        "两个模型都是 2 个前置归一化块、宽度 64、4 个查询头，用同样的种子在同样的字符上训练。2017 年的块用 LayerNorm"
        "（先中心化再缩放）归一化，前馈层用 GELU，把正弦位置编码加到嵌入上，每个查询头有自己的键和值。2024 年的块用 "
        "RMSNorm（只缩放），SwiGLU 前馈 W_down(silu(W_gate x) ⊙ W_up x)，旋转位置编码（按位置旋转查询和键，"
        "不往嵌入上加任何东西），4 个查询头共享 2 个键/值头，并且没有偏置。SwiGLU 有三个矩阵，所以它的宽度经过调整，"
        "让参数量相同（检查项统计两者的参数量）。比较损失曲线，并在结论中比较两者第一次达到目标损失的步数，目标由本次读取的文本算出。"
        "两个块都是前置归一化，GPT-2 以来的模型都是这样；2017 年的论文把归一化放在残差相加之后。新部件带来的有些好处在损失曲线上看不出来："
        "2024 年的块的 KV 缓存只有一半大（4 个查询头配 2 个键/值头），旋转位置只依赖于位置差。"),
    data=CHARACTERS,
    model_config=CHAR_LM_MODEL,
    train_config=CHAR_LM_TRAIN,
    variants=(Variant("block_2017", Bilingual("2017 block (LayerNorm, GELU, sinusoidal, multi-head)",
                                              "2017 年的块（LayerNorm、GELU、正弦位置、多头）")),
              LLM_BLOCK),
    varies=("norm_type", "gated_ffn", "activation", "positional", "n_kv_heads", "bias", "d_ff"),
    checks=(checks.parameter_count(),),
    findings=_findings,
    rounds=20,
)
