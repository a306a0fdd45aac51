"""Every response carries the security headers: images, media, fonts, style sheets and frames from the
app's own origin only, framing by the app (and on a Space by its own page and host) only, no MIME sniffing, no
address sent to other sites. (tests/e2e/test_security_in_browser.py checks the page works under them.)"""
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from playground.ui.app import launch_kwargs
from playground.ui.server.security_headers import FRAME_ANCESTORS_ENV, SecurityHeaders, content_security_policy
from playground.ui.server.static_cache import KeptResponses


def directives(policy: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in policy.split(";"))}


def served(headers: dict | None = None) -> dict:
    async def page(request):
        return PlainTextResponse("page", headers=headers or {})
    app = Starlette(routes=[Route("/", page)])
    app.add_middleware(SecurityHeaders)
    return TestClient(app).get("/").headers


def test_the_policy_keeps_images_frames_and_styles_to_the_apps_origin():
    policy = directives(content_security_policy())
    assert policy["img-src"] == ["'self'", "data:", "blob:"] and policy["media-src"] == ["'self'", "data:", "blob:"]
    assert policy["frame-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"] and policy["font-src"] == ["'self'", "data:"]
    assert policy["frame-ancestors"] == ["'self'"]                          # off a Space: the app itself only
    assert "default-src" not in policy and "script-src" not in policy      # Gradio runs inline and event scripts


def test_every_response_carries_the_headers_and_keeps_its_own():
    headers = served()
    assert directives(headers["content-security-policy"])["img-src"] == ["'self'", "data:", "blob:"]
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "same-origin"
    assert served({"Referrer-Policy": "no-referrer"})["referrer-policy"] == "no-referrer"


def test_a_course_site_can_be_allowed_to_frame_the_app(monkeypatch):
    monkeypatch.setenv(FRAME_ANCESTORS_ENV, "https://moodle.example.edu https://lms.example.org")
    ancestors = directives(served()["content-security-policy"])["frame-ancestors"]
    assert ancestors[-2:] == ["https://moodle.example.edu", "https://lms.example.org"] and "'self'" in ancestors


def test_on_a_space_only_its_own_page_and_host_may_frame_the_app(monkeypatch):
    monkeypatch.setenv("SPACE_ID", "teacher/Transformer_Playground")
    monkeypatch.setenv("SPACE_HOST", "teacher-transformer-playground.hf.space")
    ancestors = directives(served()["content-security-policy"])["frame-ancestors"]
    assert ancestors == ["'self'", "https://huggingface.co", "https://teacher-transformer-playground.hf.space"]
    assert not any("*" in origin for origin in ancestors)                 # no other Space
    monkeypatch.delenv("SPACE_HOST")                                      # the host made from the Space's id
    assert directives(content_security_policy())["frame-ancestors"][-1] == \
        "https://teacher-transformer-playground.hf.space"
    monkeypatch.setenv("SPACE_HOST", "evil.example; script-src *")       # never a second directive
    assert directives(content_security_policy())["frame-ancestors"] == ["'self'", "https://huggingface.co"]


def test_the_app_registers_the_headers_outside_its_response_cache():
    middleware = [m.cls for m in launch_kwargs()["app_kwargs"]["middleware"]]
    assert middleware.index(SecurityHeaders) < middleware.index(KeptResponses)   # a kept page gets them too
