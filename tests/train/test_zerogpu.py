"""Training on a ZeroGPU Space: chunks of a run cross a pickling boundary and the run is unchanged;
each chunk asks for what it uses, is charged to the caller, and a refused one goes on on the CPU.

The real `spaces` package, against a fake control API, is met in test_zerogpu_platform.py (its
worker process, queue, error texts and duration factor); these tests check the chunks' exactness
quickly, so there `spaces` is replaced by a stand-in with the platform's contract:
a decorated call (a generator) receives its arguments and hands back each item it yields pickled,
as it comes (what it changes in its arguments never reaches the caller); before the call it asks the `duration` callable for the
seconds to reserve and refuses the call, raising a Gradio error as `spaces` does, when the
caller's quota left is below them; it charges the seconds the call took (whole seconds, at least
one); and it reads the caller's request from the calling context. The GPU is the test session's device (the CPU here).
"""
import contextvars
import importlib
import math
import pickle
import sys
import threading
import time
import types

import pytest
import torch

from playground import device as device_module
from playground.device import DEVICE_VARIABLE, ZERO_GPU_VARIABLE, default_device
from playground.train import zerogpu
from playground.train.events import GpuRefusal, TrainEvent

from .helpers import assert_same_losses, events, lm_trainer, seq2seq_trainer
from .test_trainer import assert_same_weights, dropout_lm_trainer

MAKERS = {"seq2seq": seq2seq_trainer, "lm": lm_trainer, "lm_with_dropout": dropout_lm_trainer}
REQUEST = contextvars.ContextVar("request")           # what gradio.context.LocalContext.request is to `spaces`


class GradioError(Exception):
    """What `spaces` raises: a gradio.Error, with a title and a message."""

    def __init__(self, message: str, title: str):
        super().__init__(message)
        self.message, self.title = message, title


class StandInSpaces(types.ModuleType):
    """`spaces` as on a ZeroGPU Space (see the module docstring). ``quota_s``: seconds of GPU left to
    the caller (None: plenty); ``charge_s``: seconds each call is charged (None: the time it took, at
    least 1 s, as the platform charges); ``refuse``: an error to raise on every call instead."""

    def __init__(self):
        super().__init__("spaces")
        self.calls = 0
        self.ended = 0                                   # calls that handed everything back
        self.refused = 0
        self.requested: list[tuple[float, int]] = []     # (the chunk's max_seconds, the seconds asked for)
        self.requests: list[object] = []                 # the request each call was charged to
        self.quota_s: float | None = None
        self.charge_s: float | None = None
        self.refuse: Exception | None = None

    def GPU(self, duration=None):
        def decorate(function):
            def in_a_worker(*args):                     # a generator, as the chunk is: it streams what it yields
                seconds = duration(*args) if callable(duration) else duration
                self.requested.append((args[2], seconds))
                self.requests.append(REQUEST.get(None))
                if self.refuse is not None:
                    self.refused += 1
                    raise self.refuse
                if self.quota_s is not None and self.quota_s < seconds:
                    self.refused += 1
                    raise GradioError(f"You have exceeded your free ZeroGPU quota ({seconds}s requested vs. "
                                      f"{math.floor(self.quota_s)}s left). Try again in 5:12:00.",
                                      title="ZeroGPU quota exceeded")
                self.calls += 1
                started = time.perf_counter()
                for item in function(*pickle.loads(pickle.dumps(args))):
                    yield pickle.loads(pickle.dumps(item))
                self.ended += 1
                if self.quota_s is not None:
                    took = max(1, math.ceil(time.perf_counter() - started))
                    self.quota_s -= took if self.charge_s is None else self.charge_s
            return in_a_worker
        return decorate


@pytest.fixture
def zero_gpu(monkeypatch):
    """The process as on a ZeroGPU Space (on the CPU), its chunks on the session's device and short
    enough that a run takes several."""
    gpu = default_device()
    spaces = StandInSpaces()
    monkeypatch.setenv(ZERO_GPU_VARIABLE, "true")
    monkeypatch.delenv(DEVICE_VARIABLE, raising=False)
    monkeypatch.setitem(sys.modules, "spaces", spaces)
    monkeypatch.setattr(device_module, "_chosen", None)
    importlib.reload(zerogpu)                        # decorated as the app's import would do there
    monkeypatch.setattr(zerogpu, "GPU", gpu)
    monkeypatch.setattr(zerogpu, "CHUNK_SECONDS", 0.02)
    yield spaces
    monkeypatch.undo()
    importlib.reload(zerogpu)


