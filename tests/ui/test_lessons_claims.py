"""Every number, setting and comparison a lesson states about its figures agrees with the figures'
own data, in both languages: the claims of each lesson's views and typed numbers (claims.py), and
the findings a live run writes into its reveal (lesson 14's "first" and "same stretch" follow the
curves it drew; lesson 13's verdict follows the leak a full run of the float-mask lab measured, whose
own findings agree too). A claim that contradicts its figure fails."""
import pytest

from playground.labs import get_lab
from playground.train import recipes
from playground.ui.course import LESSONS
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.labs import session as ui_labs
from playground.ui.tabs.lessons import live
from playground.ui.tabs.lessons import views as lesson_views
from playground.ui.tabs.lessons.claims import CLAIMS, TEXT_CLAIMS, lesson_claims, view_keys
from playground.ui.tabs.lessons.views import VIEWS, Shown

from ..labs.helpers import tiny


@pytest.fixture
def registry(shipped_views):
    return shipped_views


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_claim_of_a_lesson_agrees_with_its_figures(registry, lesson, lang):
    claims = lesson_claims(registry, lesson, lang)
    assert [str(claim) for claim in claims if not claim.holds] == []
    shown = [VIEWS[key](registry, lang) for key in view_keys(lesson)]
    if any(view.facts for view in shown) or lesson.id in TEXT_CLAIMS:
        assert claims                                                       # numbers stated are numbers checked


def test_every_view_whose_note_states_numbers_has_claims(registry):
    stating = {key for key, view in VIEWS.items() if view(registry, "en").facts}
    assert stating <= set(CLAIMS), stating - set(CLAIMS)


def test_a_figure_drawn_at_another_temperature_than_the_text_says_is_caught(registry):
    shown = VIEWS["decoding_temperature"](registry, "en")
    half, _ = lesson_views._candidates(registry, "en", "shakespeare-char", lesson_views.SHAKESPEARE_PROMPT,
                                       temperature=0.5)
    claims = CLAIMS["decoding_temperature"](Shown([half, *shown.figures[1:]], shown.note, shown.facts), "en")
    failed = [claim for claim in claims if not claim.holds]
    assert any("temperature 0.2" in claim.what and claim.measured == pytest.approx(0.5, rel=1e-3) for claim in failed)


@pytest.fixture
def frequent_snapshots(monkeypatch):
    """Held-out metrics every second and head scores twice a second: points enough on a short run's curves."""
    monkeypatch.setattr(recipes, "EVAL_EVERY_S", 1.0)
    monkeypatch.setattr(recipes, "SNAPSHOT_EVERY_S", 0.5)


@pytest.fixture
def quick(monkeypatch, frequent_snapshots):
    """And progress at every step, sent to the page as it comes."""
    monkeypatch.setattr(recipes, "EVENT_EVERY_S", 0.0)
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)


def finished(key: str, lang: str):
    progress = list(live.run(Workspace(key), key, lang))
    assert progress[-1].done and progress[-1].findings
    return progress[-1]


def test_lesson_14_says_which_score_rose_first_as_its_curves_show(frequent_snapshots):
    """One run to the lesson's goal, its findings read in both languages (its progress drawn as often as
    on the page, not at each of its few hundred steps)."""
    workspace = Workspace("induction")
    last = list(live.run(workspace, "induction", "en"))[-1]
    assert last.done and last.findings
    session, lesson = workspace.training, live.LIVE["induction"]
    for lang in ("en", "zh-CN"):
        findings, claims, outcome = lesson.findings(session, lesson.goal(session), lang)
        first = next(claim for claim in claims if "rose first" in claim.what)
        assert first.holds and first.stated in ("previous", "induction", "same", "none")
        assert [str(claim) for claim in claims if not claim.holds] == []
        stretch = next(claim for claim in claims if "same stretch" in claim.what)
        assert stretch.stated == outcome == last.outcome
        assert findings == last.findings if lang == "en" else findings != last.findings


def test_lesson_9_says_what_moved_first_as_its_curves_show(quick, monkeypatch):
    monkeypatch.setattr(live, "COPY_GOAL", 0.0)
    last = finished("copy", "en")
    assert last.claims and all(claim.holds for claim in last.claims)
    assert "In your run the training loss started at" in last.findings


def test_lesson_10_reads_its_run(quick, monkeypatch):
    monkeypatch.setattr(live, "RHYME_GOAL", 3.0)
    last = finished("rhyme", "zh-CN")
    assert last.claims and all(claim.holds for claim in last.claims)
    assert "训练损失从第" in last.findings


def test_lesson_13_and_the_float_mask_lab_agree_with_a_full_run():
    """The lab as the app runs it (its whole preset): its own findings, and lesson 13's verdict on the
    prediction, hold for the run's numbers."""
    last = finished("float-mask", "en")
    assert {claim.what for claim in last.claims} >= {
        "lesson 13: the verdict on the prediction follows the leak the findings state",
        "float-mask: the variant's future leaks"}
    assert last.outcome == "leak"
    assert [str(claim) for claim in last.claims if not claim.holds] == []


def test_a_tiny_float_mask_lab_still_reports_what_it_measured(monkeypatch):
    monkeypatch.setattr(ui_labs, "get_lab", lambda lab_id: tiny(get_lab(lab_id)))
    monkeypatch.setattr(live, "UPDATE_EVERY_S", 0.0)
    last = finished("float-mask", "zh-CN")
    assert "未来泄漏进来了" in last.findings or "没有测到泄漏" in last.findings
    leak = next(claim for claim in last.claims if claim.what == "float-mask: the variant's future leaks")
    assert leak.holds
