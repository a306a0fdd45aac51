import pytest

from playground.zoo import ModelEntry, untrained_entries
from playground.ui.session.workspace import MAX_SESSION_MODELS, SessionsFull, Workspace, WorkspaceStore


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
    store = WorkspaceStore(max_passing=2, idle_seconds=60)
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


def _with_own_model(workspace: Workspace) -> Workspace:
    base = untrained_entries()[0]
    workspace.add_model(ModelEntry("mine", base.model, base.tokenizer, base.config, "", "session"))
    return workspace


class _Running:
    running = True

    def close(self):
        self.running = False


def test_new_session_ids_never_evict_a_student_who_opened_the_page():
    clock = Clock()
    store = WorkspaceStore(clock=clock)
    student = _with_own_model(store.get("student", opens_page=True))
    trainer = store.get("trainer", opens_page=True)
    trainer.training = _Running()
    reader = store.get("reader", opens_page=True)             # no model, no training: only reading
    for i in range(store.max_sessions + store.max_passing + 1):
        clock.now += 0.01
        store.get(f"new-{i}")
    assert store.get("student") is student and "mine" in student.models
    assert store.get("trainer") is trainer and trainer.training.running
    assert store.get("reader") is reader
    assert len(store) <= store.capacity


def test_idle_pages_give_way_first_and_a_full_store_refuses_the_newcomer():
    clock = Clock()
    store = WorkspaceStore(max_sessions=3, max_passing=2, evictable_after=60, clock=clock)
    idle = store.get("idle", opens_page=True)
    clock.now = 100
    busy = store.get("busy", opens_page=True)
    owner = _with_own_model(store.get("owner", opens_page=True))
    store.get("newcomer", opens_page=True)                    # the full store makes room: the idle page goes
    assert "idle" not in store and idle is not store.find("busy")
    with pytest.raises(SessionsFull):
        store.get("late", opens_page=True)                    # everyone else is active or owns a model
    assert store.get("busy") is busy and store.get("owner") is owner and "late" not in store
    clock.now = 100 + 2 * 60
    store.get("busy")
    store.get("late", opens_page=True)                        # the newcomer idle for two minutes gives way
    assert "newcomer" not in store and store.get("owner") is owner


def test_api_sessions_make_room_among_themselves_except_for_one_that_trains():
    store = WorkspaceStore(max_sessions=2, max_passing=2)
    trainer = store.get("script-trainer")
    trainer.training = _Running()
    store.get("script-a")
    store.get("script-b")                                      # script-a goes, the trainer stays
    assert "script-a" not in store and store.find("script-trainer") is trainer
    trainer.training.running = False
    store.get("script-c")
    assert "script-trainer" not in store