@pytest.mark.parametrize("kind", MAKERS)
def test_a_run_in_gpu_chunks_trains_exactly_like_one_run(zero_gpu, kind):
    whole = MAKERS[kind](max_steps=30).to(zerogpu.GPU)
    events(whole.run())

    chunked = MAKERS[kind](max_steps=30)
    progress = events(zerogpu.run(chunked))

    assert zero_gpu.calls >= 2 and chunked.device == torch.device("cpu")
    assert_same_losses(chunked.step_losses, whole.step_losses)
    assert_same_weights(chunked, whole)
    assert [e.status for e in progress] == ["running"] * (len(progress) - 1) + ["finished"]   # one run, not chunks
    assert [e.status for e in chunked.history] == [e.status for e in progress]
    assert all(e.gpu_refusal is None for e in progress)


def test_a_stop_between_chunks_keeps_the_state_and_a_later_run_continues_exactly(zero_gpu):
    whole = seq2seq_trainer(max_steps=30).to(zerogpu.GPU)
    events(whole.run())

    split = seq2seq_trainer(max_steps=30)
    run = zerogpu.run(split)
    for item in run:
        if zero_gpu.calls == 2:                      # inside the second chunk's items: Stop
            break
    run.close()
    assert 0 < split.step < 30 and zero_gpu.calls == 2
    assert events(zerogpu.run(split, max_steps=5))[-1].status == "paused"
    events(split.to(zerogpu.GPU).run())              # the rest in one go, where the chunks trained
    assert_same_losses(split.step_losses, whole.step_losses)
    assert_same_weights(split, whole)


def test_the_run_caps_hold_across_chunks(zero_gpu):
    trainer = seq2seq_trainer(max_steps=1000)
    last = events(zerogpu.run(trainer, max_steps=12))[-1]
    assert trainer.step == 12 and last.status == "paused" and zero_gpu.calls >= 2
    started = trainer.elapsed
    last = events(zerogpu.run(trainer, max_seconds=0.1))[-1]
    assert last.status == "paused" and trainer.elapsed - started >= 0.1 and trainer.step < 1000


def test_each_call_asks_for_its_chunk_and_the_calls_overhead_not_a_fixed_minute(zero_gpu):
    trainer = seq2seq_trainer(max_steps=1000)
    assert zerogpu.gpu_seconds(trainer, None, 5.0) == 5 + zerogpu.CALL_OVERHEAD_SECONDS == 10
    assert zerogpu.gpu_seconds(trainer, None, 2.5) == 8                      # a shorter last chunk asks for less
    events(zerogpu.run(trainer, max_steps=40))
    chunks = [chunk for chunk, _ in zero_gpu.requested]
    assert len(chunks) >= 2 and set(chunks) == {zerogpu.CHUNK_SECONDS}
    assert [asked for _, asked in zero_gpu.requested] == [math.ceil(chunk + 5) for chunk in chunks] == [6] * len(chunks)


def test_progress_streams_during_a_chunk_and_every_call_trains_a_whole_chunk(zero_gpu, monkeypatch):
    """A chunk's events show as they come, not when its call returns: a run's first point shows one
    event interval after its GPU comes, and no call is spent on a short first chunk."""
    monkeypatch.setattr(zerogpu, "CHUNK_SECONDS", 60.0)         # the whole run in one call
    trainer = seq2seq_trainer(max_steps=6)
    run = zerogpu.run(trainer)
    first = next(item for item in run if isinstance(item, TrainEvent))
    assert zero_gpu.calls == 1 and zero_gpu.ended == 0           # the call under way
    assert first.step == 1 and trainer.history == [first]       # in the history the views draw
    rest = events(run)
    assert zero_gpu.ended == 1 and rest[-1].status == "finished" and trainer.step == 6
    assert trainer.history == [first, *rest]
    assert [chunk for chunk, _ in zero_gpu.requested] == [60.0]


