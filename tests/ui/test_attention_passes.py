"""The shared recorded passes: one forward pass per model and input, whatever is redrawn and by
whichever session; bounded in bytes; gone with their model."""
import copy
import dataclasses
import gc
import weakref

import numpy as np
import pytest
import torch

from playground.model import Trace
from playground.ui.session.workspace import Workspace
from playground.ui.tabs.attention import AttentionForm, handlers
from playground.ui.views.attention_passes import PassCache, RecordedPass
from playground.ui.views.attention import forward_pass, scores_of, weights_of


def own_copy(registry, name: str, counts: dict[str, int]):
    """A session's private copy of a shipped model whose encoder and decoder runs are counted."""
    entry = registry.get(name)
    entry = dataclasses.replace(entry, name=f"own-{name}", model=copy.deepcopy(entry.model))
    for method in ("encode", "decode"):
        original = getattr(entry.model, method)

        def counted(*args, _original=original, _method=method, **kwargs):
            counts[_method] += 1
            return _original(*args, **kwargs)

        setattr(entry.model, method, counted)
    return entry


def test_moving_the_sliders_and_the_score_redraws_from_the_pass_already_recorded(registry):
    counts = {"encode": 0, "decode": 0}
    workspace = Workspace("s", registry)
    workspace.add_model(own_copy(registry, "tiny-gpt", counts))
    form = AttentionForm(model="own-tiny-gpt", text="abcabc", kind="decoder")
    shown = handlers.show(workspace, form, "en")
    first = counts["decode"]                    # the pass, and once per model the induction verdict's
    moved = dataclasses.replace(form, layer=1, head=1)
    head = handlers.redraw_head(workspace, moved, "en")["head_plot"]
    handlers.redraw_scores(workspace, dataclasses.replace(form, score="previous_token"), "en")
    handlers.best_head(workspace, form, "zh-CN")
    handlers.show(workspace, dataclasses.replace(moved, mean=True), "zh-CN")
    assert counts["decode"] == first                                           # one pass served all five
    assert "layer 1, head 1" in head.layout.title.text
    np.testing.assert_allclose(np.asarray(head.data[0].z, dtype=float).sum(axis=1), 1.0, atol=1e-5)
    assert shown["grid"].to_json() == handlers.show(workspace, form, "en")["grid"].to_json()
    handlers.show(workspace, dataclasses.replace(form, text="abcab"), "en")
    assert counts["decode"] == first + 1                                       # another input is another pass


def test_a_second_session_on_the_same_input_reuses_the_pass(registry):
    counts = {"encode": 0, "decode": 0}
    entry = own_copy(registry, "copy", counts)
    first, second = Workspace("a", registry), Workspace("b", registry)
    for workspace in (first, second):
        workspace.add_model(entry)
    form = AttentionForm(model="own-copy", text="abcd", kind="cross")
    handlers.show(first, form, "en")
    after_first = dict(counts)
    assert after_first["encode"] == 2           # the greedy target, then the recorded pass
    handlers.show(second, dataclasses.replace(form, layer=1, kind="encoder"), "zh-CN")
    assert counts == after_first


def test_a_typed_target_and_the_written_one_are_different_passes(registry):
    entry = registry.get("copy")
    written = forward_pass(entry, "abcd", "", "en")
    typed = forward_pass(entry, "abcd", "dcba", "en")
    assert written.generated and not typed.generated
    assert typed.target_ids[1:] == entry.tokenizer.encode("dcba")
    assert forward_pass(entry, "abcd", "  ", "en").trace is written.trace     # a blank target is no target
    assert forward_pass(entry, "abcd", "dcba", "zh-CN").trace is typed.trace
    weights, _, keys, _ = weights_of(typed, "cross")
    assert weights.shape[2] == 5 and keys == list("abcd")                     # bos + 4 typed queries


def test_what_views_compute_from_a_pass_is_computed_once_and_cannot_be_changed(registry):
    entry = registry.get("copy")
    first, again = forward_pass(entry, "abcdef", "", "en"), forward_pass(entry, "abcdef", "", "zh-CN")
    weights, queries, _, _ = weights_of(first, "cross")
    assert weights_of(again, "cross")[0] is weights                           # computed once for the pass
    with pytest.raises(ValueError, match="read-only"):
        weights[0, 0, 0, 0] = 1.0
    queries.append("mine")                                                    # a caller's lists are its own
    assert weights_of(again, "cross")[1] == queries[:-1]
    scores = scores_of(first, "cross")
    assert scores_of(again, "cross")["diagonal"] is scores["diagonal"]
    with pytest.raises(ValueError, match="read-only"):
        scores["diagonal"][0, 0] = 0.0


def test_bad_input_is_refused_before_any_pass_is_looked_up(registry):
    entry = registry.get("copy")
    forward_pass(entry, "abcd", "", "en")
    with pytest.raises(Exception, match="A"):
        forward_pass(entry, "abcd", "AB", "en")                               # the copy model knows no capitals


def recorded(n_floats: int) -> RecordedPass:
    trace = Trace()
    trace.record("x", torch.zeros(n_floats))
    return RecordedPass(trace, (), (1,), False)


def test_the_cache_drops_the_least_recently_used_pass_beyond_its_bytes():
    model = torch.nn.Linear(1, 1)
    cache = PassCache(max_bytes=3 * 400)
    for key in "abc":
        cache.put(model, key, recorded(100))                                  # 400 bytes each
    assert cache.get(model, "a") is not None                                   # a is now the newest
    cache.put(model, "d", recorded(100))
    assert cache.get(model, "b") is None and len(cache) == 3 and cache.bytes == 1200
    cache.put(model, "huge", recorded(1000))
    assert cache.get(model, "huge") is None and cache.bytes == 1200           # larger than the whole cache
    assert cache.get(torch.nn.Linear(1, 1), "a") is None                      # another model, the same key


def test_a_forgotten_models_passes_go_with_it():
    model, other = torch.nn.Linear(1, 1), torch.nn.Linear(1, 1)
    cache = PassCache()
    cache.put(model, "a", recorded(10))
    cache.put(model, "b", recorded(10))
    cache.put(other, "a", recorded(10))
    gone = weakref.ref(model)
    del model
    gc.collect()
    assert gone() is None and len(cache) == 1 and cache.bytes == 40
    assert cache.get(other, "a") is not None


def test_a_cache_needs_room():
    with pytest.raises(ValueError, match="max_bytes"):
        PassCache(max_bytes=0)


def test_what_views_compute_from_a_pass_counts_in_the_cache_and_can_push_passes_out():
    model = torch.nn.Linear(1, 1)
    cache = PassCache(max_bytes=3 * 400)
    for key in "ab":
        cache.put(model, key, recorded(100))                                  # 400 bytes each
    kept = cache.get(model, "a")
    kept.derived["weights"] = np.zeros(50, dtype=np.float32)                  # 200 bytes more
    assert cache.bytes == 1000 and cache.get(model, "a") is kept
    kept.derived["scores"] = np.zeros(100, dtype=np.float32)                  # 400 more: over the bound
    assert cache.bytes <= 1200 and cache.get(model, "b") is None              # the least recently used went
