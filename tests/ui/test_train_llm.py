"""The Train tab trains a small model of today's kind (RMSNorm, SwiGLU, rope, grouped-query attention,
q/k/v-only biases) on the existing tasks, and the Attention and Generate tabs draw what it trained."""
import gradio as gr
import numpy as np
import pytest

from playground.ui.page.forms import Refused, decode_query, encode_query
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import attention_views
from playground.ui.tabs.generate import GenerateForm, current_generation, stepper_views
from playground.ui.tabs.train import TrainForm, step

LLM = dict(layers=1, n_heads=4, d_model=16, d_ff=32, positional="rope", norm="pre", activation="silu", dropout=0.0,
           tie_weights=False, lr=3e-3, warmup=2, batch_size=4, steps=20, bias=False, norm_type="rmsnorm",
           gated_ffn=True, n_kv_heads=2, rope_base=1_000_000, qkv_bias=True)
LM_TEXT = "the cat sat on the mat. the dog sat on the log. " * 40


def llm_spec(task="char-lm", data="pasted", lang="en", **changes):
    return TrainForm(task=task, data=data, **{**LLM, **changes}).spec(lang)


def test_the_spec_builds_the_llm_pieces_into_the_model():
    config = llm_spec().preset.model_config
    assert (config.norm_type, config.gated_ffn, config.kv_heads, config.rope_base) == ("rmsnorm", True, 2, 1e6)
    assert not config.bias and config.projection_bias                      # Qwen2's q/k/v-only biases
    assert llm_spec(n_kv_heads=0).preset.model_config.kv_heads == 4        # 0: one per query head
    assert llm_spec(bias=True, qkv_bias=False).preset.model_config.projection_bias


def test_a_small_llm_trains_and_the_attention_and_generate_tabs_draw_it():
    workspace = Workspace("llm")
    views = list(step(workspace, llm_spec(), LM_TEXT, "en"))
    entry = views[-1]["published"]
    session = workspace.training
    assert entry.name == "trained-char-lm" and session.trainer.step == 10
    assert entry.config.kv_heads == 2 and entry.config.gated_ffn and entry.config.norm_type == "rmsnorm"
    assert np.isfinite(session.last_event.loss) and np.isfinite(session.last_event.val_loss)
    attention = attention_views(entry, "the cat", "", "decoder", 1, 1, False, "induction", "en")
    assert (attention.n_layers, attention.n_heads) == (1, 4)             # every query head, each drawn
    rows = np.asarray(attention.head.data[0].z, dtype=float)
    np.testing.assert_allclose(rows.sum(axis=1), 1.0, atol=1e-5)
    settings = GenerateForm().sampling(entry.config.vocab_size, "en")
    generation = current_generation(workspace, entry, "the ", settings)
    for _ in range(3):
        generation.stepper.step()
    drawn = stepper_views(generation, 1, 1, "en")
    assert drawn.status.startswith("Step 3")
    assert generation.stepper.attention_matrix().shape[:2] == (1, 4)


def test_a_seq2seq_task_trains_with_the_pieces_too():
    workspace = Workspace("llm-copy")
    views = list(step(workspace, llm_spec("copy", "bundled", batch_size=8), None, "en"))
    assert views[-1]["published"].config.kv_heads == 2 and workspace.training.trainer.step == 10


def test_key_value_heads_that_do_not_divide_the_heads_are_refused_by_name():
    with pytest.raises(gr.Error) as refused:
        llm_spec(n_kv_heads=3)
    assert "must divide 4 (3 does not). Use one of 1, 2, 4" in refused.value.message
    with pytest.raises(gr.Error) as refused:
        llm_spec(n_kv_heads=3, lang="zh-CN")
    assert "键/值头数必须能整除 4（3 不能）" in refused.value.message
    with pytest.raises(Refused) as refused:
        TrainForm(n_heads=4, n_kv_heads=3).validated()
    assert refused.value.param == "n_kv_heads"
    with pytest.raises(gr.Error, match="Rotary base"):
        llm_spec(rope_base=1)
    with pytest.raises(gr.Error, match="Norm kind"):
        llm_spec(norm_type="batchnorm")


def test_a_link_carries_the_pieces_and_a_task_link_opens_its_presets_pieces(registry):
    form = TrainForm(task="char-lm", data="pasted", n_heads=4, d_model=16, norm_type="rmsnorm", gated_ffn=True,
                     n_kv_heads=2, rope_base=500_000, qkv_bias=True, bias=False, positional="rope")
    back, ignored = TrainForm.from_query(dict(decode_query("?" + encode_query(form.to_query()))))
    assert (back, ignored) == (form, [])
    assert back.spec("en").preset.model_config.kv_heads == 2
    task_only, _ = TrainForm.from_query({"task": "copy"})
    fitted, _ = task_only.fit(registry, {"task"})
    assert (fitted.norm_type, fitted.gated_ffn, fitted.n_kv_heads, fitted.bias) == ("layernorm", False, 0, True)
    refused, ignored = TrainForm.from_query({"n_heads": "4", "n_kv_heads": "3"})
    assert refused.fit(registry, {"n_heads", "n_kv_heads"})[0].validated()       # refused settings: the preset
