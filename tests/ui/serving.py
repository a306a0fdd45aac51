"""The app served in the test process on a free localhost port."""
import socket
import time

import httpx

from playground.ui import launch_kwargs

FIRST_PAGE_WAIT_S = 60        # the first page is built and compressed once; a loaded test machine is slow at it


def serve(demo):
    """Launch `demo` in this process on a free localhost port; yield its URL once it answers with
    its page, then close it.

    Gradio's own reachability probe after launch gives the first page 3 s and then refuses to
    start, which a test process at low priority beside the browser tests can miss; the probe is
    skipped and the page waited for here instead."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True,
                _frontend=False, **launch_kwargs())
    url = f"http://127.0.0.1:{port}/"
    wait_for_page(url)
    yield url
    demo.close()


def wait_for_page(url: str, seconds: float = FIRST_PAGE_WAIT_S) -> None:
    """Return once `url` answers 200, or raise after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.head(url, timeout=seconds).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer with its page within {seconds} s")
        time.sleep(0.2)
