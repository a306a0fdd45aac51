"""A live run decides the verdict on the learner's prediction: the run's outcome (what its findings
computed), not the answer the syllabus expects, says whether the prediction was borne out; a run
that ended too early says so. The outcome functions read the run's numbers as the sentences say."""
import plotly.graph_objects as go
import pytest

from playground.ui.course import LESSONS
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.lessons import LessonsForm, handlers, live
from playground.ui.tabs.lessons.run_findings import cross_pattern, formation_order, rhyme_ending

BY_ID = {lesson.id: lesson for lesson in LESSONS}
LIVE_LESSONS = [lesson for lesson in LESSONS if lesson.experiment.live]


def index_of(lesson_id: str, outcome: str) -> int:
    return next(k for k, c in enumerate(BY_ID[lesson_id].experiment.predict.choices) if c.outcome == outcome)


@pytest.mark.parametrize("lesson", LIVE_LESSONS, ids=lambda lesson: lesson.id)
def test_every_prediction_of_a_live_run_names_what_the_run_must_show(lesson):
    outcomes = [choice.outcome for choice in lesson.experiment.predict.choices]
    assert all(outcomes) and len(set(outcomes)) == len(outcomes)


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_verdict_follows_the_run_not_the_expected_answer(lang):
    diagonal, anti = index_of("copy-training", "diagonal"), index_of("copy-training", "anti_diagonal")
    matched = handlers.run_verdict("copy-training", diagonal, "diagonal", lang)
    refuted = handlers.run_verdict("copy-training", diagonal, "anti_diagonal", lang)
    wrong_but_borne_out = handlers.run_verdict("copy-training", anti, "anti_diagonal", lang)
    anti_text = BY_ID["copy-training"].experiment.predict.choices[anti].text.get(lang)
    assert matched.startswith("**Your run bore" if lang == "en" else "**你这次运行证实")
    assert refuted != matched and anti_text in refuted
    assert wrong_but_borne_out.startswith(matched[:12])
    assert handlers.run_verdict("copy-training", diagonal, "", lang) not in (matched, refuted)
    assert handlers.run_verdict("heads-form", index_of("heads-form", "same"), "none", lang) not in (matched, refuted)
    assert handlers.run_verdict("copy-training", None, "diagonal", lang) == ""


def test_the_handler_takes_the_verdict_from_the_runs_outcome(monkeypatch):
    """A run whose outcome refutes the expected answer: the verdict says so, the reveal carries its findings."""
    figure = go.Figure()
    monkeypatch.setattr(live, "run", lambda workspace, key, lang: iter([
        live.Progress([figure], "…"),
        live.Progress([figure], "done", done=True, findings="FINDINGS", outcome="previous")]))
    workspace = Workspace("verdict")
    handlers.predicted(workspace, "heads-form", index_of("heads-form", "same"), "en")
    *progress, last = handlers.run_live(workspace, LessonsForm(lesson="heads-form"), "en")
    assert progress[0]["verdict"] == "" and progress[0]["reveal"] == ""
    assert "did not bear your prediction out" in last["verdict"] and "The previous-token head" in last["verdict"]
    assert last["reveal"].endswith("FINDINGS")


def test_the_outcomes_read_the_numbers_as_the_sentences_do():
    assert formation_order({"previous": 100, "induction": 150}, span=400) == "same"
    assert formation_order({"previous": 100, "induction": 300}, span=400) == "previous"
    assert formation_order({"previous": 300, "induction": 100}, span=400) == "induction"
    assert formation_order({"previous": None, "induction": 100}, span=400) == "none"
    assert cross_pattern(0.9, 0.1) == "diagonal" and cross_pattern(0.2, 0.7) == "anti_diagonal"
    assert cross_pattern(0.3, 0.2) == "none"
    assert rhyme_ending(0.25, 120, 37) == "memorised" and rhyme_ending(3.4, None, 37) == "flat"
    assert rhyme_ending(1.5, None, 37) == "level"
