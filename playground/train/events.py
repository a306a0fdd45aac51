"""What a training run yields: progress events and, less often, attention snapshots."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Status = Literal["running", "paused", "finished", "diverged"]
RefusalReason = Literal["gpu_quota", "gpu_signed_out", "gpu_outside_hf", "gpu_busy", "gpu_unavailable"]


@dataclass(frozen=True)
class GpuRefusal:
    """Why a run on a ZeroGPU Space trains on the CPU (playground.train.zerogpu).

    reason: "gpu_quota" (the daily GPU quota of the signed-in user who started the run is spent
        until it resets), "gpu_signed_out" (a visitor's small quota is spent: signing in to Hugging
        Face gives more), "gpu_outside_hf" (the app was opened outside huggingface.co, so the call
        counted against the Space's own small pool: open it on huggingface.co), "gpu_busy" (no GPU
        came free in time, try again later) or "gpu_unavailable" (the GPU call failed).
    detail: the platform's own words (English), e.g. "You have exceeded your free ZeroGPU quota
        (10s requested vs. 3s left). Try again in 5:12:00."
    quota_left_s / retry_in: the seconds of quota left and when to try again, where the platform
        said (retry_in as it wrote it, e.g. "5:12:00"); None where it did not.
    """

    reason: RefusalReason
    detail: str
    quota_left_s: int | None = None
    retry_in: str | None = None


@dataclass(frozen=True)
class TrainEvent:
    """Progress after ``step`` optimisation steps.

    loss: mean training loss of the steps since the previous event.
    val_loss, perplexity (= exp(val_loss), see playground.train.metrics), accuracy (next-token accuracy, teacher forced; for
        masked LMs the accuracy on masked positions) and exact_match (share of held-out sources
        whose greedy decode equals the target; None for language models) are measured on the
        fixed held-out set; all four are None on events where no evaluation ran. bleu: character
        BLEU (0-100) of the greedy decodes of the held-out sources (None for language models).
    lr: learning rate of the latest step; grad_norm: its gradient norm before clipping.
    tokens_per_s: input tokens (padding excluded) trained on per second since the previous event.
    elapsed: training wall seconds over every run so far, evaluations included.
    status: "running"; on the last event of a run "paused" (this call's step or time cap was
        reached, ``run`` again continues), "finished" (max_steps or max_seconds of the config
        reached) or "diverged" (the loss or gradient became NaN or infinite; ``message`` says
        what to change).
    layer_grad_norms: the latest step's gradient norm of each parameter group before clipping,
        group name ("embeddings", "decoder.blocks.0", ..., "head"; see playground.train.gradients)
        -> L2 norm; their squares sum to grad_norm's square.
    gpu_refusal: on a ZeroGPU Space, why the steps of this event trained on the CPU (a GPU call
        was refused); None when they trained where they were meant to.
    """

    step: int
    loss: float
    val_loss: float | None
    perplexity: float | None
    accuracy: float | None
    exact_match: float | None
    lr: float
    grad_norm: float
    tokens_per_s: float
    elapsed: float
    status: Status = "running"
    message: str = ""
    bleu: float | None = None
    gpu_refusal: GpuRefusal | None = None
    layer_grad_norms: dict[str, float] = field(default_factory=dict)

    @property
    def evaluated(self) -> bool:
        """True when this event carries held-out metrics."""
        return self.val_loss is not None


@dataclass(frozen=True)
class Sample:
    """One model output shown while training: its input, what the model wrote, the expected text.

    seq2seq: a held-out source, its greedy decode and target. Language model: a prompt and a
    sampled continuation (target None). Masked LM: the corrupted text, the text with the model's
    guesses at the masked positions, and the original.
    """

    input: str
    output: str
    target: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """The model at ``step`` seen through a fixed probe input.

    attention: kind -> weights [L, H, Tq, Tk] (float32), a kind being the name of one of the model's
        attention sites (`AttentionSite.name`: "encoder.self_attn", "decoder.self_attn",
        "decoder.cross_attn"; `AttentionSite.parse` reads it back).
    tokens: kind -> (query token strings [Tq], key token strings [Tk]) for axis labels.
    head_scores: "KIND.SCORE" -> [L, H] (e.g. "decoder.self_attn.previous_token",
        "decoder.cross_attn.diagonal"), from ``playground.analysis.head_scores``.
    samples: a few outputs of the model at this step.
    """

    step: int
    probe: str
    attention: dict[str, np.ndarray]
    tokens: dict[str, tuple[list[str], list[str]]]
    head_scores: dict[str, np.ndarray] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
