"""Shared test settings: small thread counts so the suite behaves on a 2-core machine, and the device.

The library's tests run on the process's device (playground.device): CUDA where there is a GPU,
else the CPU; PLAYGROUND_DEVICE=cuda (or cpu, mps) picks it. When it names a device this machine
lacks, every test is skipped, saying so. A run of browser tests and others runs the browser tests
in two more processes beside this one (tests/browser_beside.py).
"""
import pytest
import torch

from playground.device import default_device

from .browser_beside import (  # noqa: F401  (hooks: the browser tests run beside the others)
    keep_own_half,
    pytest_collection,
    pytest_ignore_collect,
    pytest_runtestloop,
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_unconfigure,
)

torch.set_num_threads(1)


def pytest_collection_modifyitems(config, items):
    keep_own_half(config, items)
    try:
        default_device()
    except ValueError as error:
        skip = pytest.mark.skip(reason=f"no such device here: {error}")
        for item in items:
            item.add_marker(skip)


@pytest.fixture
def device() -> torch.device:
    """The device the library trains and runs on in this test session."""
    return default_device()
