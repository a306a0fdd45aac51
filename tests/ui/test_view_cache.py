"""The shared view cache: bounded in bytes, least recently used out first; the tab wiring serves a
repeated view of a shipped model from it, and never a session's own model's view."""
from dataclasses import dataclass

import gradio as gr
import plotly.graph_objects as go
import pytest
from gradio.components.plot import PlotData

from playground.ui.page import view_cache
from playground.ui.page.view_cache import ViewCache
from playground.ui.server.bytes_lru import size_of
from playground.ui.page.wiring import TabWiring
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm


def plot(size: int) -> PlotData:
    return PlotData(type="plotly", plot="x" * size)


def test_the_cache_keeps_at_most_its_bytes_and_drops_the_least_recently_used():
    one = size_of({"grid": plot(400)})
    cache = ViewCache(max_bytes=2 * one + one // 2)
    cache.put("a", {"grid": plot(400)})
    cache.put("b", {"grid": plot(400)})
    assert cache.get("a") is not None                     # a is now the most recently used
    cache.put("c", {"grid": plot(400)})
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.bytes == 2 * one and len(cache) == 2
    cache.put("huge", {"grid": plot(5000)})
    assert cache.get("huge") is None and cache.bytes == 2 * one
    kept = cache.get("a")
    kept["grid"] = None                                   # a caller's copy, not the cache's entry
    assert cache.get("a")["grid"] is not None
    with pytest.raises(ValueError):
        ViewCache(max_bytes=0)


def test_an_update_dict_in_the_cache_is_not_taken_apart_by_those_it_is_sent_to():
    """Gradio pops the value out of an update dict it sends: the cache's own stays whole."""
    cache = ViewCache(max_bytes=4000)
    sent = {"plot": gr.update(value=plot(300), visible=True)}
    cache.put("a", sent)
    assert cache.bytes == size_of(sent) > 300
    sent["plot"].pop("value")
    cache.get("a")["plot"].pop("value")
    assert cache.get("a")["plot"]["value"].plot == "x" * 300


def test_the_cache_counts_what_its_updates_hold_in_memory():
    """Python keeps a string at 1, 2 or 4 bytes a character, by its widest one: a figure's JSON with
    one arrow or one Chinese label takes twice its length, one with an emoji four times. The cache
    counts that, the other fields of an update dict and a component's own arguments, so that its
    bytes bound what it really holds (a soak found it holding 2.6 times what it counted)."""
    ascii_json, wide_json, widest_json = "x" * 10_000, "→" + "x" * 9_999, "😀" + "x" * 9_999
    assert size_of(plot_of(ascii_json)) >= 10_000
    assert size_of(plot_of(wide_json)) >= 20_000
    assert size_of(plot_of(widest_json)) >= 40_000
    assert size_of("中文" * 5_000) >= 20_000
    choices = [f"choice {i} →" for i in range(1_000)]
    assert size_of(gr.update(choices=choices, visible=True)) >= 1_000 * 2 * len(choices[0])
    assert size_of(gr.Dropdown(choices=choices)) >= 1_000 * 2 * len(choices[0])
    cache = ViewCache(max_bytes=100_000)
    for key in range(20):
        cache.put(key, {"grid": plot_of("→" + str(key) * 9_999)})
    assert cache.bytes <= 100_000 and len(cache) <= 100_000 // 20_000


def test_what_the_cache_holds_in_memory_stays_within_its_bound():
    """Filled with figures labelled in Chinese, as a class's views are, the cache's entries take no
    more memory than its bound (with some slack for the objects around the figures)."""
    import gc
    import tracemalloc

    from playground.ui.page.wiring import with_export
    tokens = [f"词{i}" for i in range(40)]

    def grid(i: int) -> PlotData:
        figure = go.Figure(go.Heatmap(z=[[i + row * col for col in range(40)] for row in range(40)],
                                      x=tokens, y=tokens, hovertemplate="%{x} → %{y}: %{z}"))
        return with_export(figure, f"grid-{i}", "zh-CN")

    grid(-1)                                                # Plotly's own caches, made at its first figure
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        cache = ViewCache(max_bytes=300_000)
        for i in range(30):
            cache.put(i, {"grid": grid(i), "note": gr.update(value="注意力", visible=True)})
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(cache) < 30                                  # it was full
    assert held <= 1.25 * cache.max_bytes, (held, cache.bytes)


def plot_of(text: str) -> PlotData:
    return PlotData(type="plotly", plot=text)


@dataclass
class Context:
    registry: object
    workspaces: dict
    views: dict

    def workspace(self, request):
        return self.workspaces.setdefault(request, Workspace(request, self.registry))


def test_a_repeated_view_of_a_shipped_model_is_served_without_drawing_again(registry, monkeypatch):
    monkeypatch.setattr(view_cache, "SHARED_VIEWS", ViewCache())
    monkeypatch.setattr("playground.ui.page.wiring.SHARED_VIEWS", view_cache.SHARED_VIEWS)
    components = {name: gr.Textbox() for name in (*AttentionForm.params(), "grid")}
    tab = TabWiring(Context(registry, {}, {}), AttentionForm, components)
    calls = []

    def draw(workspace, form, lang):
        calls.append(workspace.session_id)
        return {"grid": go.Figure(go.Heatmap(z=[[len(calls)]]))}

    event = tab.function(draw, shared=True)
    form = AttentionForm(model="copy", text="abc")
    early, late = ([getattr(form, name) for name in names] for names in tab.api_order)

    def call(fn, session, lang):                          # the API's order: fields, language, late fields
        return fn(session, None, *early, lang, *late)

    first, second = call(event, "alice", "en"), call(event, "bob", "en")
    assert calls == ["alice"] and first[components["grid"]].plot == second[components["grid"]].plot
    call(event, "bob", "zh-CN")                        # another language is another view
    assert calls == ["alice", "bob"]
    own = tab.ctx.workspace("carol")
    own.models["copy"] = registry.get("reverse")          # this session's own model hides the shipped one
    call(event, "carol", "en")
    assert calls == ["alice", "bob", "carol"]
    unshared = tab.function(draw)
    call(unshared, "alice", "en")
    assert len(calls) == 4
