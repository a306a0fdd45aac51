"""Shared test settings: small thread counts so the suite behaves on a 2-core machine, and the device.

The library's tests run on the process's device (playground.device): CUDA where there is a GPU,
else the CPU; PLAYGROUND_DEVICE=cuda (or cpu, mps) picks it. When it names a device this machine
lacks, every test is skipped, saying so.
"""
import pytest
import torch

from playground.device import default_device

torch.set_num_threads(1)


def pytest_collection_modifyitems(config, items):
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
