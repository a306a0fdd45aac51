import pytest

from playground.zoo import ModelEntry, untrained_entries
from playground.ui.session.workspace import MAX_SESSION_MODELS, Workspace, WorkspaceStore


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_each_session_gets_its_own_workspace_and_keeps_it():
    store = WorkspaceStore(max_sessions=5, idle_seconds=60)
    a, b = store.get("a"), store.get("b")
    assert a is not b
    a.generation = "a's state"
    assert store.get("a") is a and store.get("b").generation is None


def test_the_store_is_bounded_and_forgets_the_least_recently_used():
    store = WorkspaceStore(max_sessions=2, idle_seconds=60)
    first = store.get("first")
    store.get("second")
    store.get("first")                       # first is now the most recent
    store.get("third")
    assert len(store) == 2 and "second" not in store and store.get("first") is first


def test_idle_sessions_expire():
    clock = Clock()
    store = WorkspaceStore(max_sessions=10, idle_seconds=30, clock=clock)
    old = store.get("old")
    clock.now = 20
    store.get("busy")
    clock.now = 40                           # old idle for 40 s, busy for 20 s
    store.get("busy")
    assert "old" not in store and "busy" in store
    assert store.get("old") is not old


def test_dropping_a_closed_session():
    store = WorkspaceStore()
    store.get("tab")
    store.drop("tab")
    store.drop("never-seen")
    assert "tab" not in store


def test_bad_store_settings_are_refused():
    with pytest.raises(ValueError):
        WorkspaceStore(max_sessions=0)
    with pytest.raises(ValueError):
        WorkspaceStore(idle_seconds=0)


def test_a_session_keeps_a_bounded_number_of_own_models(registry):
    workspace = Workspace("s")
    base = untrained_entries()[0]
    for i in range(MAX_SESSION_MODELS + 1):
        workspace.add_model(ModelEntry(f"mine-{i}", base.model, base.tokenizer, base.config, "", "session"))
    assert list(workspace.models) == [f"mine-{i}" for i in range(1, MAX_SESSION_MODELS + 1)]
    assert workspace.model_names(registry)[-MAX_SESSION_MODELS:] == list(workspace.models)
    assert workspace.find_model(registry, "mine-2").source == "session"
    assert workspace.newest_model().name == f"mine-{MAX_SESSION_MODELS}"
    workspace.add_model(workspace.models["mine-1"])                     # published again: the newest once more
    assert workspace.newest_model().name == "mine-1" and Workspace("empty").newest_model() is None
    assert workspace.find_model(registry, "copy").source == "pretrained"
