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
import os
from playground.bench.zerogpu_platform import fake_state, prepare_spaces
api_url = os.environ["SPACES_ZERO_DEVICE_API_URL"]
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
built = fake_state(api_url)


def stopped_run():
    # Start a copy run in one long GPU chunk, Stop it at its first point (its model's publishing held
    # back): when does the run's event end, and what does Stop show once publishing goes on?
    import threading, time
    from gradio.context import LocalContext
    from playground.bench.zerogpu_platform import Request, ip_token
    from playground.train import zerogpu
    from playground.ui.session.training import TrainingSession
    from playground.ui.session.workspace import Workspace
    from playground.ui.tabs.train import TrainForm, start, stop

    zerogpu.GPU = torch.device("cpu")                   # the worker's device: no GPU on this machine
    zerogpu.CHUNK_SECONDS = 60.0
    publishing, may_publish = threading.Event(), threading.Event()
    plain_publish = TrainingSession.publish

    def held_publish(session):
        publishing.set()
        may_publish.wait(60)
        return plain_publish(session)

    TrainingSession.publish = held_publish
    LocalContext.request.set(Request.page(ip_token(user="student")))
    workspace = Workspace("student")
    run = start(workspace, TrainForm(task="copy").with_task_defaults().spec("en"), None, "en")
    for _ in run:
        session = workspace.training
        if session.trainer is not None and session.trainer.history:
            break
    shown = [event.step for event in session.trainer.history]
    stopped = {}
    stopping = threading.Thread(target=lambda: stopped.update(stop(workspace, "en")))
    t_stop = time.perf_counter()
    stopping.start()
    ending = threading.Thread(target=lambda: [None for _ in run])
    ending.start()
    ending.join(timeout=30)
    t_ended = time.perf_counter() - t_stop
    report = {"ended_while_publishing": not ending.is_alive() and not may_publish.is_set(),
              "released_then": fake_state(api_url)["released"] - built["released"], "t_ended": t_ended}
    may_publish.set()
    stopping.join(timeout=60)
    ending.join(timeout=60)
    trainer = session.trainer
    kept = [event.step for event in trainer.history]
    return {**report, "state": session.state, "shown_kept": kept[:len(shown)] == shown and bool(shown),
            "stop_shows_published": stopped.get("published") is session.entry is not None,
            "published_step": session._published[1] if session._published else None, "trainer_step": trainer.step,
            "published_val_loss": session.entry.held_out_loss if session.entry else None}


print(json.dumps({"registered": registered, "built": isinstance(app.demo, gradio.Blocks),
                  "cuda_refused": torch._C._cuda_init.__name__, "joined": joined,
                  "trainings_at_once": app.demo._queue.event_queue_per_concurrency_id["training"].concurrency_limit,
                  "schedules_at_build": built["schedules"], "stopped_run": stopped_run()}))
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
    assert report["schedules_at_build"] == 0               # building the page asks for no GPU


def test_a_class_pressing_start_together_all_join_the_line_and_viewers_meanwhile_too(zero_gpu_app):
    # Gradio turns an unset max_size into 1 on ZeroGPU, which refuses the class's second waiting press.
    assert zero_gpu_app["joined"] == ["success"] * 40
    assert zero_gpu_app["trainings_at_once"] == context.ZERO_GPU_TRAINING_SLOTS     # the rest wait their turn


def test_a_stopped_run_ends_its_event_once_its_chunk_is_back_and_stop_shows_the_published_model(zero_gpu_app):
    """The run's event (what holds a training slot) ends as soon as the stopped chunk has handed its
    trainer back and released its GPU, while the probe and publishing go on on the CPU; Stop waits for
    them and shows the published model, with every step the run showed kept."""
    run = zero_gpu_app["stopped_run"]
    assert run["ended_while_publishing"]                   # the slot is free before publishing ends
    assert run["released_then"] >= 1                       # and the GPU with it
    assert run["state"] == "stopped" and run["shown_kept"]
    assert run["stop_shows_published"] and run["published_step"] == run["trainer_step"] > 0
    assert run["published_val_loss"] is not None           # the final evaluation
