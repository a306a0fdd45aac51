"""The induction task in the Train tab: no text to choose, the formation figure, the copy sample."""
import numpy as np

from playground.analysis.head_scores import INDUCTION_THRESHOLD
from playground.ui.session.training import TrainingSession, form_defaults, takes_text, training_cost
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.train import TrainForm, all_views, step
from playground.ui.views.training import INDUCTION_KEY, PREVIOUS_KEY, formation_figure


def induction_spec(**changes):
    defaults = form_defaults("induction")
    return TrainForm(task="induction", data="pasted", **{**defaults, **changes}).spec("en")


def test_the_induction_task_makes_its_own_data_and_uses_the_measured_recipe():
    assert not takes_text("induction") and takes_text("char-lm")
    spec = induction_spec()
    assert spec.data == "task"                                               # the text choice is ignored
    model, train = spec.preset.model_config, spec.preset.train_config
    assert (model.n_decoder_layers, model.n_heads, model.d_model, model.max_len) == (2, 2, 64, 64)
    assert (train.lr, train.warmup_steps, train.min_lr_ratio, train.beta2) == (1e-3, 0, 1.0, 0.98)
    params, gflops = training_cost(spec, model.vocab_size)
    assert params == 110_656 and gflops > 0


def test_a_few_steps_show_the_formation_figure_and_the_models_continuation():
    workspace = Workspace("s")
    views = list(step(workspace, induction_spec(batch_size=8), None, "en"))
    session = workspace.training
    assert views[-1]["published"].name == "trained-induction"
    assert session.view_score == INDUCTION_KEY and session.trainer.step == 10
    shown = all_views(session, "en")
    figure = shown["scores"]
    assert [trace.name for trace in figure.data] == ["previous-token score, layer 0 (best head)",
                                                     "induction score, later layers (best head)"]
    history = session.score_history
    np.testing.assert_allclose(figure.data[0].y, [s[PREVIOUS_KEY][0].max() for _, s in history], rtol=1e-6)
    np.testing.assert_allclose(figure.data[1].y, [s[INDUCTION_KEY][1:].max() for _, s in history], rtol=1e-6)
    assert figure.layout.shapes[0].y0 == INDUCTION_THRESHOLD
    assert "✓" in shown["sample"] or "✗" in shown["sample"]
    assert "temperature" not in shown["sample"]                              # greedy, against the true repeat


def test_the_crossing_step_is_where_the_induction_score_first_reaches_the_threshold():
    session = TrainingSession()
    previous = np.array([[0.2, 0.1], [0.0, 0.0]])                             # [L, H]
    session.score_history = [(step_number, {PREVIOUS_KEY: previous, INDUCTION_KEY: np.array([[0.9, 0.9], [0.0, value]])})
                             for step_number, value in ((0, 0.05), (100, 0.2), (200, 0.6), (300, 0.9))]
    figure = formation_figure(session, "zh-CN")
    np.testing.assert_allclose(figure.data[1].y, [0.05, 0.2, 0.6, 0.9], rtol=1e-6)
    assert figure.layout.shapes[1].x0 == 200                                  # layer 0's 0.9 does not count
    assert figure.layout.title.text == "归纳头的形成"
