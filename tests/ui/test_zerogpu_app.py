"""On a ZeroGPU Space the app registers its GPU training function with the real `spaces` when app.py
is imported, before the page is built, asking for a duration that follows each chunk; and building
the page never reaches CUDA, which `spaces` forbids in the main process (a CUDA random-number state
saved while the untrained models were drawn once stopped the app from starting there).

Run in a fresh interpreter with the real `spaces` as on a Space, against a fake control API
(playground.bench.zerogpu_platform; this machine has no GPU)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from playground.bench.zerogpu_platform import ControlApi, platform_environment

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
import gradio
import torch
print(json.dumps({"registered": registered, "built": isinstance(app.demo, gradio.Blocks),
                  "cuda_refused": torch._C._cuda_init.__name__}))
"""


def test_importing_the_app_registers_the_training_function_before_the_page_is_built_and_never_reaches_cuda():
    with ControlApi() as api:
        env = {**os.environ, **platform_environment(api.url)}
        env.pop("PLAYGROUND_DEVICE", None)
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["registered"] == [{"function": "playground.train.zerogpu._train_chunk", "duration": "gpu_seconds",
                                     "app_built_yet": False}]
    assert report["built"] and report["cuda_refused"] == "_cuda_init_raise"   # as on a Space
    assert not api.schedules                               # building the page asks for no GPU
