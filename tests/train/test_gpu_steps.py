"""How the trainer steps on a GPU, checked on the CPU: the fused AdamW and the reading of a step's loss
at event time run on the CPU too, so they are switched on here for the CPU (FUSED_DEVICE_TYPES).

A step leaves its loss on the device until an event reads them all; a bad step found late keeps the
promise a step read at once keeps: the weights, moments and step counts of the last good step. TF32
is switched on for CUDA only while a trainer computes there, and bfloat16 autocast only on a GPU
that supports it, as TrainConfig.bf16_autocast says.
"""
import copy
import math

import pytest
import torch

from playground.train import TrainConfig, precision
from playground.train import trainer as trainer_module
from playground.train.card import card
from playground.train.presets import get_preset

from .helpers import events, lm_trainer, seq2seq_trainer


class InfiniteGradient(torch.autograd.Function):
    """Adds 0 to the loss, and an infinite gradient to its input."""

    @staticmethod
    def forward(ctx, weight):
        ctx.shape = weight.shape
        return weight.new_zeros(())

    @staticmethod
    def backward(ctx, grad):
        return torch.full(ctx.shape, math.inf, device=grad.device)


@pytest.fixture
def read_late(monkeypatch):
    """Trainers made after this step as on CUDA: fused AdamW, losses read at event time."""
    monkeypatch.setattr(trainer_module, "FUSED_DEVICE_TYPES", (*trainer_module.FUSED_DEVICE_TYPES, "cpu"))


def _reads(trainer) -> list[int]:
    """Spy on the trainer: how many steps each read of the device's losses found."""
    found, real = [], trainer._read_steps
    trainer._read_steps = lambda: (found.append(len(trainer._unread)), real())[1]
    return found


def test_an_evaluation_after_fused_steps_measures_the_weights_they_made(read_late):
    trainer = seq2seq_trainer(max_steps=40, event_every_s=1e9)
    trainer.evaluate()                                      # the attention layers keep their stacked Q/K/V
    events(trainer.run(max_steps=20))
    reloaded = copy.deepcopy(trainer.model)
    reloaded.load_state_dict(trainer.model.state_dict())    # the same weights, nothing kept
    with precision.computing(trainer.device):                # as the trainer evaluates (TF32 on CUDA)
        expected = trainer.objective.evaluate(reloaded.eval()).val_loss
    assert trainer.evaluate().val_loss == pytest.approx(expected, rel=1e-5)


def test_steps_read_at_event_time_give_the_losses_of_steps_read_at_once(read_late):
    at_once = lm_trainer(max_steps=12, event_every_s=1e9)
    trainer_module.FUSED_DEVICE_TYPES = ()                  # this one unfused on any device (the fixture restores)
    at_once.to(at_once.device)
    trainer_module.FUSED_DEVICE_TYPES = ("cuda", "cpu")
    late = lm_trainer(max_steps=12, event_every_s=1e9)
    assert late.optimizer.param_groups[0]["fused"] is True and at_once.optimizer.param_groups[0]["fused"] is None
    reads = _reads(late)

    (final,) = events(at_once.run())
    (late_final,) = events(late.run())

    assert max(reads) == 12                                 # every step stayed unread until the event
    assert late.step == 12 and late_final.step == final.step == 12
    same = 1e-5 if late.device.type == "cpu" else 1e-4      # bfloat16 autocast on a GPU rounds the two apart
    assert late.step_losses == pytest.approx(at_once.step_losses, rel=same)    # fused and foreach AdamW
    assert late_final.loss == pytest.approx(sum(late.step_losses) / 12)
    assert late_final.tokens_per_s > 0 and math.isfinite(late_final.grad_norm)


