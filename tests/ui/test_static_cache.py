"""Gradio's hashed scripts and styles, and the page at each address, are compressed once and
kept; the scripts and styles are also kept by the browser, the page is not."""
import gzip
import random
import re

import anyio
import brotli
import httpx
import pytest

from playground.ui import create_app
from playground.ui.server.static_cache import HASHED_FILE, KeptResponses, accepted_encoding, kept_for

from .asgi_calls import sent_for
from .serving import serve


@pytest.fixture(scope="module")
def server(pretrained_dir):
    yield from serve(create_app(pretrained_dir))


def page_files(server) -> list[str]:
    page = httpx.get(server, timeout=30)
    assert "cache-control" not in page.headers                            # the page itself is asked for each time
    return re.findall(r'(?:src|href)="\./(assets/[^"]+\.(?:js|css))"', page.text)


def test_the_pages_hashed_files_are_kept_for_a_year(server):
    names = page_files(server)
    assert names and all(HASHED_FILE.search("/" + name) for name in names)
    for name in names:
        response = httpx.get(server + name, timeout=30)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize("encoding, decode", [("br", brotli.decompress), ("gzip", gzip.decompress)])
def test_a_hashed_file_is_sent_compressed_the_same_each_time(server, encoding, decode):
    name = max(page_files(server), key=len)
    with httpx.Client(timeout=30, headers={"accept-encoding": "identity"}) as plain_client:
        plain = plain_client.get(server + name)
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    with httpx.Client(timeout=30, headers={"accept-encoding": encoding}) as client:
        first, again = (client.stream("GET", server + name) for _ in range(2))
        sent = []
        for stream in (first, again):
            with stream as response:
                assert response.status_code == 200
                assert response.headers["content-encoding"] == encoding
                assert response.headers["vary"] == "Accept-Encoding"
                assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
                assert response.headers["content-type"] == plain.headers["content-type"]
                raw = b"".join(response.iter_raw())
                assert int(response.headers["content-length"]) == len(raw)
                sent.append(raw)
    assert sent[0] == sent[1]                                            # the kept bytes, sent again
    assert decode(sent[0]) == plain.content
    assert len(sent[0]) < len(plain.content)


def test_a_missing_or_unhashed_file_is_not_kept(server):
    for encoding in ("br", "identity"):
        missing = httpx.get(server + "assets/nothing-ABCDEFGH.js", headers={"accept-encoding": encoding}, timeout=30)
        assert missing.status_code == 404 and "cache-control" not in missing.headers
    assert not HASHED_FILE.search("/assets/theme.css")
    assert not HASHED_FILE.search("/static/fonts/Montserrat-Regular.woff2")


def test_the_encoding_follows_what_the_browser_accepts():
    assert accepted_encoding("gzip, deflate, br, zstd") == "br"
    assert accepted_encoding("gzip;q=1.0, deflate") == "gzip"
    assert accepted_encoding("identity") is None
    assert accepted_encoding("") is None


def test_kept_files_stay_within_their_byte_budget():
    anyio.run(files_kept_within_budget)


async def files_kept_within_budget():
    body = random.Random(0).randbytes(100_000)                           # 100 KB that does not compress

    async def file_app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/javascript")]})
        await send({"type": "http.response.body", "body": body})

    middleware = KeptResponses(file_app, max_bytes=250_000)
    for number in range(5):
        assert await asked(middleware, f"/assets/chunk{number}-ABCDEFGH.js") == body
    assert len(middleware.kept) == 2 and middleware.kept.bytes <= 250_000


async def asked(middleware, path: str, query: bytes = b"", headers: tuple = ()) -> bytes:
    """The body `middleware` sends for a GET of `path` that accepts brotli, decompressed."""
    scope = {"type": "http", "method": "GET", "path": path, "query_string": query,
             "headers": [(b"accept-encoding", b"br"), *headers]}
    sent = await sent_for(middleware, scope)
    compressed = (b"content-encoding", b"br") in sent[0]["headers"]
    return brotli.decompress(sent[1]["body"]) if compressed else sent[1]["body"]


def test_the_page_is_kept_per_address_and_asked_for_each_time(server):
    with httpx.Client(timeout=30, headers={"accept-encoding": "identity"}) as plain_client:
        plain = plain_client.get(server + "?view=attention&layer=1")
    with httpx.Client(timeout=30, headers={"accept-encoding": "br"}) as client:
        sent = []
        for query in ("", "?view=attention&layer=1"):
            with client.stream("GET", server + query) as response:
                assert response.status_code == 200 and response.headers["content-encoding"] == "br"
                assert "cache-control" not in response.headers                    # the browser asks again
                sent.append(b"".join(response.iter_raw()))
        with client.stream("GET", server, headers={"x-forwarded-host": "class.example.org"}) as response:
            elsewhere = brotli.decompress(b"".join(response.iter_raw())).decode()
    assert sent[0] == sent[1]                                   # the view's parameters are read by the page
    page = brotli.decompress(sent[0]).decode()
    assert page == plain.text and "window.gradio_config" in page
    assert "class.example.org" in elsewhere and "class.example.org" not in page


def test_what_is_kept():
    assert kept_for({"path": "/assets/index-DphvyggB.js", "query_string": b""}) == "file"
    assert kept_for({"path": "/", "query_string": b"view=attention&lang=zh-CN"}) == "page"
    for query in (b"page=x", b"deep_link=abc", b"all_endpoints=True"):      # read by Gradio on the server
        assert kept_for({"path": "/", "query_string": query}) is None
    assert kept_for({"path": "/gradio_api/info", "query_string": b""}) is None


def test_the_page_is_built_once_per_address():
    anyio.run(pages_built_once)


async def pages_built_once():
    built = []

    async def page_app(scope, receive, send):
        headers = dict(scope["headers"])
        built.append(scope["path"])
        body = f"<html>{headers.get(b'host', b'').decode()} {headers.get(b'x-forwarded-host', b'').decode()}</html>"
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
        await send({"type": "http.response.body", "body": body.encode() * 50})

    middleware = KeptResponses(page_app)

    async def get(query=b"", **headers):
        sent_headers = ((b"host", b"127.0.0.1:7860"),
                        *((k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()))
        return (await asked(middleware, "/", query, sent_headers)).decode()

    first = await get(b"view=attention")
    assert await get(b"view=generate&steps=3") == first and len(built) == 1
    proxied = await get(x_forwarded_host="class.example.org")
    assert "class.example.org" in proxied and len(built) == 2
    await get(x_forwarded_host="class.example.org")
    assert len(built) == 2
    await get(b"page=other")
    await get(b"page=other")
    assert len(built) == 4                                    # a query Gradio reads is never answered from the cache
