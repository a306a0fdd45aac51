"""Training on a ZeroGPU Space, against the platform's own code: the real `spaces` package (its
decorator, its client, the worker process it forks, the SimpleQueue the result crosses, its error
texts and its duration factor) pointed at a fake control API this test serves on 127.0.0.1
(playground.bench.zerogpu_platform). The runs go in one fresh interpreter (tests/train/zerogpu_driver.py),
since importing `spaces` there patches torch for the whole process, as on a Space.

What the fake cannot reproduce: CUDA (the worker trains on the CPU: `spaces`' CUDA start and its
moving of tensors to CUDA are skipped, so a CUDA tensor handed back cannot be seen here; the chunk's
own check, playground.train.zerogpu.check_left_on, is tested in test_zerogpu.py), the platform's real
queue and its timing, and how it charges a call after it ends.
"""
import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from playground.bench.zerogpu_platform import BLACKWELL, H200, Answer, ControlApi, platform_environment
from playground.train import zerogpu
from .zerogpu_driver import CHUNK_SECONDS

ROOT = Path(__file__).resolve().parents[2]
STEPS = {True: 4, False: 2}               # a run the GPU trains takes several chunks of a step or two
STOPPED_CHUNK_S = 60.0                     # the stopped run's one chunk: a Stop that waited for its end would show
RUNS = {                                   # name -> (the fake API's answers, the request has an x-ip-token)
    "granted": ([Answer()], True),
    "granted_on_blackwell": ([Answer()], True),
    "granted_then_stopped": ([Answer()], True),
    "quota_spent": ([Answer("quota", auth="regular", left_s=5, wait_s=5 * 3600 + 12 * 60)], True),
    "not_signed_in": ([Answer("quota", auth=None, left_s=0, wait_s=3600)], True),
    "outside_huggingface": ([Answer("quota", auth=None)], False),
    "no_gpu_free": ([Answer("no_gpu_in_queue", queue_s=0.3)], True),
    "no_gpu_on_the_node": ([Answer("unavailable")], True),
    "worker_fails": ([Answer(allow_status=500, idle=False)], True),     # a new worker that cannot start
    "granted_then_spent": ([Answer(), Answer("quota", auth="regular", left_s=2, wait_s=60)], True),
}
STOPPED = {"max_steps": 100_000, "chunk_seconds": STOPPED_CHUNK_S, "stop_after_events": 2}


