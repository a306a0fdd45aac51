"""Training through the served app with gradio_client: a run streams several updates, its model is
then viewed in the same session (and is unknown to another one), a second start is refused,
and the downloaded file uploaded back is the same model."""
import json
import os
import re

import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from playground.ui import create_app
from playground.ui.tabs.train.handlers import VIEWS

from .serving import serve

TINY_COPY = ("copy", "bundled", "", 1, 2, 16, 32, "sinusoidal", "pre", "gelu", 0.0, False, 3e-3, 5, 16, 3000)
STABILITY = (64, "cosine", 500, 0.5, True, 1.0)        # block size, schedule, its step, factor, clipping, threshold
PIECES = (True, "layernorm", False, 0, 10000, False)   # biases, norm kind, gated, key/value heads, rope base, q/k/v
ATTENTION = ("abcde", "", "cross", 0, 0, False, "diagonal", "en")
STEP = re.compile(r"step \*\*(\d+)\*\*")


@pytest.fixture(scope="module")
def server(pretrained_dir):
    previous = os.environ.get("PLAYGROUND_TRAINING_SLOTS")
    os.environ["PLAYGROUND_TRAINING_SLOTS"] = "2"          # two sessions' starts can run at once
    try:
        demo = create_app(pretrained_dir)
    finally:
        if previous is None:
            os.environ.pop("PLAYGROUND_TRAINING_SLOTS")
        else:
            os.environ["PLAYGROUND_TRAINING_SLOTS"] = previous
    yield from serve(demo)


def steps_shown(statuses) -> list[int]:
    return [int(m.group(1)) for s in statuses if isinstance(s, str) and (m := STEP.search(s))]


def test_a_training_streams_updates_and_its_model_belongs_to_its_session(server, tmp_path):
    owner, other = Client(server, verbose=False), Client(server, verbose=False)
    job = owner.submit(*TINY_COPY, *STABILITY, *PIECES, "en", api_name="/train_start")
    statuses = []
    for output in job:
        statuses.append(output[0])
        if len(set(steps_shown(statuses))) >= 3:
            break
    with pytest.raises(AppError, match="already running"):
        owner.predict(*TINY_COPY, *STABILITY, *PIECES, "en", api_name="/train_start")
    stopped = owner.predict(*TINY_COPY, *STABILITY, *PIECES, "en", api_name="/train_stop")
    status, download = stopped[0], stopped[VIEWS.index("download")]
    job.result(timeout=60)
    again = owner.predict(*TINY_COPY, *STABILITY, *PIECES, "en", api_name="/train_stop")      # publishes the model again
    assert again[0].startswith("**Stopped.**") and "trained-copy" in again[0]
    shown = steps_shown(statuses)
    assert len(set(shown)) >= 3 and shown == sorted(shown)                 # several updates, training moves on
    assert status.startswith("**Stopped.**") and "trained-copy" in status

    view = owner.predict("trained-copy", *ATTENTION, api_name="/attention")     # its views end the outputs
    grid, *_, summary = view[-6:]
    assert "**trained-copy**" in summary
    with pytest.raises(AppError, match='no model "trained-copy"'):
        other.predict("trained-copy", *ATTENTION, api_name="/attention")

    assert download["value"].endswith("trained-copy.safetensors") and download["interactive"]
    uploaded = owner.predict(handle_file(download["value"]), "en", api_name="/upload_model")
    assert "mine-trained-copy" in uploaded
    again = owner.predict("mine-trained-copy", *ATTENTION, api_name="/attention")
    assert heatmaps(again[-6]) == heatmaps(grid)                             # the same weights came back


def heatmaps(plot: dict) -> list:
    """The z values of every heatmap in a gr.Plot output."""
    return [trace["z"] for trace in json.loads(plot["plot"])["data"]]