def test_a_stop_within_a_chunk_ends_it_at_the_next_item_and_keeps_its_training(zero_gpu, monkeypatch):
    monkeypatch.setattr(zerogpu, "CHUNK_SECONDS", 60.0)
    whole = seq2seq_trainer(max_steps=30).to(zerogpu.GPU)
    events(whole.run())

    split = seq2seq_trainer(max_steps=30)
    run = zerogpu.run(split)
    seen = [item for _, item in zip(range(3), (i for i in run if isinstance(i, TrainEvent)))]
    run.close()                                                   # Stop, within the only chunk
    assert zero_gpu.calls == zero_gpu.ended == 1
    assert split.step == 3 and split.history == seen              # the chunk's steps up to the stop, kept
    events(zerogpu.run(split))                                    # Resume continues exactly
    assert_same_losses(split.step_losses, whole.step_losses)
    assert_same_weights(split, whole)


def test_a_chunk_that_fails_after_streaming_takes_its_progress_back_and_goes_on_on_the_cpu(zero_gpu, monkeypatch):
    monkeypatch.setattr(zerogpu, "CHUNK_SECONDS", 60.0)
    trainer = seq2seq_trainer(max_steps=6)
    chunk = zerogpu._train_chunk

    def fails_after_two_events(*args):
        for item in chunk(*args):
            yield item
            if isinstance(item, TrainEvent) and item.step == 2:
                raise GradioError("GPU task aborted", title="ZeroGPU worker error")

    monkeypatch.setattr(zerogpu, "_train_chunk", fails_after_two_events)
    progress = events(zerogpu.run(trainer))
    assert [e.step for e in progress] == [1, 2, 1, 2, 3, 4, 5, 6]          # shown, then trained again on the CPU
    assert [e.step for e in trainer.history] == [1, 2, 3, 4, 5, 6] and trainer.step == 6
    assert all(e.gpu_refusal.reason == "gpu_unavailable" for e in trainer.history)


def test_a_refused_call_goes_on_on_the_cpu_and_every_later_event_says_why(zero_gpu):
    trainer = seq2seq_trainer(max_steps=60)
    zero_gpu.quota_s = zerogpu.gpu_seconds(trainer, None, zerogpu.CHUNK_SECONDS) + 1.5   # two calls of 1 s, not 3
    zero_gpu.charge_s = 1       # (a busy machine can take over a second for a chunk: charged as one all the same)
    progress = events(zerogpu.run(trainer))

    assert zero_gpu.calls == 2 and zero_gpu.refused == 1                     # no retry within the run
    assert progress[-1].status == "finished" and trainer.step == 60 and trainer.failure is None
    noted = [e for e in progress if e.gpu_refusal is not None]
    assert noted and progress[-len(noted):] == noted                          # every event after the refusal,
    assert len(noted) < len(progress)                                         # none of the GPU's
    refusal = noted[0].gpu_refusal
    assert refusal.reason == "gpu_quota" and refusal.quota_left_s == math.floor(zero_gpu.quota_s) == 5
    assert refusal.retry_in == "5:12:00" and "exceeded your free ZeroGPU quota" in refusal.detail
    assert trainer.history[-1] == progress[-1] and trainer.device == torch.device("cpu")
    assert trainer.trained_on["cpu"] == "float32"


def test_a_run_refused_from_its_first_call_is_the_cpus_own_run(zero_gpu):
    whole = seq2seq_trainer(max_steps=20)                       # on the process's device: the CPU
    events(whole.run())
    zero_gpu.quota_s = 1.0
    refused = seq2seq_trainer(max_steps=20)
    progress = events(zerogpu.run(refused))
    assert zero_gpu.calls == 0 and progress[-1].status == "finished"
    assert all(e.gpu_refusal.reason == "gpu_quota" for e in progress)
    assert refused.step_losses == whole.step_losses                          # CPU and CPU: exactly
    events(zerogpu.run(refused, max_steps=1))                                 # the next run asks the GPU again
    assert zero_gpu.refused == 2


