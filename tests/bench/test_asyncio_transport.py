"""The load generator's transport: httpx requests over asyncio's streams, with keep-alive, and a
connection the server closed is not reused."""
import asyncio
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from playground.bench.asyncio_transport import AsyncioTransport


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    closes = ""                                      # "", "says so" (Connection: close) or "silently"

    def do_GET(self):
        self.server.connections.add(self.client_address)         # before the reply, which ends the client's wait
        body = (self.path * 1000).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        if self.closes == "says so":
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        if self.closes == "silently":
            self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture(params=["", "says so", "silently"], ids=["keep-alive", "closes-saying-so", "closes-silently"])
def server(request):
    handler = type("ClosingHandler", (Handler,), {"closes": request.param})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.connections = set()
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd, request.param
    httpd.shutdown()
    httpd.server_close()


def test_requests_and_streams_arrive_whole_and_connections_are_reused_unless_closed(server):
    httpd, closes = server
    url = f"http://127.0.0.1:{httpd.server_address[1]}"

    async def calls():
        async with httpx.AsyncClient(transport=AsyncioTransport()) as client:
            bodies = []
            for i in range(3):
                bodies.append((await client.get(f"{url}/plain{i}")).text)
                await asyncio.sleep(0.05)                          # a silent close reaches the client
            async with client.stream("GET", f"{url}/streamed") as response:
                streamed = b"".join([chunk async for chunk in response.aiter_bytes()])
            return bodies, streamed

    bodies, streamed = asyncio.run(calls())
    assert bodies == [f"/plain{i}" * 1000 for i in range(3)]
    assert streamed == b"/streamed" * 1000
    assert len(httpd.connections) == (4 if closes else 1)            # a closed connection is never reused


def test_a_refused_connection_is_httpx_connect_error():
    async def call():
        async with httpx.AsyncClient(transport=AsyncioTransport()) as client:
            await client.get("http://127.0.0.1:9/")                    # the discard port: nothing listens

    with pytest.raises(httpx.ConnectError):
        asyncio.run(call())
