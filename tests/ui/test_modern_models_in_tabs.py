"""The tabs' handlers on tiny models of today's kinds: RMSNorm, SwiGLU, rotary positions and grouped-query
attention (a Llama-like model), and Qwen2's query/key/value biases with multi-query attention, each a
session's own model."""
from __future__ import annotations

import numpy as np
import pytest

from playground import viz
from playground.model import ModelConfig
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm
from playground.ui.tabs.attention import handlers as attention_handlers
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate import handlers as generate_handlers
from playground.ui.tabs.inside import InsideForm
from playground.ui.tabs.inside import handlers as inside_handlers
from playground.ui.tabs.positional import PositionalForm
from playground.ui.tabs.positional import handlers as positional_handlers
from playground.zoo import ModelEntry, ascii_tokenizer, seeded_model

TOKENIZER = ascii_tokenizer()
MODERN = dict(arch="decoder_only", vocab_size=TOKENIZER.vocab_size, d_model=32, n_heads=4, n_decoder_layers=2,
              d_ff=48, max_len=64, positional="rope", norm_type="rmsnorm", activation="silu", gated_ffn=True,
              bias=False, scale_embedding=False)
KINDS = {
    "tiny-llama": ModelConfig(**MODERN, n_kv_heads=2),                                   # 2 query heads a group
    "tiny-qwen2": ModelConfig(**MODERN, n_kv_heads=1, qkv_bias=True, rope_base=1e6, tie_weights=False),
}


def workspace_with(registry, name: str) -> Workspace:
    workspace = Workspace("s", registry)
    workspace.add_model(ModelEntry(name, seeded_model(KINDS[name]), TOKENIZER, KINDS[name], "", "session"))
    return workspace


# 6 tokens cached (BOS and "Hello"); a token keeps a key and a value in each of 2 layers, n_kv_heads x 8 dims of
# float32: 256 B with 2 key/value heads, 128 B with 1, 512 B with one per query head
@pytest.mark.parametrize("name, lang, said", [
    ("tiny-llama", "en", "KV cache: 6 token(s) × 256 B = 1.5 KiB. 4 query heads share 2 key/value head(s) "
                         "(grouped-query attention); full multi-head attention would keep 3.0 KiB, 2 times as much."),
    ("tiny-qwen2", "zh-CN", "KV 缓存：6 个词元 × 128 B = 768 B。4 个查询头共享 1 个键/值头（分组查询注意力）；"
                            "完整的多头注意力要存 3.0 KiB，是现在的 4 倍。"),
])
def test_a_generate_step_shows_the_kv_cache_beside_full_multi_head_attention(registry, name, lang, said):
    workspace = workspace_with(registry, name)
    form = GenerateForm(model=name, prompt="Hello")
    generate_handlers.reset(workspace, form, lang)
    assert said in generate_handlers.step(workspace, form, lang)["status"]


def test_a_multi_head_models_kv_cache_has_nothing_to_compare_with(registry):
    form = GenerateForm(model="tiny-gpt", prompt="abc")
    status = generate_handlers.step(Workspace("s", registry), form, "en")["status"]
    assert "KV cache: " in status and "multi-head" not in status


def figure_of(value):
    """A handler's figure, whether returned as a Plotly figure or inside a gr.Plot update."""
    return getattr(value, "value", None) if not hasattr(value, "layout") else value


@pytest.mark.parametrize("name, lang, groups, lines", [
    ("tiny-llama", "en", ["key/value head 0: heads 0–1", "key/value head 1: heads 2–3"], 1),
    ("tiny-qwen2", "zh-CN", ["键/值头 0：头 0–3"], 0),
])
def test_the_attention_grid_groups_the_query_heads_that_share_a_key_value_head(registry, name, lang, groups, lines):
    workspace = workspace_with(registry, name)
    drawn = attention_handlers.draw(workspace, AttentionForm(model=name, text="Hello there", kind="decoder",
                                                             layer=1, head=3), lang)
    grid = figure_of(drawn["grid"])
    texts = [annotation.text for annotation in grid.layout.annotations]
    assert [t for t in texts if t.startswith(groups[0][:3])] == groups
    assert len([shape for shape in grid.layout.shapes if shape.type == "line"]) == lines
    assert len(grid.data) == 2 * 4                                       # every layer x query head drawn


def test_a_multi_head_grid_has_no_groups():
    grid = viz.attention_grid(np.full((2, 4, 3, 3), 1 / 3), list("abc"), list("abc"))
    assert not grid.layout.shapes and not any("key/value" in a.text for a in grid.layout.annotations)
    with pytest.raises(ValueError, match="divide"):
        viz.attention_grid(np.full((2, 4, 3, 3), 1 / 3), list("abc"), list("abc"), kv_heads=3)


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_every_tab_draws_on_a_model_of_each_new_kind(registry, name, lang):
    workspace = workspace_with(registry, name)
    attention = attention_handlers.draw(workspace, AttentionForm(model=name, text="Hello there", kind="decoder"),
                                        lang)
    assert "RMSNorm" in str(figure_of(attention["shapes"]).to_dict()) or "rms" in str(attention["shapes"]).lower()
    inside = inside_handlers.draw(workspace, InsideForm(emb_model=name, emb_token="e", worked_model=name,
                                                        worked_text="Hello", worked_site="decoder", mask_model=name,
                                                        mask_first="Hello", mask_second="Hi", norm_model=name,
                                                        norm_text="Hello there", fill_model=name), lang)
    assert inside
    generate = GenerateForm(model=name, prompt="Hello")
    generate_handlers.reset(workspace, generate, lang)
    stepped = generate_handlers.step(workspace, generate, lang)
    assert stepped["steps"] == 1 and figure_of(stepped["candidates"]) is not None
    positional = positional_handlers.draw(workspace, PositionalForm(model=name), lang)
    assert positional
