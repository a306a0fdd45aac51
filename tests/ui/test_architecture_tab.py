import gradio as gr
import pytest

from playground.model import count_parameters, gpt2_small_config
from playground.ui.tabs.architecture import FIELDS, architecture_views, fields_of, nested_parameter_counts


def form(config) -> dict:
    return dict(zip(FIELDS, fields_of(config)))


def leaves(tree) -> int:
    return sum(leaves(v) if isinstance(v, dict) else v for v in tree.values())


def test_gpt2_small_comes_out_at_its_published_size():
    diagram, treemap, summary, rows = architecture_views(form(gpt2_small_config()), 1024, "en")
    root = treemap.data[0]
    assert root.values[0] == 124_439_808 and root.labels[0] == "model"
    assert "124,439,808" in summary
    assert ["parameters", "total", "124,439,808"] in rows
    assert any(row[0].startswith("FLOPs") and row[1] == "total" for row in rows)


def test_the_treemap_groups_every_parameter_once(registry):
    for entry in registry.entries():
        tree = nested_parameter_counts(entry.config, "zh-CN")
        assert leaves(tree) == count_parameters(entry.config)["total"]
    tree = nested_parameter_counts(registry.get("copy").config, "en")
    assert set(tree["decoder"]["block 1"]) == {"self-attention", "cross-attention", "feed-forward", "LayerNorms"}


def test_an_invalid_config_is_refused_with_the_reason():
    values = form(gpt2_small_config())
    values["n_heads"] = 7                                                     # 768 is not divisible by 7
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 1024, "en")
    assert "divisible" in excinfo.value.message
    values["n_heads"] = 12
    values["d_model"] = 10**6
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 1024, "zh-CN")
    assert "8192" in excinfo.value.message
    with pytest.raises(gr.Error):
        architecture_views(form(gpt2_small_config()), 0, "en")
