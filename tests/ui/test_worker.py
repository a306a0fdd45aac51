"""A training job runs in its own thread but in the launching event's context: Gradio's request is
known to it (on a ZeroGPU Space, the GPU quota charged is the student's)."""
from gradio.context import LocalContext

from playground.ui.session.worker import Worker


def test_the_job_sees_the_request_of_the_event_that_launched_it():
    request = object()
    token = LocalContext.request.set(request)
    try:
        batches = Worker().launch(lambda put: put(LocalContext.request.get(None)), RuntimeError("busy"))
    finally:
        LocalContext.request.reset(token)
    seen = [item for batch in batches for item in batch]
    assert seen == [request]
    assert LocalContext.request.get(None) is None            # the launcher's own context is unchanged
