"""Trainings at once, per host, and what a student waiting for a slot is told: their place in line
and about how long until their turn."""
import pytest

from playground.ui.page import context
from playground.ui.session import training
from playground.ui.session.training import TrainingLine


@pytest.mark.parametrize("zero_gpu, variable, slots", [
    ("", "", context.DEFAULT_TRAINING_SLOTS), ("true", "", context.ZERO_GPU_TRAINING_SLOTS), ("true", "3", 3),
])
def test_trainings_at_once_default_per_host(monkeypatch, zero_gpu, variable, slots):
    monkeypatch.setenv("SPACES_ZERO_GPU", zero_gpu)
    monkeypatch.setenv(context.TRAINING_SLOTS_ENV_VAR, variable)
    assert context.training_slots() == slots
    assert context.ZERO_GPU_TRAINING_SLOTS > context.DEFAULT_TRAINING_SLOTS == 1


def test_a_waiting_student_gets_their_place_and_the_time_until_a_slot_frees(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(training.time, "monotonic", lambda: now[0])
    line = TrainingLine()
    line.runs("a")                                    # one run going since t = 1000
    now[0] += 30
    line.waits("b")
    now[0] += 1
    line.waits("c")
    assert line.estimate("b", slots=1, run_s=90) == (1, 59)      # a's run ends at most 90 s after it began
    assert line.estimate("c", slots=1, run_s=90) == (2, 149)     # then b's run, then c's turn
    assert line.estimate("c", slots=2, run_s=90) == (2, 59)      # b takes the free slot at once
    assert line.estimate("b", slots=2, run_s=90) == (1, 0)
    line.ends("a")
    line.runs("b")
    assert line.estimate("c", slots=1, run_s=90) == (1, 90)
    now[0] += TrainingLine.FORGET_WAIT_S
    line.waits("d")
    line.ends("b")
    assert line.estimate("d", slots=1, run_s=90) == (1, 0)       # c left the line long ago: forgotten
