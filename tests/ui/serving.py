"""The app served in the test process on a free localhost port."""
import socket

from playground.ui import launch_kwargs


def serve(demo):
    """Launch `demo` in this process on a free localhost port; yield its URL, then close it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True, **launch_kwargs())
    yield f"http://127.0.0.1:{port}/"
    demo.close()
