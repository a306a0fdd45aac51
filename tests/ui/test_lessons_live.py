"""The Lessons tab's live experiments as handlers of a Workspace: lessons 9, 10 and 14 train the Train
tab's presets in the session, streaming progress and stopping at the lesson's goal; lesson 13 runs a
lab of the Labs tab; a second run of the session is refused with a message; Stop stops; the app
queues the runs for its training slots. Goals and intervals are made small so each run takes a
second or two."""
import re
from dataclasses import replace
from types import SimpleNamespace

import gradio as gr
import plotly.graph_objects as go
import pytest

from playground.labs import get_lab
from playground.train import recipes
from playground.ui.course import LESSONS
from playground.ui.page.context import training_slots
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.labs import session as ui_labs
from playground.ui.tabs.lessons import LessonsForm, handlers, live

from ..labs.helpers import tiny

BY_ID = {lesson.id: lesson for lesson in LESSONS}
STEP = re.compile(r"Step \*\*(\d+)\*\*")
FIRST_GOAL_STEP = 3          # lesson 14's goal is read from this step on: the steps before it stream first


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """Progress at every step, sent as it comes; held-out metrics and snapshots every second; tiny labs."""
    monkeypatch.setattr(recipes, "EVENT_EVERY_S", 0.0)
    monkeypatch.setattr(recipes, "EVAL_EVERY_S", 1.0)
    monkeypatch.setattr(recipes, "SNAPSHOT_EVERY_S", 1.0)
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id)))
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)


def run(workspace: Workspace, lesson_id: str, lang: str = "en") -> list[dict]:
    return list(handlers.run_live(workspace, LessonsForm(lesson=lesson_id), lang))


def shown(update: dict) -> list[go.Figure]:
    """The figures an update draws (a slot it leaves out keeps its figure)."""
    return [update[name].constructor_args["value"] for name in handlers.OUTCOMES
            if name in update and update[name].constructor_args["visible"]]


def steps_streamed(updates: list[dict]) -> list[int]:
    return [int(m.group(1)) for update in updates if (m := STEP.search(update["live_status"]))]


def goal_after_three_steps(monkeypatch, key: str, goal=None) -> None:
    """LIVE[key]'s goal (or `goal`) read only once the run has been seen at three different steps: the
    progress sent before it then shows at least two, however the worker's items were batched (each look
    is followed by an update whose step lies between that look's and the next one's)."""
    goal = goal or live.LIVE[key].goal
    seen = set()

    def after_three_steps(session):
        seen.add(session.trainer.step)
        return goal(session) if len(seen - {0}) >= 3 else None
    monkeypatch.setitem(live.LIVE, key, replace(live.LIVE[key], goal=after_three_steps))


def ends_at_its_goal(updates: list[dict], lesson_id: str, figures: int) -> str:
    """The final update: the goal reached, the lesson's reveal, its figures; progress streamed before it."""
    *progress, last = updates
    assert len(set(steps_streamed(progress))) >= 2                        # several steps shown as it trained
    assert all(update["reveal"] == "" for update in progress)
    assert "Goal reached at step" in last["live_status"]
    assert last["reveal"].startswith(BY_ID[lesson_id].experiment.reveal("en"))
    assert len(last["reveal"]) > len(BY_ID[lesson_id].experiment.reveal("en"))    # and what this run showed
    assert len(shown(last)) == figures
    return last["live_status"]


def test_lesson_9_trains_copy_live_and_stops_at_its_exact_match_goal(monkeypatch):
    monkeypatch.setattr(live, "COPY_GOAL", 0.0)              # reached at the first evaluation
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)         # every step streams, however fast the machine
    goal_after_three_steps(monkeypatch, "copy")
    workspace = Workspace("copy")
    updates = run(workspace, "copy-training")
    status = ends_at_its_goal(updates, "copy-training", 3)
    assert "exact match" in status and "diagonal" in status
    # the curves follow every step; the probe's attention is sent again only with a new snapshot
    assert any("outcome_0" in update and "outcome_1" not in update for update in updates[2:])
    session = workspace.training
    assert session.state == "stopped" and session.trainer.step < 600      # it stopped at the goal, not the preset's end
    assert "lesson-copy" in workspace.models and workspace.model("lesson-copy") is session.entry
    assert workspace.current_model == "lesson-copy"                 # every tab shows it when next shown


