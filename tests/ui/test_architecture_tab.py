import dataclasses
from types import SimpleNamespace

import gradio as gr
import pytest

from playground.model import count_parameters, gpt2_small_config
from playground.ui.page.forms import Refused, decode_query, encode_query
from playground.ui.page.wiring import TabWiring
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.architecture import (
    FIELDS,
    ArchitectureForm,
    architecture_views,
    handlers,
    nested_parameter_counts,
)
from playground.ui.views.architecture import LLM_PRESETS, form_values


def form(config) -> dict:
    return {name: getattr(config, name) for name in FIELDS}        # a config's own fields, as other tabs pass them


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
    assert "must be a multiple of the number of heads (7)" in excinfo.value.message
    assert "Try d_model = 770" in excinfo.value.message                      # what to change, in the page's words
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 1024, "zh-CN")
    assert excinfo.value.message.startswith("d_model（768）必须是头数（7）的倍数")
    with pytest.raises(gr.Error, match="RoPE 成对旋转维度"):
        architecture_views({**values, "n_heads": 8, "d_model": 24, "positional": "rope"}, 1024, "zh-CN")
    with pytest.raises(gr.Error, match="编码器-解码器至少需要一个编码器层和一个解码器层"):
        architecture_views({**values, "n_heads": 12, "arch": "encoder_decoder", "n_encoder_layers": 0}, 1024, "zh-CN")
    values["n_heads"] = 12
    values["d_model"] = 10**6
    with pytest.raises(gr.Error) as excinfo:
        architecture_views(values, 1024, "zh-CN")
    assert "8192" in excinfo.value.message
    with pytest.raises(gr.Error):
        architecture_views(form(gpt2_small_config()), 0, "en")


def test_a_preset_link_opens_the_presets_config_and_a_config_link_its_own(registry):
    form, ignored = ArchitectureForm.from_query({"preset": "copy"})
    fitted, refused = form.fit(registry, {"preset"})
    assert refused == [] and fitted.config_values() == form_of(registry.get("copy").config)
    custom, _ = ArchitectureForm.from_query({"preset": "copy", "d_model": "512", "n_heads": "8"})
    assert custom.fit(registry, {"preset", "d_model", "n_heads"})[0].d_model == 512
    unknown, _ = ArchitectureForm.from_query({"preset": "gpt5"})
    fitted, refused = unknown.fit(registry, {"preset"})
    assert fitted.preset == "gpt2-small" and [error.param for error in refused] == ["preset"]


def form_of(config) -> dict:
    return form_values(config)                                     # as the form shows them (0 key/value heads: one each)


def test_architecture_forms_survive_a_query_string_and_refuse_fractions():
    original = ArchitectureForm(preset="copy", arch="encoder_decoder", n_encoder_layers=3, d_model=256, n_heads=8,
                                tie_weights=False, context=77)
    back, ignored = ArchitectureForm.from_query(dict(decode_query("?" + encode_query(original.to_query()))))
    assert (back, ignored) == (original, [])
    with pytest.raises(Exception) as excinfo:
        ArchitectureForm.from_values({"d_model": 768.5})
    assert "whole number" in str(excinfo.value)


def test_choosing_a_preset_fills_every_field_and_draws_it(registry):
    workspace = Workspace("arch", registry)
    chosen = handlers.choose_preset(workspace, ArchitectureForm(preset="copy"), "en")
    assert {name: chosen[name] for name in FIELDS} == form_of(registry.get("copy").config)
    assert chosen["treemap"].data[0].values[0] == count_parameters(registry.get("copy").config)["total"]
    shown = handlers.refused(workspace, ArchitectureForm(n_heads=7), "en")
    assert "multiple of the number of heads" in shown["treemap"].layout.annotations[0].text
    assert shown["treemap"].data == ()


def test_a_sessions_own_model_is_a_preset_for_that_session_only(registry):
    mine, other = Workspace("mine", registry), Workspace("other", registry)
    copy = registry.get("copy")
    wider = dataclasses.replace(copy.config, d_ff=2 * copy.config.d_ff)
    mine.add_model(dataclasses.replace(copy, name="trained-copy", config=wider, source="session"))
    assert "trained-copy" in handlers.controls(mine, ArchitectureForm(), "en")["preset"].constructor_args["choices"]
    assert "trained-copy" not in handlers.controls(other, ArchitectureForm(), "en")["preset"].constructor_args["choices"]
    chosen = handlers.choose_preset(mine, ArchitectureForm(preset="trained-copy"), "en")
    assert chosen["d_ff"] == wider.d_ff and chosen["arch"] == wider.arch
    with pytest.raises(Refused, match="preset"):
        handlers.choose_preset(other, ArchitectureForm(preset="trained-copy"), "en")
    # Drawn for this session alone: another session's own model of that name has another config.
    wiring = SimpleNamespace(ctx=SimpleNamespace(registry=registry))
    named = ArchitectureForm(preset="trained-copy")
    assert TabWiring.shared_key(wiring, handlers.choose_preset, mine, named, "en", True) is None
    assert TabWiring.shared_key(wiring, handlers.choose_preset, other, named, "en", True) is not None
    assert TabWiring.shared_key(wiring, handlers.choose_preset, mine, ArchitectureForm(), "en", True) is not None
