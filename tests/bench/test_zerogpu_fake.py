"""The fake ZeroGPU control API answers as `spaces` expects: a GPU of its own to each call under way,
the quota refusal's fields, and answers set from another process; the class bench's students stop
their runs as the page does."""
import types

import httpx
from gradio_client.utils import Status

from playground.bench.zerogpu_class import Student
from playground.bench.zerogpu_platform import Answer, ControlApi, fake_state, set_answers


def schedule(api: ControlApi, **params) -> httpx.Response:
    return httpx.post(f"{api.url}/schedule", params={"cgroupPath": "/", "taskId": 0, **params}, timeout=10)


def test_calls_under_way_get_gpus_of_their_own_and_a_release_frees_one():
    with ControlApi() as api:
        first, second = schedule(api).json(), schedule(api, durationSeconds=15).json()
        assert first["nvidiaIndex"] != second["nvidiaIndex"] and first["allowToken"] != second["allowToken"]
        httpx.post(f"{api.url}/release", params={"allowToken": first["allowToken"], "fail": False}, timeout=10)
        assert schedule(api).json()["nvidiaIndex"] == first["nvidiaIndex"]
        assert [s.duration_s for s in api.schedules] == [None, 15, None] and api.released == [False]
        assert len(api.held_s) == 1 and 0 <= api.held_s[0] < 10          # the first GPU, held until its release


def test_a_refusal_carries_what_spaces_reads_and_answers_follow_their_latest_setting():
    with ControlApi([Answer(), Answer("quota", auth=None, left_s=3, wait_s=60)]) as api:
        assert schedule(api).status_code == 200
        refused = schedule(api, token="t")
        assert refused.status_code == 429 and refused.json() == {"left": 3, "wait": 60}
        assert "x-authenticated" not in refused.headers and api.schedules[-1].token == "t"
        set_answers(api.url, Answer("unavailable"))
        assert schedule(api).status_code == 503


def test_fake_state_counts_what_the_api_received_so_far():
    with ControlApi() as api:
        granted = schedule(api).json()
        httpx.post(f"{api.url}/release", params={"allowToken": granted["allowToken"], "fail": False}, timeout=10)
        schedule(api)
        assert fake_state(api.url) == {"schedules": 2, "released": 1}


class StudentsPage:
    """A student's gradio_client session as the class bench uses it, recording what it is asked."""

    def __init__(self):
        self.calls: list[str] = []

    def submit(self, *inputs, api_name):
        self.calls.append(api_name)
        return self

    def status(self):
        return types.SimpleNamespace(code=Status.ITERATING, rank=None, eta=None)

    def outputs(self):
        return [["step **3** of 800"]]

    def done(self):
        return False

    def cancel(self):
        self.calls.append("cancel")

    def predict(self, *inputs, api_name):
        self.calls.append(api_name)

    def close(self):
        self.calls.append("close")


def test_a_bench_student_stops_its_run_as_the_page_does_cancelling_its_event_first():
    page = StudentsPage()
    student = Student(page)
    student.run()
    assert student.progress_at is not None and student.error is None and student.stop_error is None
    assert page.calls == ["/train_start", "cancel", "/train_stop", "close"]
