"""The Attention tab's training timeline: a pretrained model redrawn with the weights of an earlier step."""
import numpy as np

from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import (AttentionForm, attention_views, entry_at_step, forward_pass, handlers, scores_of,
                                          timeline_update)
from playground.zoo import ModelRegistry


def test_choosing_a_step_redraws_the_copy_model_as_it_was_then():
    registry = ModelRegistry()
    final = registry.get("copy")
    steps = registry.timeline_steps("copy")
    untrained = entry_at_step(registry, final, 0)
    assert untrained is registry.timeline_entry("copy", 0) and untrained is not final
    assert entry_at_step(registry, final, steps[-1]) is final                # the last step is the final model
    assert entry_at_step(registry, final, None) is final
    assert entry_at_step(registry, final, 12345) is final                    # a step of another model's timeline

    def best_diagonal(entry):
        return float(np.max(scores_of(forward_pass(entry, "abcdefghij", "abcdefghij", "en"), "cross")["diagonal"]))
    assert best_diagonal(untrained) < 0.5 < 0.9 < best_diagonal(final)      # the diagonal forms during training

    views = attention_views(untrained, "abcdefghij", "", "cross", 0, 0, False, "diagonal", "zh-CN",
                            at_step=(0, steps[-1]))
    assert f"第 0 步（共 {steps[-1]} 步）" in views.summary
    assert "step" not in attention_views(final, "abc", "", "cross", 0, 0, False, "diagonal", "en").summary


def test_the_step_picker_shows_only_for_models_with_a_timeline():
    registry = ModelRegistry()
    picker = timeline_update(registry, registry.get("copy"), None)
    assert picker.value == registry.timeline_steps("copy")[-1]
    assert [value for _, value in picker.choices] == registry.timeline_steps("copy")
    assert timeline_update(registry, registry.get("masked-char"), None).choices == []
    workspace = Workspace("timeline", registry)
    panel = {name: handlers.controls(workspace, AttentionForm(model=name), "en")["timeline_panel"].visible
             for name in ("copy", "masked-char", "untrained-seq2seq")}
    assert panel == {"copy": True, "masked-char": "hidden", "untrained-seq2seq": "hidden"}   # kept rendered, hidden
