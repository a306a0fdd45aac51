"""The load generator: it builds Gradio's queue data, reads completions without decoding them, and
drives a live app's events from one process."""

import gradio as gr
import pytest

from playground.bench import load
from tests.ui.serving import serve

EVENT = "ab12"


def message(body: str) -> bytes:
    return f"data: {body}".encode()


def test_a_completion_is_read_from_its_head_and_tail_only():
    figure = '{"data": [' + "1.0, " * 20_000 + '1.0]}'                    # a large reply in the middle
    done = message(f'{{"msg": "process_completed", "event_id": "{EVENT}", "output": {{"data": [{figure}], '
                   f'"duration": 0.0421, "average_duration": 0.05}}, "success": true}}')
    assert load._completion(done, EVENT) == (True, pytest.approx(42.1), "")
    assert load._completion(done, "other") is None                         # another event's completion
    starts = message(f'{{"msg": "process_starts", "event_id": "{EVENT}", "eta": 0.1}}')
    assert load._completion(starts, EVENT) is None


def test_a_failed_event_carries_its_message():
    failed = message(f'{{"msg": "process_completed", "event_id": "{EVENT}", "output": {{"error": "The input is '
                     f'empty: type some text."}}, "success": false}}')
    ok, _, error = load._completion(failed, EVENT)
    assert not ok and error == "The input is empty: type some text."


def test_the_data_list_follows_the_parameters_with_defaults_and_empty_state():
    endpoint = load.Endpoint(3, ("name", "value", "lang"), {"name": "copy", "value": "abc", "lang": "en"},
                             (False, True, False, False))
    assert endpoint.data({"value": "xyz"}) == ["copy", None, "xyz", "en"]
    with pytest.raises(ValueError, match="unknown parameter"):
        endpoint.data({"prompt": "x"})
    api_only = load.Endpoint(4, ("value",), {"value": None}, ())
    assert api_only.data({"value": "hi"}) == ["hi"]


SERVED = []                           # every value the tiny app's echo served, in order


def tiny_app() -> gr.Blocks:
    with gr.Blocks() as demo:
        box, count = gr.Textbox(), gr.State(0)
        out = gr.Textbox()

        def shout(value, seen):
            if value == "refuse":
                raise gr.Error("refused on purpose")
            return value.upper(), seen + 1

        def echo(value: str) -> str:
            SERVED.append(value)
            return value

        box.submit(shout, [box, count], [out, count], api_name="shout")
        gr.api(echo, api_name="echo")
    return demo.queue()


@pytest.fixture(scope="module")
def url():
    yield from serve(tiny_app())


class Shouter(load.Student):
    def __init__(self):
        self.heard_replies = []

    def next_call(self, rng):
        return "shout", {"value": rng.choice(["hello", "world", "refuse"])}

    def heard(self, result):
        self.heard_replies.append(result.reply)


def test_calls_in_turn_reach_the_app_and_report_its_refusals(url):
    student = Shouter()
    results = load.calls_in_turn(url, student, 12, seed=3)
    assert len(results) == 12
    for result in results:
        assert result.latency_ms > 0 and result.reply == b""               # figures are not kept
        if result.ok:
            assert result.server_ms is not None and result.reply_bytes > 0
        else:
            assert result.error == "refused on purpose"
    assert any(b"HELLO" in r or b"WORLD" in r for r in student.heard_replies)
    assert {r.ok for r in results} == {True, False}


def test_a_class_runs_from_one_child_process_and_reports_its_cpu(url):
    run = load.run_class(url, lambda rng, index: Shouter(), n_students=4, duration_s=1.5, period_s=0.5, seed=1)
    assert 8 <= len(run.results) <= 4 * 4
    assert run.wall_s >= 1.5 and 0 < run.generator_cpu_s < run.wall_s
    echo = load.calls_in_turn(url, _Echo(), 2)
    assert all(r.ok for r in echo)


def test_metered_calls_meter_only_the_calls_after_the_sessions_first(url):
    results, grown = load.metered_calls(url, _Echo(), 5, meter=lambda: float(len(SERVED)))
    assert len(results) == 5 and all(r.ok for r in results)
    assert grown == 5.0                                    # the session's first call came before
    assert load.metered_calls(url, _Echo(), 2, meter=lambda: None)[1] is None


class _Echo(load.Student):
    def next_call(self, rng):
        return "echo", {"value": "x"}
