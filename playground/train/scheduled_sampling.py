"""Scheduled sampling (Bengio et al., 2015), the tutorials' fix for exposure bias: during training the
decoder sometimes reads its own prediction instead of the true previous token, more and more often as
training goes on, so it learns to continue from prefixes with its own mistakes in them.

`ScheduledSampling` wraps a trainer's seq2seq objective from outside (the Trainer and the reference
objective stay as they are); `compare_with_teacher_forcing` trains the same model both ways and
measures each where exposure bias shows: writing on its own (free-running) against reading the truth.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from playground.data import EOS_ID, IGNORE_INDEX, PAD_ID
from playground.device import model_device
from playground.model import ModelConfig

from .config import TrainConfig
from .objectives import Batch, Seq2SeqObjective
from .trainer import Trainer


class ScheduledSampling:
    """A Seq2SeqObjective whose training loss reads, at each target position after <bos>, the model's own
    greedy prediction instead of the true token with probability p, rising linearly from 0 at the first
    step to `final` at step `ramp_steps`. The predictions come from a teacher-forced pass without
    gradients (the one-pass form of the method). Everything else (batches, evaluation) is the objective's."""

    def __init__(self, objective: Seq2SeqObjective, ramp_steps: int, final: float, seed: int = 0):
        if not isinstance(objective, Seq2SeqObjective):
            raise TypeError(f"scheduled sampling needs an encoder-decoder's seq2seq objective, got "
                            f"{type(objective).__name__}")
        if not (isinstance(ramp_steps, int) and ramp_steps >= 1 and 0 <= final <= 1):
            raise ValueError(f"ramp_steps must be an integer >= 1 and final in [0, 1], got {ramp_steps!r}, {final!r}")
        self.objective, self.ramp_steps, self.final = objective, ramp_steps, final
        self.steps_done = 0
        self.generator = torch.Generator().manual_seed(seed)

    def __getattr__(self, name: str):
        return getattr(self.objective, name)

    def probability(self, step: int) -> float:
        """The chance of reading the model's own token at training step `step` (0-based)."""
        return self.final * min(1.0, step / self.ramp_steps)

    def loss(self, model: nn.Module, batch: Batch) -> torch.Tensor:
        p = self.probability(self.steps_done)
        self.steps_done += 1
        batch = batch.to(model_device(model))
        src, tgt_in = batch.inputs                                           # [B, S], [B, T]
        with torch.no_grad():
            own = self.objective.forward(model, batch.inputs).argmax(-1)     # [B, T]: own[:, t] guesses tgt_in[:, t+1]
        draw = torch.rand(tgt_in.shape, generator=self.generator).to(tgt_in.device)   # [B, T]
        swap = (draw < p) & (tgt_in != PAD_ID)
        swap[:, 0] = False                                                   # <bos> is always given
        mixed = tgt_in.clone()
        mixed[:, 1:] = torch.where(swap[:, 1:], own[:, :-1], tgt_in[:, 1:])
        logits = self.objective.forward(model, (src, mixed))                 # [B, T, V]
        return F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), ignore_index=IGNORE_INDEX)


@dataclass(frozen=True)
class DecodingScores:
    """On the held-out sources: token accuracy reading the true prefix (teacher forced), token accuracy
    and exact match writing on its own (greedy, position by position against the target + eos)."""

    teacher_forced_accuracy: float
    free_running_accuracy: float
    free_running_exact: float


def decoding_scores(trainer: Trainer) -> DecodingScores:
    """How the trainer's model does on its held-out sources, read with the truth and written on its own."""
    objective = trainer.objective
    metrics = objective.evaluate(trainer.model.eval())
    decoded = objective.greedy(trainer.model, [source for source, _ in objective.held_out])
    right = total = exact = 0
    for out, (_, target) in zip(decoded, objective.held_out):
        wanted = objective.tokenizer.encode(target) + [EOS_ID]
        right += sum(a == b for a, b in zip(out, wanted))
        total += len(wanted)
        exact += out == wanted
    return DecodingScores(metrics.accuracy, right / total, exact / len(objective.held_out))


def compare_with_teacher_forcing(model_config: ModelConfig, train_config: TrainConfig, task,
                                 final: float) -> dict[str, DecodingScores]:
    """Train the same encoder-decoder (same seed: same initial weights and batches) on `task` with teacher
    forcing and with scheduled sampling ramping to `final` over its steps; score both."""
    scores = {}
    for name in ("teacher_forcing", "scheduled_sampling"):
        trainer = Trainer(model_config, train_config, task)
        if name == "scheduled_sampling":
            trainer.objective = ScheduledSampling(trainer.objective, train_config.max_steps, final,
                                                  train_config.seed)
        for _ in trainer.run(max_steps=train_config.max_steps):
            pass
        scores[name] = decoding_scores(trainer)
    return scores
