"""The README's front matter configures the Hugging Face Space, and requirements.txt serves both the
Space and this machine: the Space must get a Python and a torch that ZeroGPU runs, this machine and
CI the pinned torch 2.13.0, and the Space's settings must be ones the Hub accepts."""
import re
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
ZERO_GPU_PYTHONS = ("3.10.13", "3.12.12")              # docs/hub/spaces-zerogpu.md, "Supported Versions"
ZERO_GPU_TORCHES = ("2.8.0", "2.9.1", "2.10.0", "2.11.0")
LOCAL_TORCH = "2.13.0"


def front_matter() -> dict:
    """The README's YAML front matter: `key: value` lines and `  - item` lists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert block, "README.md starts with a --- front matter block"
    fields, key = {}, None
    for line in block.group(1).splitlines():
        if line.startswith("  - "):
            fields[key].append(line[4:].strip())
        else:
            key, _, value = line.partition(":")
            fields[key] = value.strip() or []
    return fields


def requirements() -> list[Requirement]:
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    return [Requirement(line.split("#")[0].strip()) for line in lines if line.split("#")[0].strip()]


def pins_for(name: str, python: str) -> list[str]:
    """The versions ``name`` is pinned to under Python ``python`` (full version)."""
    environment = {"python_full_version": python, "python_version": ".".join(python.split(".")[:2])}
    return [str(r.specifier).removeprefix("==") for r in requirements()
            if r.name == name and (r.marker is None or r.marker.evaluate(environment))]


def test_the_space_is_a_zerogpu_gradio_space_with_a_python_zerogpu_runs():
    fields = front_matter()
    assert fields["sdk"] == "gradio" and fields["app_file"] == "app.py"
    assert fields["suggested_hardware"] == "zero-a10g"                      # the Hub's name for ZeroGPU
    assert fields["python_version"] in ZERO_GPU_PYTHONS
    assert len(fields["short_description"]) < 60
    assert fields["models"] and fields["tags"]
    assert pins_for("gradio", fields["python_version"]) == [fields["sdk_version"]]


def test_the_space_gets_a_torch_zerogpu_runs_and_every_other_python_the_local_one():
    space_python = front_matter()["python_version"]
    (space_torch,) = pins_for("torch", space_python)
    assert space_torch in ZERO_GPU_TORCHES
    for python in ("3.10.13", "3.11.7", "3.12.11", "3.13.1"):
        assert pins_for("torch", python) == [LOCAL_TORCH], python
    assert all(str(r.specifier).startswith("==") for r in requirements())   # every dependency pinned
