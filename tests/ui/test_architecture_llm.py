"""The Architecture tab on today's LLM pieces: RMSNorm, SwiGLU, rotary base, grouped-query attention,
q/k/v-only biases, tied or untied heads; presets of published shapes at their published sizes."""
import gradio as gr
import pytest
import torch

from playground.model import count_parameters
from playground.ui.page.forms import decode_query, encode_query
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.architecture import ArchitectureForm, architecture_views, handlers, nested_parameter_counts
from playground.ui.views.architecture import LLM_PRESETS, form_values

PUBLISHED = {"SmolLM2-135M": 134_515_008, "Qwen2.5-0.5B": 494_032_768}     # the model cards' parameter counts


def hf_parameters(config) -> int:
    """The same shape built by transformers (the test reference), on the meta device."""
    transformers = pytest.importorskip("transformers")
    kind = transformers.Qwen2Config if config.projection_bias else transformers.LlamaConfig
    model_class = transformers.Qwen2ForCausalLM if config.projection_bias else transformers.LlamaForCausalLM
    hf = kind(vocab_size=config.vocab_size, hidden_size=config.d_model, intermediate_size=config.d_ff,
              num_hidden_layers=config.n_decoder_layers, num_attention_heads=config.n_heads,
              num_key_value_heads=config.kv_heads, max_position_embeddings=config.max_len,
              rope_theta=config.rope_base, tie_word_embeddings=config.tie_weights)
    with torch.device("meta"):
        model = model_class(hf)
    return sum(p.numel() for p in model.parameters())     # tied weights are one Parameter


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_shapes_come_out_at_their_published_sizes(name):
    config = LLM_PRESETS[name]
    assert count_parameters(config)["total"] == PUBLISHED[name] == hf_parameters(config)
    _, treemap, summary, rows = architecture_views(form_values(config), 1024, "en")
    assert treemap.data[0].values[0] == PUBLISHED[name]
    assert f"{PUBLISHED[name]:,}" in summary


def test_the_small_blocks_differ_from_gpt2_where_the_families_do():
    llama, qwen = LLM_PRESETS["llama-style-small"], LLM_PRESETS["qwen2-style-small"]
    for config in (llama, qwen):
        assert (config.norm_type, config.gated_ffn, config.activation, config.positional) == \
            ("rmsnorm", True, "silu", "rope") and config.kv_heads < config.n_heads
    assert not llama.tie_weights and not llama.projection_bias and llama.rope_base == 1e4
    assert qwen.tie_weights and qwen.projection_bias and not qwen.bias and qwen.rope_base == 1e6
    assert hf_parameters(llama) == count_parameters(llama)["total"]
    assert hf_parameters(qwen) == count_parameters(qwen)["total"]


def test_the_treemap_shows_rmsnorms_the_gate_and_the_smaller_keys_and_values():
    tree = nested_parameter_counts(LLM_PRESETS["qwen2-style-small"], "en")
    block = tree["decoder"]["block 0"]
    assert set(block) == {"self-attention", "feed-forward", "RMSNorms"} and "final RMSNorm" in tree["decoder"]
    assert block["feed-forward"] == {"gate": 256 * 704, "up": 256 * 704, "down": 704 * 256}
    attention = block["self-attention"]           # 8 query heads share 2 key/value heads of size 32, with biases
    assert attention["queries"] == 256 * 256 + 256 and attention["keys and values"] == 2 * (256 * 64 + 64)
    zh = nested_parameter_counts(LLM_PRESETS["llama-style-small"], "zh-CN")
    assert set(zh["解码器"]["第 0 块"]["前馈层"]) == {"门", "上投影", "下投影"}


