"""The app offers exactly the shipped models, and the timelines the Attention tab scrubs through."""
from playground.checkpoint import load_metadata
from playground.ui.registry import ModelRegistry

from .conftest import PRETRAINED, SHIPPED

TIMELINE_MODELS = ("copy", "shakespeare-char")


def test_the_apps_pretrained_list_equals_the_folders_present():
    registry = ModelRegistry()
    assert registry.problems == []
    pretrained = [e.name for e in registry.entries() if e.source == "pretrained"]
    assert pretrained == SHIPPED


def test_copy_and_shakespeare_char_have_a_timeline_from_initialisation_to_the_end():
    registry = ModelRegistry()
    for name in TIMELINE_MODELS:
        steps = registry.timeline_steps(name)
        meta = load_metadata(PRETRAINED / name)
        assert len(steps) >= 5 and steps[0] == 0 and steps[-1] == meta["steps"], name
        assert [t["step"] for t in meta["timeline"]] == steps
        first = registry.timeline_entry(name, 0)
        assert first is registry.timeline_entry(name, 0)                   # loaded once, shared
        assert first.config == registry.get(name).config
        assert not any(p.requires_grad for p in first.model.parameters())