@pytest.fixture(scope="module")
def platform():
    """Every run of RUNS in one process on the fake platform: {name: (report, the API's schedules)}."""
    with ControlApi() as api:
        runs = [{"answers": [asdict(a) for a in answers], "token": token,
                 "gpu_model": BLACKWELL if name == "granted_on_blackwell" else H200,
                 "max_steps": STEPS[name.startswith("granted")], **(STOPPED if name == "granted_then_stopped" else {})}
                for name, (answers, token) in RUNS.items()]
        env = {**os.environ, **platform_environment(api.url)}
        env.pop("PLAYGROUND_DEVICE", None)
        done = subprocess.run([sys.executable, "-m", "tests.train.zerogpu_driver", json.dumps(runs)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-4000:]
        reports = json.loads(done.stdout.strip().splitlines()[-1])
        return dict(zip(RUNS, reports)), api


def refusal_of(report: dict) -> dict:
    refusals = [r for r in report["refusals"] if r is not None]
    assert refusals and report["refusals"][-len(refusals):] == refusals      # every event after the refusal
    assert all(r == refusals[0] for r in refusals)
    return refusals[0]


def assert_finished_on_the_cpu(report: dict, steps: int) -> None:
    assert "error" not in report, report.get("error")
    assert report["statuses"][-1] == "finished" and report["step"] == steps
    assert report["devices"] == ["cpu"]


def test_chunks_cross_the_real_worker_and_queue_and_training_goes_on(platform):
    reports, api = platform
    report = reports["granted"]
    assert_finished_on_the_cpu(report, STEPS[True])
    assert report["refusals"] == [None] * len(report["refusals"])
    assert report["same_losses"]                              # the chunks trained exactly as one run
    assert report["statuses"] == ["running"] * (len(report["statuses"]) - 1) + ["finished"]
    assert len(api.allowed) >= 1 and os.getpid() not in api.allowed      # a forked worker asked to use the GPU
    assert api.released and not api.released[0]


def test_each_call_asks_for_its_chunk_times_the_nodes_duration_factor(platform):
    reports, api = platform
    asked = zerogpu.gpu_seconds(None, None, CHUNK_SECONDS)    # the driver's chunk and the overhead
    durations = [s.duration_s for s in api.schedules]
    h200 = [d for d in durations if d == asked]
    blackwell = [d for d in durations if d == round(asked * 1.5)]
    assert h200 and blackwell                                 # 6 s asked: 6 s on an H200 node, 9 s on Blackwell
    assert set(durations) == {asked, round(asked * 1.5), zerogpu.gpu_seconds(None, None, STOPPED_CHUNK_S)}
    assert all(s.token for s in api.schedules[:2])            # the page's x-ip-token went with the request


def test_a_stop_within_a_chunk_reaches_the_forked_worker_which_hands_back_what_it_trained(platform):
    """Stop sets the run's byte in memory the worker shares; the worker ends its 60 s chunk at the next
    item and the trainer takes over the steps it trained, exactly as one run on the CPU."""
    report = platform[0]["granted_then_stopped"]
    assert "error" not in report, report["error"]
    assert report["statuses"] == ["running", "running"] and report["refusals"] == [None, None]
    assert report["stop_s"] < STOPPED_CHUNK_S / 3                 # not the chunk's end
    assert 2 <= report["step"] < STOPPED["max_steps"] and report["same_losses"]
    assert report["devices"] == ["cpu"]


def test_a_spent_quota_goes_on_on_the_cpu_saying_when_it_resets(platform):
    report = platform[0]["quota_spent"]
    assert_finished_on_the_cpu(report, STEPS[False])
    refusal = refusal_of(report)
    assert refusal["reason"] == "gpu_quota" and refusal["quota_left_s"] == 5 and refusal["retry_in"] == "5:12:00"
    assert "free ZeroGPU quota" in refusal["detail"]


def test_a_visitor_not_signed_in_is_told_to_sign_in(platform):
    refusal = refusal_of(platform[0]["not_signed_in"])
    assert refusal["reason"] == "gpu_signed_out" and refusal["retry_in"] == "1:00:00"


def test_a_page_opened_outside_huggingface_co_carries_no_token_and_is_told_so(platform):
    reports, api = platform
    assert_finished_on_the_cpu(reports["outside_huggingface"], STEPS[False])
    refusal = refusal_of(reports["outside_huggingface"])
    assert refusal["reason"] == "gpu_outside_hf" and "Space app has reached its GPU limit" in refusal["detail"]
    assert any(s.token is None for s in api.schedules)


@pytest.mark.parametrize("name", ["no_gpu_free", "no_gpu_on_the_node"])
def test_no_gpu_free_goes_on_on_the_cpu(platform, name):
    report = platform[0][name]
    assert_finished_on_the_cpu(report, STEPS[False])
    refusal = refusal_of(report)
    assert refusal["reason"] == "gpu_busy" and "No GPU was available" in refusal["detail"]


def test_a_worker_that_fails_goes_on_on_the_cpu(platform):
    report = platform[0]["worker_fails"]
    assert_finished_on_the_cpu(report, STEPS[False])
    refusal = refusal_of(report)
    assert refusal["reason"] == "gpu_unavailable" and refusal["detail"].startswith("ZeroGPU worker error")
    assert report["same_losses"]


def test_a_refusal_after_gpu_chunks_keeps_their_training_and_finishes_on_the_cpu(platform):
    report = platform[0]["granted_then_spent"]
    assert_finished_on_the_cpu(report, STEPS[True])
    assert report["refusals"][0] is None                      # the first chunk trained on the "GPU"
    assert refusal_of(report)["reason"] == "gpu_quota"
    assert report["same_losses"]