def test_the_kv_cache_with_grouped_queries_is_shown_against_multi_head_attention():
    _, _, summary, rows = architecture_views(form_values(LLM_PRESETS["llama-style-small"]), 256, "en")
    cache = {row[0]: row[2] for row in rows if row[0].startswith("KV cache")}
    assert cache == {"KV cache per generated token, float32": "2.00 KiB",           # 4 layers x K,V x 2 heads x 32
                     "KV cache per generated token with one key/value head per query head, float32": "8.00 KiB"}
    assert "8 query heads share 2 key/value heads" in summary and "4 times smaller" in summary
    _, _, summary, _ = architecture_views(form_values(LLM_PRESETS["llama-style-small"]), 256, "zh-CN")
    assert "小了 4 倍" in summary
    gpt2 = architecture_views(form_values(LLM_PRESETS["llama-style-small"]) | {"n_kv_heads": 0}, 256, "en")
    assert "share" not in gpt2[2]                  # one key/value head per query head: nothing to compare


def test_key_value_heads_that_do_not_divide_the_heads_are_refused_in_the_pages_language():
    values = form_values(LLM_PRESETS["llama-style-small"]) | {"n_kv_heads": 3}
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 256, "en")
    assert "must divide 8 (3 does not). Use one of 1, 2, 4, 8" in excinfo.value.message
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 256, "zh-CN")
    assert "键/值头数必须能整除 8（3 不能）" in excinfo.value.message
    shown = handlers.refused(Workspace("arch-llm", None), ArchitectureForm(n_kv_heads=5), "en")   # GPT-2's 12 heads
    assert "must divide 12 (5 does not)" in shown["treemap"].layout.annotations[0].text


def test_the_pieces_compose_with_the_other_choices():
    values = form_values(LLM_PRESETS["llama-style-small"]) | {"positional": "learned", "activation": "gelu",
                                                               "norm_type": "layernorm", "qkv_bias": True}
    _, treemap, _, _ = architecture_views(values, 256, "en")       # GELU-gated, learned positions, LayerNorm
    config = LLM_PRESETS["llama-style-small"].replace(positional="learned", activation="gelu", norm_type="layernorm",
                                                      qkv_bias=True)
    assert treemap.data[0].values[0] == count_parameters(config)["total"]


def test_a_preset_link_opens_the_llama_block_and_the_pieces_survive_a_query_string(registry):
    form, _ = ArchitectureForm.from_query({"preset": "llama-style-small"})
    fitted, refused = form.fit(registry, {"preset"})
    assert refused == [] and (fitted.norm_type, fitted.gated_ffn, fitted.n_kv_heads, fitted.rope_base) == \
        ("rmsnorm", True, 2, 10_000)
    back, ignored = ArchitectureForm.from_query(dict(decode_query("?" + encode_query(fitted.to_query()))))
    assert (back, ignored) == (fitted, [])
    chosen = handlers.choose_preset(Workspace("arch-llm", registry), ArchitectureForm(preset="Qwen2.5-0.5B"), "en")
    assert (chosen["n_kv_heads"], chosen["qkv_bias"], chosen["bias"], chosen["rope_base"]) == (2, True, False, 10**6)
    assert chosen["treemap"].data[0].values[0] == PUBLISHED["Qwen2.5-0.5B"]
    bad, ignored = ArchitectureForm.from_query({"n_kv_heads": "2.5"})
    assert [error.param for error in ignored] == ["n_kv_heads"]


def test_the_diagram_names_rmsnorm_the_gate_and_the_shared_key_value_heads():
    diagram, *_ = architecture_views(form_values(LLM_PRESETS["llama-style-small"]), 256, "en")
    block = next(a.text for a in diagram.layout.annotations if "Decoder block" in a.text)
    assert "RMSNorm → masked self-attention (8 query heads sharing 2 key/value heads)" in block
    assert "RMSNorm → gated feed-forward 256→704→256, silu" in block and "LayerNorm" not in block
    assert any(a.text == "final RMSNorm" for a in diagram.layout.annotations)
    diagram, *_ = architecture_views(form_values(LLM_PRESETS["llama-style-small"]), 256, "zh-CN")
    assert any("门控前馈层" in a.text and "共用 2 个键/值头" in a.text for a in diagram.layout.annotations)
