"""The library stands without the web stack: no module of playground/ outside playground/ui and the
app's benches asks for gradio or playground.ui, and neither do the library's own tests, so a machine
with torch and the data packages alone (a GPU machine, say) runs them.

Each check imports the modules in a fresh interpreter where gradio and playground.ui cannot be
imported, and records every attempt, even one a module would catch."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP_BENCHES = {"app", "app_training", "asyncio_transport", "attention_view", "deep_link", "fairness", "lessons", "llm_views",
               "load", "room", "soak", "zerogpu_app", "zerogpu_class"}
LIBRARY_TESTS = ("tests/analysis", "tests/data", "tests/generate", "tests/hub", "tests/labs", "tests/model",
                 "tests/train", "tests/test_checkpoint.py", "tests/test_device.py")

IMPORT_WITHOUT_WEB_STACK = """
import importlib, importlib.abc, json, sys

asked = []

class WebStack(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "gradio" or name == "playground.ui" or name.startswith("playground.ui."):
            asked.append(name)
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, WebStack())
failed = {}
for name in sys.argv[1:]:
    before = len(asked)
    try:
        importlib.import_module(name)
    except Exception as error:
        failed[name] = f"{type(error).__name__}: {error}"
    if len(asked) > before:
        failed.setdefault(name, f"asked for {asked[before:]}")
print(json.dumps(failed))
"""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def library_modules() -> list[str]:
    names = []
    for path in sorted((ROOT / "playground").rglob("*.py")):
        relative = path.relative_to(ROOT / "playground").parts
        if relative[0] == "ui" or (relative[0] == "bench" and Path(relative[-1]).stem in APP_BENCHES):
            continue
        if path.stem == "__main__":                 # a command line runs on import; its package is imported
            continue
        names.append(_module_name(path))
    return names


def library_test_modules() -> list[str]:
    paths = []
    for entry in LIBRARY_TESTS:
        path = ROOT / entry
        paths += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return [_module_name(path) for path in paths]


def imports_without_web_stack(names: list[str]) -> dict[str, str]:
    """module -> why it failed, for each module that needs gradio or playground.ui (or fails at all)."""
    done = subprocess.run([sys.executable, "-c", IMPORT_WITHOUT_WEB_STACK, *names], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def failed_imports() -> dict[str, str]:
    """The library's modules, then its tests, imported in one fresh interpreter without the web stack."""
    return imports_without_web_stack(library_modules() + library_test_modules())


def test_every_library_module_imports_without_gradio_or_the_ui(failed_imports):
    names = library_modules()
    assert {"playground.zoo", "playground.train.recipes", "playground.limits", "playground.bench.train",
            "playground.bench.model", "playground.bench.labs", "playground.bench.generate"} <= set(names)
    assert {name: why for name, why in failed_imports.items() if name in names} == {}


def test_the_librarys_own_tests_import_without_gradio_or_the_ui(failed_imports):
    names = library_test_modules()
    assert {"tests.labs.helpers", "tests.analysis.test_fill_blanks", "tests.analysis.test_worked_attention",
            "tests.test_device"} <= set(names)
    assert {name: why for name, why in failed_imports.items() if name in names} == {}


def test_the_check_sees_a_module_that_asks_for_gradio(tmp_path):
    """The check itself: an import of gradio, even one caught, is reported."""
    probe = tmp_path / "asks_for_gradio.py"
    probe.write_text("try:\n    import gradio\nexcept ImportError:\n    gradio = None\n")
    done = subprocess.run([sys.executable, "-c", IMPORT_WITHOUT_WEB_STACK, "asks_for_gradio"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout) == {"asks_for_gradio": "asked for ['gradio']"}
