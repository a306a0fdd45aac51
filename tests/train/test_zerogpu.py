"""Training on a ZeroGPU Space: chunks of a run cross a pickling boundary and the run is unchanged.

This machine is no ZeroGPU Space, so `spaces` is replaced by a stand-in with the same contract
as `spaces.GPU` there: a decorated call receives its arguments and returns its result pickled,
so what it changes in its arguments never reaches the caller. The GPU is the CPU here.
"""
import importlib
import pickle
import sys
import types

import pytest
import torch

from playground import device as device_module
from playground.device import ZERO_GPU_VARIABLE
from playground.train import zerogpu

from .helpers import events, lm_trainer, seq2seq_trainer
from .test_trainer import assert_same_weights, dropout_lm_trainer

MAKERS = {"seq2seq": seq2seq_trainer, "lm": lm_trainer, "lm_with_dropout": dropout_lm_trainer}


class FakeSpaces(types.ModuleType):
    """`spaces` as on a ZeroGPU Space: GPU(duration=...) runs a call through pickles."""

    def __init__(self):
        super().__init__("spaces")
        self.calls = 0
        self.durations = []

    def GPU(self, duration=None):
        self.durations.append(duration)

        def decorate(function):
            def in_a_worker(*args):
                self.calls += 1
                result = function(*pickle.loads(pickle.dumps(args)))
                return pickle.loads(pickle.dumps(result))
            return in_a_worker
        return decorate


@pytest.fixture
def zero_gpu(monkeypatch):
    """The process as on a ZeroGPU Space, with chunks short enough that a run takes several."""
    spaces = FakeSpaces()
    monkeypatch.setenv(ZERO_GPU_VARIABLE, "true")
    monkeypatch.setitem(sys.modules, "spaces", spaces)
    monkeypatch.setattr(device_module, "_chosen", None)
    importlib.reload(zerogpu)                        # decorated as the app's import would do there
    monkeypatch.setattr(zerogpu, "GPU", torch.device("cpu"))
    monkeypatch.setattr(zerogpu, "CHUNK_SECONDS", 0.02)
    yield spaces
    monkeypatch.undo()
    importlib.reload(zerogpu)


@pytest.mark.parametrize("kind", MAKERS)
def test_a_run_in_gpu_chunks_trains_exactly_like_one_run(zero_gpu, kind):
    whole = MAKERS[kind](max_steps=30)
    events(whole.run())

    chunked = MAKERS[kind](max_steps=30)
    progress = events(zerogpu.run(chunked))

    assert zero_gpu.calls >= 2 and zero_gpu.durations == [zerogpu.GPU_CALL_SECONDS]
    assert chunked.step_losses == whole.step_losses
    assert_same_weights(chunked, whole)
    assert [e.status for e in progress] == ["running"] * (len(progress) - 1) + ["finished"]   # one run, not chunks
    assert [e.status for e in chunked.history] == [e.status for e in progress]


def test_a_stop_between_chunks_keeps_the_state_and_a_later_run_continues_exactly(zero_gpu):
    whole = seq2seq_trainer(max_steps=30)
    events(whole.run())

    split = seq2seq_trainer(max_steps=30)
    run = zerogpu.run(split)
    for item in run:
        if zero_gpu.calls == 2:                      # inside the second chunk's items: Stop
            break
    run.close()
    assert 0 < split.step < 30 and zero_gpu.calls == 2
    assert events(zerogpu.run(split, max_steps=5))[-1].status == "paused"
    events(split.run())                              # the rest on the process's own device
    assert split.step_losses == whole.step_losses
    assert_same_weights(split, whole)


def test_the_run_caps_hold_across_chunks(zero_gpu):
    trainer = seq2seq_trainer(max_steps=1000)
    last = events(zerogpu.run(trainer, max_steps=12))[-1]
    assert trainer.step == 12 and last.status == "paused" and zero_gpu.calls >= 2
    started = trainer.elapsed
    last = events(zerogpu.run(trainer, max_seconds=0.1))[-1]
    assert last.status == "paused" and trainer.elapsed - started >= 0.1 and trainer.step < 1000


def test_elsewhere_a_run_is_the_trainers_own(monkeypatch):
    monkeypatch.delenv(ZERO_GPU_VARIABLE, raising=False)
    monkeypatch.setattr(zerogpu, "_train_chunk", lambda *args: pytest.fail("no GPU chunk off ZeroGPU"))
    whole, same = seq2seq_trainer(max_steps=8), seq2seq_trainer(max_steps=8)
    events(whole.run())
    assert events(zerogpu.run(same))[-1].status == "finished"
    assert same.step_losses == whole.step_losses
