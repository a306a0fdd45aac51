"""A stand-in for Hugging Face's ZeroGPU platform around the real `spaces` package, on a machine
without a GPU: used by the platform tests (tests/train/test_zerogpu_platform.py) and the class
bench (playground.bench.zerogpu_class).

What is real: `spaces` itself (its decorator, its client asking the control API over HTTP, the
worker process it forks, the arguments and the result crossing its SimpleQueue pickled by
ForkingPickler, its error texts, its duration factor) and, in the process that imports it, its
blocking of CUDA (torch patched as on a Space). What is faked: the control API (`ControlApi`, an
HTTP server on 127.0.0.1 answering /schedule, /allow and /release as the platform's does, with
the refusals a test asks for) and the GPU: `prepare_spaces` makes the worker skip the CUDA start
and the tensor transfer `spaces` makes there (no CUDA here), and a caller sets the device the
worker trains on (the CPU here).

Environment of a process that imports `spaces` against the fake: `platform_environment(api.url)`.
"""
from __future__ import annotations

import base64
import json
import threading
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

BLACKWELL = "NVIDIA RTX PRO 6000 Blackwell Server Edition"   # spaces/zero/configs.json: duration_factor 1.5
H200 = "NVIDIA H200"                                         # duration_factor 1.0


def platform_environment(api_url: str) -> dict[str, str]:
    """The variables a ZeroGPU Space sets for `spaces`: it is on ZeroGPU, and where its control API is."""
    return {"SPACES_ZERO_GPU": "true", "SPACES_ZERO_DEVICE_API_URL": api_url}


def prepare_spaces(gpu_model: str = H200, worker_start_s: float = 0.0):
    """Import the real `spaces` in this process as on a ZeroGPU Space whose node has `gpu_model`,
    minus what needs a GPU: the worker's CUDA start and its moving of tensors to CUDA are skipped
    (a new worker waits `worker_start_s` instead, as the platform's does for them). Call before
    anything imports `spaces`, with platform_environment() in os.environ."""
    import torch
    if torch.version.cuda is None:             # a CPU build: what `spaces` reads of a CUDA build
        torch.version.cuda = "12.8"
        torch._C._cuda_init = _no_cuda
        torch.cuda._is_in_bad_fork = _not_in_bad_fork    # sent to a process by `spaces`: a named function
    import spaces  # noqa: F401  (patches torch: CUDA is refused in this process from here on)
    from spaces.zero import config, torch as zero_torch
    zero_torch.init = lambda nvidia_uuid: time.sleep(worker_start_s)
    zero_torch.move = lambda callback=None: None
    config._read_gpu_information = lambda: f"Model: {gpu_model}\n"
    config.get_config.cache_clear()
    return spaces


def set_answers(api_url: str, *answers: Answer) -> None:
    """Set a fake control API's answers from another process (see ControlApi)."""
    body = json.dumps([asdict(answer) for answer in answers]).encode()
    urllib.request.urlopen(urllib.request.Request(f"{api_url}/fake/answers", body, method="POST"), timeout=10).read()


def fake_state(api_url: str) -> dict[str, int]:
    """How many /schedule and /release a fake control API has received so far (from another process)."""
    with urllib.request.urlopen(f"{api_url}/fake/state", timeout=10) as answer:
        return json.loads(answer.read())


def _no_cuda():
    raise RuntimeError("this torch has no CUDA")


def _not_in_bad_fork() -> bool:
    return False


def ip_token(**payload) -> str:
    """An X-IP-Token as huggingface.co's Space page sends it (a JWT; only its payload is read)."""
    body = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"header.{body}.signature"


class Headers(dict):
    """Request headers as `spaces` reads them from a Gradio request (a mapping with attributes)."""


@dataclass
class Request:
    """What `spaces` reads of gr.Request: its headers. A page's request carries x-gradio-user: app;
    one from inside the huggingface.co Space page also carries x-ip-token."""

    headers: Headers

    @classmethod
    def page(cls, token: str | None = None) -> "Request":
        headers = Headers({"x-gradio-user": "app"})
        if token is not None:
            headers["x-ip-token"] = token
        return cls(headers)


@dataclass
class Answer:
    """How the fake answers /schedule.

    kind: "approve" (a GPU at once), "queue" (the platform's wait for a GPU: pings, then a GPU),
        "quota" (429: the quota left is below the request), "no_gpu_in_queue" (the queue's wait
        ended without a GPU), "unavailable" (503: no GPU on the node).
    auth: X-Authenticated of the answer (None: not signed in, "regular", "pro").
    left_s / wait_s: a quota refusal's seconds left and time until the quota resets.
    queue_s: how long "queue" waits before its GPU comes.
    allow_status: /allow's status (a worker that cannot start: anything but 200).
    idle: whether the GPU granted is idle, so `spaces` may hand the call to the worker it already
        has for it; False: a new worker is forked (and asks /allow).
    """

    kind: str = "approve"
    auth: str | None = "regular"
    left_s: int = 5
    wait_s: int = 5 * 3600 + 12 * 60
    queue_s: float = 0.0
    allow_status: int = 200
    idle: bool = True