def test_a_lessons_run_keeps_the_model_trained_in_the_train_tab_beside_its_own(monkeypatch):
    from playground.ui.tabs.train import handlers as train_handlers
    from playground.ui.tabs.train.form import TrainForm

    monkeypatch.setattr(live, "COPY_GOAL", 0.0)
    workspace = Workspace("both")
    list(train_handlers.step(workspace, TrainForm(task="copy").fit(None, {"task"})[0].spec("en"), "", "en"))
    trained = workspace.model("trained-copy")
    assert trained is not None
    run(workspace, "copy-training")
    assert workspace.model("trained-copy") is trained                       # the Train tab's model, untouched
    assert workspace.model("lesson-copy") is workspace.training.entry is not trained
    assert "lesson-copy" in workspace.training.model_name


def test_lesson_10_memorises_the_rhyme_until_its_training_loss_goal(monkeypatch):
    monkeypatch.setattr(live, "RHYME_GOAL", 1.0)             # ln 37 = 3.6 at random weights; reached after several progress reports
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)         # every step streams, however fast the machine
    goal_after_three_steps(monkeypatch, "rhyme")
    workspace = Workspace("rhyme")
    updates = run(workspace, "char-lm", "en")
    ends_at_its_goal(updates, "char-lm", 1)
    trainer = workspace.training.trainer
    reached = next(e for e in trainer.history if e.loss <= 1.0)
    assert f"Goal reached at step {reached.step}" in updates[-1]["live_status"]
    assert workspace.training.spec.data == "rhyme" and workspace.training.spec.preset.block_size == 32


def test_lesson_14_follows_the_head_scores_until_an_induction_head(monkeypatch):
    monkeypatch.setattr(live, "INDUCTION_THRESHOLD", -1.0)   # crossed at every snapshot after step 0
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)         # every step streams, however fast the machine
    monkeypatch.setattr(recipes, "SNAPSHOT_EVERY_S", 0.0)    # a snapshot every step, however slow the machine
    lesson = live.LIVE["induction"]                          # its goal read from step FIRST_GOAL_STEP on
    goal_after_three_steps(monkeypatch, "induction", lambda session: lesson.goal(
        SimpleNamespace(score_history=[(step, scores) for step, scores in session.score_history
                                       if step >= FIRST_GOAL_STEP])))
    workspace = Workspace("induction")
    status = ends_at_its_goal(run(workspace, "heads-form"), "heads-form", 3)
    assert f"Goal reached at step {FIRST_GOAL_STEP}" in status and "induction score" in status


def test_lesson_13_runs_its_lab_in_the_session_and_keeps_the_result_for_the_labs_tab():
    workspace = Workspace("lab")
    updates = run(workspace, "bugs", "zh-CN")
    *progress, last = updates
    assert len(progress) >= 2 and all(update["reveal"] == "" for update in progress)
    assert any(len(shown(update)) == 1 for update in progress)          # the curves as it trains
    assert len(shown(last)) == 3 and last["reveal"].startswith(BY_ID["bugs"].experiment.reveal("zh-CN"))
    result = workspace.labs.latest("float-mask")
    assert result is not None and result.steps_done == result.steps_planned
    assert workspace.current_model is None                            # a lab publishes no model


def test_a_second_run_of_the_session_is_refused_with_a_message_and_stop_stops(monkeypatch):
    monkeypatch.setattr(live, "RHYME_GOAL", -1.0)            # never reached
    workspace = Workspace("busy")
    form = LessonsForm(lesson="char-lm")
    assert handlers.check_live(workspace, form, "en")["live_status"].startswith("Waiting for a free training slot")
    stream = handlers.run_live(workspace, form, "en")
    while not steps_streamed([next(stream)]):
        pass
    for lesson in ("char-lm", "copy-training"):               # the session's one training is going
        with pytest.raises(gr.Error, match="already running"):
            handlers.check_live(workspace, LessonsForm(lesson=lesson), "en")
    assert handlers.stop_live(workspace, form, "en")["live_status"] == gr.skip()
    assert not workspace.training.running
    last = list(stream)[-1]
    assert "Stopped at step" in last["live_status"] and last["reveal"]
    assert workspace.training.state == "stopped"


def test_a_lesson_without_a_live_run_refuses_one():
    with pytest.raises(gr.Error, match="nothing to train"):
        handlers.check_live(Workspace("none"), LessonsForm(lesson="tokens"), "en")


def test_the_app_queues_live_runs_for_its_training_slots(demo):
    by_name = {fn.api_name: fn for fn in demo.fns.values()}
    running = by_name["lesson_run"]
    assert running.concurrency_id == "training" and running.concurrency_limit == training_slots()
    assert by_name["lesson_stop"].concurrency_limit is None          # Stop never waits behind the runs
