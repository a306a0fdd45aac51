"""The fair queue's order of service under a flood: with one client's backlog filling the light line and
holding both light workers, no event of that client starts while another session's light event waits, and
the flooder is held at its address's limit and told why. Workers are played by hand over the real app's
queue (no server runs), so what is checked is the order, not a time."""
import pytest

from playground.ui.server import fair_queue

from .test_fair_queue import FLOODER, app, built, join, line  # noqa: F401  (the fixtures and helpers)

STUDENTS = 30


def student_address(index: int) -> str:
    return f"203.0.113.{index + 1}"


@pytest.fixture()
def workers(app):  # noqa: F811
    """The queue, its workers and groups' counts restored when the test ends."""
    queue = app._queue
    yield queue
    queue.active_jobs = []
    for group in queue.event_queue_per_concurrency_id.values():
        group.current_concurrency = 0


def test_no_flood_event_starts_while_a_students_light_event_waits(app, workers):  # noqa: F811
    queue = workers
    flood = [join(app, f"bot-{i}", FLOODER) for i in range(fair_queue.MAX_WAITING_PER_CLIENT)]
    light = queue.event_queue_per_concurrency_id["light"]
    told = join(app, "bot-extra", FLOODER)
    assert told.status_code == 429 and "160 actions waiting" in told.detail         # bounded, and told why
    running = [queue.event_ids_to_events[event_id] for event_id in flood[:2]]
    for event in running:
        line(app).remove(event)
    queue.active_jobs, light.current_concurrency = [[event] for event in running], 2   # the flooder holds both
    students = set()
    for index in range(STUDENTS):                                   # the class joins while the flood goes on
        students.add(join(app, f"student-{index}", student_address(index)))
        assert join(app, f"bot-late-{index}", FLOODER).status_code == 429
    served = []
    for turn in range(STUDENTS + 4):                                # the workers finish in turn and take the next
        slot = turn % 2
        for event in queue.active_jobs[slot]:
            queue.pending_event_ids_session[event.session_hash].discard(event._id)     # its reply read
        queue.active_jobs[slot] = None
        light.current_concurrency -= 1
        events, _, group = queue.get_events()
        assert group == "light"
        queue.active_jobs[slot] = events
        light.current_concurrency += 1
        served.append(events[0]._id)
    assert set(served[:STUDENTS]) == students                       # every student before the backlog
    assert not students & set(served[STUDENTS:])