@pytest.mark.parametrize("error, reason", [
    (GradioError("No GPU was available after 60s. Retry later", title="ZeroGPU queue timeout"), "gpu_busy"),
    (GradioError("No GPU was available after 60s. Try re-running outside of examples if it happened after "
                 "clicking one", title="ZeroGPU quota exceeded"), "gpu_busy"),
    (GradioError("No GPU was available", title="ZeroGPU client error"), "gpu_busy"),
    (GradioError("GPU task aborted", title="ZeroGPU worker error"), "gpu_unavailable"),
    (GradioError("Space app has reached its GPU limit. Try re-running outside of examples",
                 title="ZeroGPU quota exceeded"), "gpu_outside_hf"),
    (GradioError("You have exceeded your ZeroGPU quota (6s requested vs. 0s left). Try again in 1:00:00. ",
                 title="ZeroGPU quota exceeded"), "gpu_signed_out"),
    (GradioError("You have exceeded your ZeroGPU runs limit. ", title="ZeroGPU quota exceeded"), "gpu_quota"),
    (RuntimeError("Connection closed by visitor while queueing"), "gpu_unavailable"),
])
def test_every_kind_of_refusal_is_named_and_the_run_goes_on(zero_gpu, error, reason):
    """The platform's texts (spaces 0.51's client.py); test_zerogpu_platform.py meets them through the real package."""
    zero_gpu.refuse = error
    trainer = seq2seq_trainer(max_steps=5)
    progress = events(zerogpu.run(trainer))
    assert progress[-1].status == "finished" and trainer.step == 5
    refusal = progress[-1].gpu_refusal
    assert isinstance(refusal, GpuRefusal) and refusal.reason == reason and refusal.detail


def test_a_chunk_that_would_hand_back_a_tensor_off_the_cpu_fails_with_what_it_holds():
    """A cache a module keeps outside its parameters and buffers, left on the GPU by `.to()`, would
    reach the Space's main process (where CUDA is forbidden) through the worker's queue: refused in
    the worker, so the run goes on on the CPU, instead of failing there. `meta` plays the GPU."""
    trainer = seq2seq_trainer(max_steps=2)
    events(trainer.run())
    meta = torch.device("meta")
    zerogpu.check_left_on((trainer, []), meta)                 # a trained trainer on the CPU passes
    trainer.model.kept = {"stacked": torch.zeros(6, 4, device=meta)}
    with pytest.raises(zerogpu.LeftOnGpu, match=r"1 tensor\(s\) still on meta \(.*model\.kept\['stacked'\]\)"):
        zerogpu.check_left_on((trainer, []), meta)


def test_a_chunk_checks_what_it_returns(zero_gpu, monkeypatch):
    monkeypatch.setattr(zerogpu, "check_left_on", lambda *args: (_ for _ in ()).throw(zerogpu.LeftOnGpu("left")))
    trainer = seq2seq_trainer(max_steps=4)
    progress = events(zerogpu.run(trainer))
    assert progress[-1].status == "finished" and trainer.step == 4
    assert progress[-1].gpu_refusal.reason == "gpu_unavailable" and "LeftOnGpu: left" in progress[-1].gpu_refusal.detail


def test_each_call_is_charged_to_the_request_of_the_context_the_run_was_started_in(zero_gpu):
    """`spaces` reads the Gradio request from the calling context; a run started in a page event and
    driven from another thread (as the Train tab's worker does) still carries that request."""
    student = object()
    trainer = seq2seq_trainer(max_steps=20)

    def started_in_the_event():
        REQUEST.set(student)
        return zerogpu.run(trainer)

    run = contextvars.copy_context().run(started_in_the_event)
    assert REQUEST.get(None) is None
    worker = threading.Thread(target=lambda: events(run))
    worker.start()
    worker.join()
    assert trainer.step == 20 and zero_gpu.calls >= 2
    assert zero_gpu.requests == [student] * zero_gpu.calls


def test_elsewhere_a_run_is_the_trainers_own(monkeypatch):
    monkeypatch.delenv(ZERO_GPU_VARIABLE, raising=False)
    monkeypatch.setattr(zerogpu, "_train_chunk", lambda *args: pytest.fail("no GPU chunk off ZeroGPU"))
    whole, same = seq2seq_trainer(max_steps=8), seq2seq_trainer(max_steps=8)
    events(whole.run())
    assert events(zerogpu.run(same))[-1].status == "finished"
    assert_same_losses(same.step_losses, whole.step_losses)
