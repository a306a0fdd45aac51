"""On a ZeroGPU Space the app registers its GPU training function with the real `spaces` when app.py
is imported, before the page is built, asking for a duration that follows each chunk; and building
the page never reaches CUDA, which `spaces` forbids in the main process (a CUDA random-number state
saved while the untrained models were drawn once stopped the app from starting there). A class pressing
Start together all join the line, as do viewers' clicks meanwhile (Gradio's own queue there holds one).

Run in a fresh interpreter with the real `spaces` as on a Space, against a fake control API
(playground.bench.zerogpu_platform; this machine has no GPU)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.bench.zerogpu_platform import ControlApi, platform_environment
from playground.ui.page import context

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
from playground.bench.zerogpu_platform import prepare_spaces
prepare_spaces()
from spaces.zero import decorator
registered = []
plain_gpu = decorator._GPU


def recording_gpu(task, duration, size):
    registered.append({"function": f"{task.__module__}.{task.__name__}",
                       "duration": getattr(duration, "__name__", duration),
                       "app_built_yet": "playground.ui.app" in sys.modules})
    return plain_gpu(task, duration, size)


decorator._GPU = recording_gpu
import app
import asyncio
import fastapi
import gradio
import torch
from gradio.data_classes import PredictBodyInternal


def join(session, api_name):
    # one event from a student behind the school's address (no server runs: it stays waiting)
    request = fastapi.Request({"type": "http", "method": "POST", "path": "/gradio_api/queue/join",
                               "query_string": b"", "client": ("203.0.113.7", 5000), "headers": []})
    index = next(i for i, fn in app.demo.fns.items() if fn.api_name == api_name)
    body = PredictBodyInternal(session_hash=session, fn_index=index, data=[], request=request)
    try:
        return asyncio.run(app.demo._queue.push(body=body, request=request, username=None))[2]
    except fastapi.HTTPException as refused:
        return f"{refused.status_code}: {refused.detail}"


joined = [join(f"student-{i}", "train_start") for i in range(30)] + [join(f"viewer-{i}", "attention")
                                                                     for i in range(10)]
print(json.dumps({"registered": registered, "built": isinstance(app.demo, gradio.Blocks),
                  "cuda_refused": torch._C._cuda_init.__name__, "joined": joined,
                  "trainings_at_once": app.demo._queue.event_queue_per_concurrency_id["training"].concurrency_limit}))
"""


@pytest.fixture(scope="module")
def zero_gpu_app() -> dict:
    """What SCRIPT reports of the app imported as on ZeroGPU, and the schedules the fake API received."""
    with ControlApi() as api:
        env = {**os.environ, **platform_environment(api.url)}
        env.pop("PLAYGROUND_DEVICE", None)
        env.pop("PLAYGROUND_TRAINING_SLOTS", None)
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "schedules": api.schedules}


def test_importing_the_app_registers_the_training_function_before_the_page_is_built_and_never_reaches_cuda(
        zero_gpu_app):
    report = zero_gpu_app
    assert report["registered"] == [{"function": "playground.train.zerogpu._train_chunk", "duration": "gpu_seconds",
                                     "app_built_yet": False}]
    assert report["built"] and report["cuda_refused"] == "_cuda_init_raise"   # as on a Space
    assert not report["schedules"]                         # building the page asks for no GPU


def test_a_class_pressing_start_together_all_join_the_line_and_viewers_meanwhile_too(zero_gpu_app):
    # Gradio turns an unset max_size into 1 on ZeroGPU, which refuses the class's second waiting press.
    assert zero_gpu_app["joined"] == ["success"] * 40
    assert zero_gpu_app["trainings_at_once"] == context.ZERO_GPU_TRAINING_SLOTS     # the rest wait their turn
