"""The tabs' handlers on tiny models of today's kinds: RMSNorm, SwiGLU, rotary positions and grouped-query
attention (a Llama-like model), and Qwen2's query/key/value biases with multi-query attention, each a
session's own model."""
from __future__ import annotations

import pytest

from playground.model import ModelConfig
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.generate import GenerateForm
from playground.ui.tabs.generate import handlers as generate_handlers
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
