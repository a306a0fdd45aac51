"""The pages' first script (page/idle_frames.py, then page/discarded_draws.py) is written at the top of
their <head>, before Gradio's own scripts, in the app's page (sent plain or compressed and kept) and
the class room's; nothing else is changed."""
import anyio
import httpx
import pytest

from playground.ui import create_app
from playground.ui.header.room_page import BOARD_PATH, STUDENT_PATH
from playground.ui.page.discarded_draws import SKIP_DISCARDED_DRAWS_SCRIPT
from playground.ui.page.idle_frames import FRAMES_SCRIPT
from playground.ui.server.first_script import FirstScript, with_first_script

from .asgi_calls import sent_for
from .serving import serve

SCRIPT = "window.first = 1;"


@pytest.fixture(scope="module")
def server(pretrained_dir):
    yield from serve(create_app(pretrained_dir))


def test_the_served_page_runs_its_first_scripts_before_gradios_scripts(server):
    with httpx.Client(timeout=30, headers={"accept-encoding": "identity"}) as plain_client:
        plain = plain_client.get(server).content
    with httpx.Client(timeout=30, headers={"accept-encoding": "br"}) as client:
        kept = client.get(server)
    assert kept.headers["content-encoding"] == "br"
    rooms = [httpx.get(server + path, timeout=30).content for path in (STUDENT_PATH, BOARD_PATH)]
    for page in (plain, kept.content, *rooms):                # httpx decompresses
        head = page.index(b"<head>") + len(b"<head>")
        assert page[head:].startswith(f"<script>{FRAMES_SCRIPT}{SKIP_DISCARDED_DRAWS_SCRIPT}</script>".encode())
        for script in (FRAMES_SCRIPT, SKIP_DISCARDED_DRAWS_SCRIPT):
            assert page.count(script.encode()) == 1
            assert page.index(script.encode()) < page.index(b'<script type="module"')


def sent_by(inner, path: str = "/", pages: tuple[str, ...] = ("/",)) -> list[dict]:
    """The messages FirstScript(inner, pages=pages) sends for a GET of `path`."""
    scope = {"type": "http", "method": "GET", "path": path, "headers": []}
    return anyio.run(sent_for, FirstScript(inner, script=SCRIPT, pages=pages), scope)


def answering(status: int, content_type: bytes, *chunks: bytes, encoding: bytes | None = None):
    async def inner(scope, receive, send):
        headers = [(b"content-type", content_type), (b"content-length", str(sum(map(len, chunks))).encode())]
        headers += [(b"content-encoding", encoding)] if encoding else []
        await send({"type": "http.response.start", "status": status, "headers": headers})
        for index, chunk in enumerate(chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": index < len(chunks) - 1})
    return inner


def test_a_page_sent_in_pieces_gets_the_script_once_and_its_length_follows():
    sent = sent_by(answering(200, b"text/html; charset=utf-8", b"<html><he", b"ad><title>t</title></head></html>"))
    body = b"".join(message.get("body", b"") for message in sent[1:])
    assert body == f"<html><head><script>{SCRIPT}</script><title>t</title></head></html>".encode()
    assert dict(sent[0]["headers"])[b"content-length"] == str(len(body)).encode()
    assert sent[0]["status"] == 200


def test_each_page_named_gets_the_script_with_or_without_a_trailing_slash():
    for path in ("/", "/room", "/room/"):
        sent = sent_by(answering(200, b"text/html", b"<head></head>"), path, pages=("/", "/room"))
        assert sent[1]["body"] == f"<head><script>{SCRIPT}</script></head>".encode(), path


def test_anything_but_the_plain_page_passes_as_it_came():
    cases = {"a 404": (answering(404, b"text/html", b"<head>missing</head>"), "/"),
             "a script": (answering(200, b"text/javascript", b"<head>"), "/"),
             "a compressed page": (answering(200, b"text/html", b"<head>", encoding=b"br"), "/"),
             "another path": (answering(200, b"text/html", b"<head></head>"), "/other")}
    for case, (inner, path) in cases.items():
        sent = sent_by(inner, path)
        assert b"".join(message.get("body", b"") for message in sent[1:]).count(SCRIPT.encode()) == 0, case
        assert dict(sent[0]["headers"])[b"content-length"] == str(len(sent[1]["body"])).encode(), case


def test_a_page_without_a_head_is_left_as_it_is():
    assert with_first_script(b"<html><p>no head</p></html>", b"<script></script>") == b"<html><p>no head</p></html>"