@dataclass
class Schedule:
    """One /schedule the fake received."""

    duration_s: int | None
    token: str | None
    at: float


@dataclass
class ControlApi:
    """The fake ZeroGPU control API on 127.0.0.1 (see the module docstring). The n-th /schedule gets
    answers[n], the last one for every later call. Records every schedule, allow and release, and how
    long each granted GPU was held until its release (what the platform charges to a quota)."""

    answers: list[Answer] = field(default_factory=lambda: [Answer()])
    schedules: list[Schedule] = field(default_factory=list)
    allowed: list[int] = field(default_factory=list)           # worker pids
    released: list[bool] = field(default_factory=list)         # fail flag per release
    held_s: list[float] = field(default_factory=list)          # seconds from grant to release, per released GPU

    def __post_init__(self):
        self._lock = threading.Lock()
        self._tokens = 0
        self._answered = 0                                     # schedules before the answers' latest change
        self._held: dict[str, int] = {}                        # allow token -> GPU index, until released
        self._granted_at: dict[str, float] = {}                # allow token -> when its GPU was granted
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "ControlApi":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self):
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):         # quiet
                pass

            def do_GET(self):
                if urlparse(self.path).path == "/fake/state":     # the fake's own: what it received so far
                    with api._lock:
                        state = {"schedules": len(api.schedules), "released": len(api.released)}
                    self._reply(200, state)
                else:
                    self._reply(404)

            def do_POST(self):
                url = urlparse(self.path)
                query = {name: values[0] for name, values in parse_qs(url.query).items()}
                if url.path == "/schedule":
                    api._schedule(self, query)
                elif url.path == "/allow":
                    with api._lock:
                        api.allowed.append(int(query["pid"]))
                    self._reply(api.answers[min(len(api.schedules) - api._answered, len(api.answers)) - 1].allow_status)
                elif url.path == "/release":
                    with api._lock:
                        api.released.append(query.get("fail") == "true")
                        api._held.pop(query.get("allowToken"), None)
                        granted_at = api._granted_at.pop(query.get("allowToken"), None)
                        if granted_at is not None:
                            api.held_s.append(time.monotonic() - granted_at)
                    self._reply(200)
                elif url.path == "/startup-report":
                    self._reply(200)
                elif url.path == "/fake/answers":     # the fake's own: a driver sets the answers to come
                    body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                    with api._lock:
                        api.answers = [Answer(**answer) for answer in body]
                        api._answered = len(api.schedules)
                    self._reply(200)
                else:
                    self._reply(404)

            def _reply(self, status: int, body: dict | None = None, headers: dict | None = None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def _granted(self, answer: Answer) -> dict:
        """A GPU: the lowest index no call holds (calls at once get GPUs of their own, as on a node)."""
        with self._lock:
            self._tokens += 1
            token = f"allow-{self._tokens}"
            index = min(set(range(len(self._held) + 1)) - set(self._held.values()))
            self._held[token] = index
            self._granted_at[token] = time.monotonic()
        return {"idle": answer.idle, "nvidiaIndex": index, "nvidiaUUID": f"MIG-fake-{index}", "allowToken": token}

    @property
    def answer(self) -> Answer:
        """The answer of the next /schedule."""
        return self.answers[min(len(self.schedules) - self._answered, len(self.answers) - 1)]

    def set_answers(self, *answers: Answer) -> None:
        with self._lock:
            self.answers = list(answers)
            self._answered = len(self.schedules)

    def _schedule(self, handler, query: dict) -> None:
        duration = query.get("durationSeconds")
        with self._lock:
            answer = self.answer
            self.schedules.append(Schedule(int(duration) if duration else None, query.get("token"), time.monotonic()))
        headers = {"X-Authenticated": answer.auth} if answer.auth else {}
        if answer.kind == "approve":
            handler._reply(200, self._granted(answer), {**headers, "X-Approve-Result": "approved"})
        elif answer.kind == "quota":
            handler._reply(429, {"left": answer.left_s, "wait": answer.wait_s},
                           {**headers, "X-Approve-Result": "quota-exceeded"})
        elif answer.kind == "unavailable":
            handler._reply(503)
        elif answer.kind in ("queue", "no_gpu_in_queue"):
            handler.send_response(200)
            handler.send_header("content-type", "text/event-stream")
            for name, value in {**headers, "X-Queuing-Reason": "node"}.items():
                handler.send_header(name, value)
            handler.end_headers()
            self._stream(handler, answer)
        else:
            raise ValueError(f"unknown answer {answer.kind!r}")

    def _stream(self, handler, answer: Answer) -> None:
        """The queue's server-sent events, one per write, as `spaces` reads them: pings, then the end."""
        def send(text: str) -> None:
            handler.wfile.write(text.encode())
            handler.wfile.flush()
            time.sleep(0.05)                       # one event per read on the client's side

        end = time.monotonic() + answer.queue_s
        while time.monotonic() < end:
            send("event: ping\n\n")
            time.sleep(min(1.0, max(0.0, end - time.monotonic())))
        if answer.kind == "queue":
            send(f"event: succeeded\ndata: {json.dumps(self._granted(answer))}\n\n")
        else:
            send("event: failed\n\n")
