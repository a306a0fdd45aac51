"""On a ZeroGPU Space the app registers its GPU training function with `spaces` when app.py is
imported, before the page is built or launched, asking for a duration that follows each chunk.

Run in a fresh interpreter with SPACES_ZERO_GPU set and a stand-in `spaces` that records what is
decorated (this machine is no ZeroGPU Space)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STAND_IN = """
import sys

registered = []


def GPU(duration=None):
    def decorate(function):
        registered.append({"function": f"{function.__module__}.{function.__name__}",
                           "duration": getattr(duration, "__name__", duration),
                           "app_built_yet": "playground.ui.app" in sys.modules})
        return function
    return decorate
"""


def test_importing_the_app_registers_the_training_function_before_the_page_is_built(tmp_path):
    (tmp_path / "spaces.py").write_text(STAND_IN)
    env = {**os.environ, "SPACES_ZERO_GPU": "true", "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    env.pop("PLAYGROUND_DEVICE", None)
    done = subprocess.run([sys.executable, "-c", "import json, app, spaces; print(json.dumps(spaces.registered))"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    registered = json.loads(done.stdout.strip().splitlines()[-1])
    assert registered == [{"function": "playground.train.zerogpu._train_chunk", "duration": "gpu_seconds",
                           "app_built_yet": False}]
