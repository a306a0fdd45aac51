"""The trainer's optimisation step against one computed by hand, with plain tensor math:

    clipping:      g <- g * min(1, c / (||g|| + 1e-6)),   ||g|| the L2 norm of every gradient together
    AdamW (t = 1, 2, ...):
                   m <- b1 m + (1 - b1) g          v <- b2 v + (1 - b2) g^2
                   p <- p - lr wd p - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
    weight decay (wd) only for matrices and embeddings (2 or more dimensions), never for biases
    or LayerNorm gains.

The gradients are read as the trainer made them, before clipping; everything after is recomputed here.
"""
import math

import pytest
import torch

from playground.train import Trainer

from .helpers import lm_data, model_config, quiet_config

EPS = 1e-8               # torch's AdamW default, which the trainer keeps


def recording_trainer(monkeypatch, **changes) -> tuple[Trainer, list[dict]]:
    """A small language-model trainer at a constant learning rate, and the gradients of each step
    as computed, before clipping."""
    data = lm_data(block_size=8)
    config = quiet_config(schedule="constant", warmup_steps=0, lr=1e-2, weight_decay=0.1, beta1=0.8, beta2=0.9,
                          batch_size=4, **changes)
    trainer = Trainer(model_config("decoder_only", data.vocab_size, d_model=16, d_ff=32, bias=True), config, data)
    steps = []
    clip = torch.nn.utils.clip_grads_with_norm_

    def record_then_clip(parameters, max_norm, total_norm, *args, **kwargs):
        parameters = list(parameters)
        steps.append({"grads": [p.grad.detach().double().cpu().clone() for p in parameters],
                      "params": [p.detach().double().cpu().clone() for p in parameters],
                      "clipped_by": total_norm.item()})
        return clip(parameters, max_norm, total_norm, *args, **kwargs)

    monkeypatch.setattr(torch.nn.utils, "clip_grads_with_norm_", record_then_clip)
    return trainer, steps


def by_hand(trainer: Trainer, steps: list[dict]) -> list[torch.Tensor]:
    """The parameters after every recorded step, from the first step's parameters and the raw gradients."""
    config = trainer.config
    decayed = [p.dim() >= 2 for p in trainer._params]
    params = [p.clone() for p in steps[0]["params"]]
    m = [torch.zeros_like(p) for p in params]
    v = [torch.zeros_like(p) for p in params]
    for t, step in enumerate(steps, start=1):
        norm = math.sqrt(sum(float((g * g).sum()) for g in step["grads"]))
        clip = config.grad_clip if config.grad_clip is not None else math.inf
        scale = min(1.0, clip / (norm + 1e-6))
        for i, raw in enumerate(step["grads"]):
            g = raw * scale
            m[i] = config.beta1 * m[i] + (1 - config.beta1) * g
            v[i] = config.beta2 * v[i] + (1 - config.beta2) * g * g
            m_hat, v_hat = m[i] / (1 - config.beta1 ** t), v[i] / (1 - config.beta2 ** t)
            wd = config.weight_decay if decayed[i] else 0.0
            params[i] = params[i] - config.lr * wd * params[i] - config.lr * m_hat / (v_hat.sqrt() + EPS)
    return params


@pytest.mark.parametrize("grad_clip", [None, 0.05])       # 0.05 is far below these gradients: clipping acts
def test_three_steps_are_adamw_with_clipping_as_computed_by_hand(monkeypatch, grad_clip):
    trainer, steps = recording_trainer(monkeypatch, grad_clip=grad_clip)
    events = [e for e in trainer.run(max_steps=3)]
    assert len(steps) == 3
    norms = [math.sqrt(sum(float((g * g).sum()) for g in step["grads"])) for step in steps]
    if grad_clip is not None:
        assert min(norms) > 10 * grad_clip
    assert events[-1].grad_norm == pytest.approx(norms[-1], rel=1e-4)       # reported before clipping
    expected = by_hand(trainer, steps)
    for (name, parameter), wanted in zip(((n, p) for n, p in trainer.model.named_parameters() if p.requires_grad),
                                         expected):
        torch.testing.assert_close(parameter.detach().double().cpu(), wanted, rtol=1e-5, atol=1e-6, msg=name)


def test_each_step_logs_the_gradient_norm_its_clipping_scaled_by(monkeypatch):
    trainer, steps = recording_trainer(monkeypatch, grad_clip=0.05)
    logged = [event.grad_norm for event in trainer.run(max_steps=3)]
    assert len(steps) == len(logged) == 3
    for step, norm in zip(steps, logged):
        assert norm == step["clipped_by"]                                      # one norm, logged and used
        assert norm == pytest.approx(math.sqrt(sum(float((g * g).sum()) for g in step["grads"])), rel=1e-5)


def test_weight_decay_goes_to_matrices_and_embeddings_only(monkeypatch):
    trainer, _ = recording_trainer(monkeypatch)
    names = {id(p): n for n, p in trainer.model.named_parameters()}
    decay, no_decay = trainer.optimizer.param_groups
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    decayed = {names[id(p)] for p in decay["params"]}
    kept = {names[id(p)] for p in no_decay["params"]}
    assert decayed | kept == set(names.values()) and not decayed & kept
    assert decayed and all(names[id(p)].endswith("weight") and p.dim() == 2 for p in decay["params"])
    assert any("tokens" in name for name in decayed)                        # the embedding decays
    assert kept and all(p.dim() == 1 for p in no_decay["params"])
    assert any(name.endswith("bias") for name in kept) and any("norm" in name for name in kept)
