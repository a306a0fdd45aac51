"""Runs of playground.train.zerogpu in a process set up as a ZeroGPU Space (the real `spaces` against
a fake control API, see playground.bench.zerogpu_platform), reported as JSON on stdout.

`python -m tests.train.zerogpu_driver '<json>'` with platform_environment() in the environment. The
JSON lists runs, one after another in this process; each names the fake API's answers for it, the
node's GPU model, whether the page's request carries an x-ip-token, its steps, and optionally the
chunk's seconds and a Stop after some events. A run goes in a thread of its own in a copy of a context
holding the request, as the Train tab's worker runs it.
"""
import contextvars
import json
import os
import sys
import threading
import time

from playground.bench.zerogpu_platform import H200, Answer, Request, ip_token, prepare_spaces, set_answers

CHUNK_SECONDS = 0.001          # a chunk trains one step or two: a run of a few steps takes several chunks


def one_run(settings: dict) -> dict:
    import torch  # noqa: F401
    from gradio.context import LocalContext
    from spaces.zero import config

    from playground.train import zerogpu
    from playground.train.events import TrainEvent
    from tests.train.helpers import events, lm_trainer

    set_answers(os.environ["SPACES_ZERO_DEVICE_API_URL"], *(Answer(**a) for a in settings["answers"]))
    gpu_model = settings.get("gpu_model", H200)
    config._read_gpu_information = lambda: f"Model: {gpu_model}\n"
    config.get_config.cache_clear()
    zerogpu.CHUNK_SECONDS = settings.get("chunk_seconds", CHUNK_SECONDS)
    max_steps = settings.get("max_steps", 2)
    stop_after = settings.get("stop_after_events")
    trainer, whole = lm_trainer(max_steps=max_steps), lm_trainer(max_steps=max_steps)
    request = Request.page(ip_token(user="student") if settings.get("token") else None)
    report: dict = {}

    def started_in_the_event():
        LocalContext.request.set(request)
        return zerogpu.run(trainer)

    def train():
        try:
            run = contextvars.copy_context().run(started_in_the_event)
            if stop_after is None:
                report["progress"] = events(run)
            else:                                      # Stop after a few events, within the chunk
                report["progress"] = [item for _, item in zip(range(stop_after), (
                    item for item in run if isinstance(item, TrainEvent)))]
                closing = time.perf_counter()
                run.close()
                report["stop_s"] = time.perf_counter() - closing
            report["whole"] = events(whole.run(max_steps=trainer.step))     # the same steps on the CPU in one go
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
        "stop_s": report.get("stop_s"),
        "same_losses": trainer.step_losses == whole.step_losses,
        "devices": sorted({str(t.device) for t in trainer.model.state_dict().values()}),
        "refusals": [None if r is None else {"reason": r.reason, "detail": r.detail, "quota_left_s": r.quota_left_s,
                                             "retry_in": r.retry_in} for r in refusals],
    }


def main(runs: list[dict]) -> list[dict]:
    prepare_spaces()
    import torch

    from playground.train import zerogpu

    zerogpu.GPU = torch.device("cpu")                  # the worker's device: no GPU on this machine
    return [one_run(settings) for settings in runs]


if __name__ == "__main__":
    sys.stdout.write("\n" + json.dumps(main(json.loads(sys.argv[1]))) + "\n")
