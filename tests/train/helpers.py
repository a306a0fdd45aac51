"""Tiny set-ups for trainer tests: a step takes a few milliseconds."""
import functools

import pytest
import torch

from playground.data import CharTokenizer, LMData, MLMData, bundled_text, tasks
from playground.device import default_device
from playground.model import ModelConfig
import playground.train.card as model_card
from playground.train import Trainer, TrainConfig, TrainEvent, breakdown

TEXT = bundled_text()
FEW_SOURCES = 8             # fresh sources a test's model card decodes per untrained length or held-out date format


def fewer_card_sources(monkeypatch) -> None:
    """Model cards measure FEW_SOURCES fresh sources per length never trained on and per date format kept
    out of training (instead of 100 and 125) and say so: every row is still measured and written in its place."""
    monkeypatch.setattr(model_card, "PER_LENGTH", FEW_SOURCES)
    monkeypatch.setattr(model_card, "HELD_OUT_PER_FORMAT", FEW_SOURCES)
    monkeypatch.setattr(model_card, "length_rows", functools.partial(breakdown.length_rows, per_length=FEW_SOURCES))
    monkeypatch.setattr(model_card, "held_out_format_rows",
                        functools.partial(breakdown.held_out_format_rows, n=FEW_SOURCES))


def quiet_config(**changes) -> TrainConfig:
    """Small batches, an event after every step, no snapshots unless asked."""
    fields = dict(lr=3e-3, warmup_steps=min(5, changes.get("max_steps", 40)), batch_size=8, max_steps=40, val_size=16,
                  eval_every_s=None, event_every_s=0.0, snapshot_every_s=None)
    fields.update(changes)
    return TrainConfig(**fields)


def copy_task(length: int = 5, symbols: int = 5):
    return tasks.get("copy", length=length, symbols=symbols)


def model_config(arch: str, vocab_size: int, **changes) -> ModelConfig:
    layers = {
        "encoder_decoder": dict(n_encoder_layers=1, n_decoder_layers=1),
        "decoder_only": dict(n_encoder_layers=0, n_decoder_layers=2),
        "encoder_only": dict(n_encoder_layers=2, n_decoder_layers=0),
    }[arch]
    fields = dict(arch=arch, vocab_size=vocab_size, d_model=32, n_heads=2, d_ff=64, max_len=32, **layers)
    fields.update(changes)
    return ModelConfig(**fields)


def lm_data(block_size: int = 16, text: str = TEXT) -> LMData:
    return LMData(text, CharTokenizer.from_text(text), block_size)


def mlm_data(block_size: int = 16, text: str = TEXT) -> MLMData:
    return MLMData(text, CharTokenizer.from_text(text), block_size)


def seq2seq_trainer(**train_changes) -> Trainer:
    task = copy_task()
    return Trainer(model_config("encoder_decoder", task.tokenizer.vocab_size), quiet_config(**train_changes), task)


def lm_trainer(**train_changes) -> Trainer:
    data = lm_data()
    return Trainer(model_config("decoder_only", data.vocab_size), quiet_config(**train_changes), data)


def mlm_trainer(**train_changes) -> Trainer:
    data = mlm_data()
    return Trainer(model_config("encoder_only", data.vocab_size), quiet_config(**train_changes), data)


def events(items) -> list[TrainEvent]:
    return [item for item in items if isinstance(item, TrainEvent)]


def exact() -> bool:
    """Whether two runs of the same steps give bit-identical numbers: on the CPU. A GPU's kernels may
    add in another order from one run to the next (atomic sums in attention's backward pass)."""
    return default_device().type == "cpu"


GPU_RTOL, GPU_ATOL = 1e-4, 1e-5     # two runs of the same steps on one GPU: float order only


def assert_same_losses(a: list[float], b: list[float]) -> None:
    assert len(a) == len(b)
    if exact():
        assert a == b
    else:
        assert a == pytest.approx(b, rel=GPU_RTOL, abs=GPU_ATOL)


def assert_same_tensor(a: torch.Tensor, b: torch.Tensor, name: str = "") -> None:
    a, b = a.detach().cpu(), b.detach().cpu()
    if exact():
        assert torch.equal(a, b), name
    else:
        torch.testing.assert_close(a, b, rtol=GPU_RTOL, atol=GPU_ATOL, msg=name)