@pytest.mark.parametrize("spoil", ["loss", "gradient"])
def test_a_bad_step_read_late_keeps_the_last_good_weights_and_moments(read_late, spoil):
    trainer = seq2seq_trainer(max_steps=20, event_every_s=1e9)
    events(trainer.run(max_steps=4))
    good_weights = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    good_moments = {k: {m: v.clone() for m, v in s.items()} for k, s in trainer.optimizer.state_dict()["state"].items()}
    real_loss, calls = trainer.objective.loss, []

    def once_bad(model, batch):                              # step 5 is bad, every later step is fine again
        calls.append(1)
        loss = real_loss(model, batch)
        if len(calls) != 1:
            return loss
        if spoil == "loss":
            return loss * math.nan
        return loss + InfiniteGradient.apply(next(model.parameters()))       # a finite loss, an inf gradient
    trainer.objective.loss = once_bad
    reads = _reads(trainer)

    items = events(trainer.run())

    assert len(calls) == 16 and reads[0] == 16              # it found out only when it read the steps
    (event,) = items
    assert event.status == "diverged" and event.step == 4 == trainer.step
    assert "at step 5 " in event.message and "the weights of step 4 are kept" in event.message
    if spoil == "loss":
        assert math.isnan(event.loss) and "loss became nan" in event.message
    else:
        assert math.isfinite(event.loss) and "gradient norm became inf" in event.message
    for name, tensor in trainer.model.named_parameters():
        assert torch.equal(tensor, good_weights[name]), name
    for key, state in trainer.optimizer.state_dict()["state"].items():
        for moment, value in state.items():
            assert torch.equal(value, good_moments[key][moment]), (key, moment)
    (again,) = list(trainer.run())
    assert again.status == "diverged" and again.message == event.message


def test_tf32_is_on_for_cuda_only_while_a_trainer_computes_there():
    matmul = torch.backends.cuda.matmul
    name = "fp32_precision" if hasattr(matmul, "fp32_precision") else "allow_tf32"
    on = "tf32" if name == "fp32_precision" else True
    before, cpu_before = getattr(matmul, name), torch.backends.mkldnn.matmul.fp32_precision
    with precision.computing(torch.device("cuda")):
        with precision.computing(torch.device("cuda")):     # a second trainer at the same time
            assert getattr(matmul, name) == on
        assert getattr(matmul, name) == on                  # still on while the first one computes
        assert torch.backends.mkldnn.matmul.fp32_precision == cpu_before
    assert getattr(matmul, name) == before
    with precision.computing(torch.device("cpu")):
        assert getattr(matmul, name) == before


def test_bfloat16_autocast_runs_only_where_asked_and_supported(monkeypatch):
    config = TrainConfig()
    assert config.bf16_autocast is True                     # on by default: on a GPU that supports it
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda including_emulation=True: True)
    assert precision.uses_bfloat16(torch.device("cuda", 0), config)
    assert not precision.uses_bfloat16(torch.device("cuda", 0), config.replace(bf16_autocast=False))
    assert not precision.uses_bfloat16(torch.device("cpu"), config)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda including_emulation=True: False)
    assert not precision.uses_bfloat16(torch.device("cuda", 0), config)
    assert precision.describe(torch.device("cuda", 0), True) == "bfloat16 autocast, TF32 matmuls"
    assert precision.describe(torch.device("cpu"), False) == "float32"


def test_the_autocast_setting_is_checked_kept_in_json_and_on_the_card():
    with pytest.raises(ValueError, match=r"TrainConfig.bf16_autocast: must be True .* or False"):
        TrainConfig(bf16_autocast="yes")
    config = TrainConfig(bf16_autocast=False)
    assert TrainConfig.from_json(config.to_json()) == config
    assert TrainConfig.from_dict({k: v for k, v in config.to_dict().items() if k != "bf16_autocast"}).bf16_autocast
    trainer = lm_trainer(max_steps=2, bf16_autocast=False)
    final = events(trainer.run())[-1]
    text = card(get_preset("shakespeare-char"), trainer, final, "python -m playground.train ...")
    assert "| bf16_autocast | False |" in text and f"on {trainer.device.type} ({trainer.precision})" in text
