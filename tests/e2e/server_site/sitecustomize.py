"""Loaded first by every app server of the browser tests (their PYTHONPATH names this folder).

Gradio's launch asks its own page for a HEAD and gives up when one answer takes over 3 s, which a
server booting on a loaded machine (the other half of the suite beside it) often does: the process
ends and the whole boot is paid again. Here that check waits for the page up to PATIENT_SECONDS
instead; tests/e2e/conftest.py's AppServer then finds the page answering as before.
"""
import importlib.abc
import importlib.util
import sys
import time

PATIENT_SECONDS = 120
ANSWERED = (200, 401, 301, 302, 303, 307, 308)       # the statuses Gradio's own check accepts


def patient_url_ok(url: str) -> bool:
    """Gradio's networking.url_ok, waiting for a slow answer instead of giving up at the first."""
    import httpx

    deadline = time.monotonic() + PATIENT_SECONDS
    while time.monotonic() < deadline:
        try:
            if httpx.head(url, timeout=PATIENT_SECONDS, verify=False).status_code in ANSWERED:
                return True
        except (httpx.ConnectError, httpx.TimeoutException):
            pass
        time.sleep(0.5)
    return False


class PatientSelfCheck(importlib.abc.MetaPathFinder):
    """Replaces url_ok in gradio.networking as that module is first imported."""

    def find_spec(self, name, path, target=None):
        if name != "gradio.networking":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            module.url_ok = patient_url_ok
        spec.loader.exec_module = exec_module
        return spec


sys.meta_path.insert(0, PatientSelfCheck())
