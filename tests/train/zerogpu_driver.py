"""Runs of playground.train.zerogpu in a process set up as a ZeroGPU Space (the real `spaces`
against a fake control API, see playground.bench.zerogpu_platform), reported as JSON on stdout.

`python -m tests.train.zerogpu_driver '<json>'` with platform_environment() in the environment. The
JSON lists runs, one after another in this process; each names the fake API's answers for it, the
node's GPU model, whether the page's request carries an x-ip-token, and its steps. A run goes in a
thread of its own in a copy of a context holding the request, as the Train tab's worker runs it.
"""
import contextvars
import json
import os
import sys
import threading
import time

from playground.bench.zerogpu_platform import H200, Answer, Request, ip_token, prepare_spaces, set_answers

CHUNK_SECONDS = 0.3            # short enough that a run of a few steps takes several chunks
STEP_SECONDS = 0.08            # each step at least: 12 steps are at least 3 chunks


def one_run(settings: dict) -> dict:
    import torch  # noqa: F401
    from gradio.context import LocalContext
    from spaces.zero import config

    from playground.train import zerogpu
    from tests.train.helpers import events, lm_trainer

    set_answers(os.environ["SPACES_ZERO_DEVICE_API_URL"], *(Answer(**a) for a in settings["answers"]))
    gpu_model = settings.get("gpu_model", H200)
    config._read_gpu_information = lambda: f"Model: {gpu_model}\n"
    config.get_config.cache_clear()
    max_steps = settings.get("max_steps", 6)
    trainer, whole = lm_trainer(max_steps=max_steps), lm_trainer(max_steps=max_steps)
    request = Request.page(ip_token(user="student") if settings.get("token") else None)
    report: dict = {}

    def started_in_the_event():
        LocalContext.request.set(request)
        return zerogpu.run(trainer)

    def train():
        try:
            report["progress"] = events(contextvars.copy_context().run(started_in_the_event))
            report["whole"] = events(whole.run())        # the same run on the CPU in one go
        except BaseException as error:                 # reported, not hidden
            report["error"] = f"{type(error).__name__}: {error}"

    thread = threading.Thread(target=train)
    thread.start()
    thread.join()
    if "error" in report:
        return {"error": report["error"]}
    refusals = [e.gpu_refusal for e in report["progress"]]
    return {
        "statuses": [e.status for e in report["progress"]],
        "step": trainer.step,
        "same_losses": trainer.step_losses == whole.step_losses,
        "devices": sorted({str(t.device) for t in trainer.model.state_dict().values()}),
        "refusals": [None if r is None else {"reason": r.reason, "detail": r.detail, "quota_left_s": r.quota_left_s,
                                             "retry_in": r.retry_in} for r in refusals],
    }


def _each_step_takes(seconds: float) -> None:
    """Every training step lasts at least `seconds`, as on a GPU node under the platform's load: so a run
    takes the same number of chunks on a fast machine as on a slow one (a quiet machine trained a whole
    run in its first chunk, and never met the refusal meant for its second)."""
    from playground.train.trainer import Trainer

    step = Trainer._step

    def slow_step(self) -> None:
        started = time.perf_counter()
        step(self)
        time.sleep(max(0.0, seconds - (time.perf_counter() - started)))

    Trainer._step = slow_step


def main(runs: list[dict]) -> list[dict]:
    prepare_spaces()
    import torch

    from playground.train import zerogpu

    zerogpu.GPU = torch.device("cpu")                  # the worker's device: no GPU on this machine
    zerogpu.CHUNK_SECONDS = CHUNK_SECONDS
    _each_step_takes(STEP_SECONDS)
    return [one_run(settings) for settings in runs]


if __name__ == "__main__":
    sys.stdout.write("\n" + json.dumps(main(json.loads(sys.argv[1]))) + "\n")
