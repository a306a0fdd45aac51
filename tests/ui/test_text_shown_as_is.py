"""Text from users, links and files is shown as it is: a bidirectional control cannot reorder the
app's own sentence around it, and a link too long to read gets the app's own message, not a server
error."""
import socket
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from playground.ui.page.forms import encode_query
from playground.ui.server.link_size import MAX_LINK_BYTES, LinkSize
from playground.ui.page.links import note_text, parse_link
from playground.ui.tabs import attention
from playground.ui.views.generate import output_spans
from playground.ui.text.markup import BIDI_CONTROLS, literal
from playground.viz.labels import plotly_text, visible_token

CONTROLS = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]


@pytest.mark.parametrize("control", CONTROLS)
def test_each_bidirectional_control_is_shown_as_its_code_point(control):
    for shown in (literal(f"kind={control}redoced"), plotly_text(f"a{control}b"), visible_token(control)):
        assert control not in shown and f"U+{ord(control):04X}" in shown


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_an_override_in_a_link_cannot_reverse_the_note_about_it(registry, lang):
    page = parse_link("?" + encode_query({"view": "attention", "kind": "\u202eredoced"}), ("attention",),
                      {"attention": attention.AttentionForm}, registry)
    note = note_text(page.ignored, lang)
    assert page.ignored and not BIDI_CONTROLS.search(note) and "U+202E&gt;redoced" in note


def test_a_token_with_an_override_cannot_reverse_the_generated_text_after_it():
    stepper = SimpleNamespace(source_tokens=None, tokens=["a", "\u202eb", "c", "\u2067d"], prompt_length=1)
    spans = output_spans(SimpleNamespace(stepper=stepper), "en")
    assert [piece for piece, _ in spans] == ["a", "<U+202E>b", "c", "<U+2067>d"]


def served() -> TestClient:
    async def page(request):
        return PlainTextResponse("the page")
    app = Starlette(routes=[Route("/", page)])
    app.add_middleware(LinkSize)
    return TestClient(app)


@pytest.mark.parametrize("lang, says", [("en-US,en;q=0.9", "KB long"), ("zh-CN,zh;q=0.9", "链接长")])
def test_an_overlong_link_gets_the_apps_own_message_in_the_browsers_language(lang, says):
    client = served()
    assert client.get("/?view=attention&text=" + "a" * 1000).text == "the page"
    refused = client.get("/?view=attention&text=" + "a" * (MAX_LINK_BYTES + 1), headers={"accept-language": lang})
    assert refused.status_code == 414 and says in refused.text and 'href="/"' in refused.text
    assert client.get("/?text=" + "a" * (MAX_LINK_BYTES - 10)).status_code == 200


def test_the_served_app_answers_a_64_kib_link_with_its_message_not_a_server_error(served):
    host, port = served.url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:   # httpx cannot send it
        connection.sendall(f"GET /?view=attention&text={'a' * 64 * 1024} HTTP/1.1\r\nHost: {host}\r\n"
                           "Accept-Language: en\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 414") and b"KB long" in reply and b"Traceback" not in reply
