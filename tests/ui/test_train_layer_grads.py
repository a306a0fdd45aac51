"""The Train tab draws each layer's gradient norm as a run goes on, from the trainer's own numbers,
labelled in the session's language."""
import numpy as np

from playground.ui.session.workspace import Workspace
from playground.ui.tabs.train import all_views, reset, start
from playground.ui.tabs.train.form import TrainForm

TINY = dict(layers=2, n_heads=2, d_model=16, d_ff=32, positional="sinusoidal", norm="pre", activation="gelu",
            dropout=0.0, tie_weights=False, lr=3e-3, warmup=5, batch_size=16, steps=30)


def _spec(task="copy", lang="en"):
    return TrainForm(task=task, data="bundled", **TINY).spec(lang)


def test_progress_draws_one_line_per_layer_with_the_trainers_norms(registry):
    workspace = Workspace("s")
    views = list(start(workspace, _spec(), None, "en"))
    progress = [v["layer_grads"] for v in views if "layer_grads" in v and v["layer_grads"].data]
    assert progress, "no progress update carried the per-layer gradient figure"
    figure = progress[-1]
    history = workspace.training.trainer.history
    names = [trace.name for trace in figure.data]
    assert names == ["embeddings", "encoder block 0", "encoder block 1", "decoder block 0", "decoder block 1", "head"]
    groups = list(history[-1].layer_grad_norms)
    for trace, group in zip(figure.data, groups):
        assert list(trace.x) == [e.step for e in history]
        np.testing.assert_allclose(list(trace.y), [e.layer_grad_norms[group] for e in history], rtol=1e-6)
    assert figure.layout.yaxis.type == "log"


def test_a_decoder_only_run_labels_blocks_plainly_and_chinese_labels_follow_the_language(registry):
    workspace = Workspace("s")
    list(start(workspace, _spec("char-lm"), None, "en"))
    english = [trace.name for trace in all_views(workspace.training, "en")["layer_grads"].data]
    assert english == ["embeddings", "block 0", "block 1", "head"]
    chinese = all_views(workspace.training, "zh-CN")["layer_grads"]
    assert [trace.name for trace in chinese.data] == ["嵌入层", "第 0 块", "第 1 块", "输出头"]
    assert "梯度范数" in chinese.layout.title.text


def test_before_a_run_and_after_reset_the_figure_says_what_will_appear(registry):
    workspace = Workspace("s")
    list(start(workspace, _spec(), None, "en"))
    cleared = reset(workspace, "en")["layer_grads"]
    assert not cleared.data and "gradient norm" in cleared.layout.annotations[0].text
