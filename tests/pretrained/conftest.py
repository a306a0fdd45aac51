"""The shipped checkpoints under pretrained/, their metadata and the held-out data they were measured on."""
from pathlib import Path

import pytest

from playground.checkpoint import MODEL_FILE, load, load_metadata
from playground.zoo import DEFAULT_PRETRAINED_DIR

PRETRAINED = DEFAULT_PRETRAINED_DIR
SHIPPED = sorted(p.name for p in PRETRAINED.iterdir() if (p / MODEL_FILE).is_file()) if PRETRAINED.is_dir() else []


def shipped(name: str) -> Path:
    folder = PRETRAINED / name
    if not (folder / MODEL_FILE).is_file():
        pytest.fail(f"pretrained/{name} is missing: train it with the command in the issue's list")
    return folder


@pytest.fixture(scope="session")
def checkpoints():
    """name -> (Checkpoint, metadata) of every shipped model, loaded once."""
    return {name: (load(PRETRAINED / name), load_metadata(PRETRAINED / name)) for name in SHIPPED}
