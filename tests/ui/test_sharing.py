"""The address a view is shared by: on a Space its huggingface.co page (where the visitor's sign-in
reaches the app), locally its own address, with a QR code of 127.0.0.1 saying no phone opens it."""
import pytest

from playground.ui.page import qr, sharing

LOCAL = "http://127.0.0.1:7860/?view=attention&lang=en"


@pytest.mark.parametrize("space_id, page", [
    ("teacher/playground-demo", "https://huggingface.co/spaces/teacher/playground-demo"),
    ("", None),
    ("teacher/demo/../../x", None),
    ("<script>/x", None),
])
def test_a_space_shares_its_huggingface_co_page(monkeypatch, space_id, page):
    monkeypatch.setenv("SPACE_ID", space_id)
    assert sharing.space_page() == page
    js = sharing.share_js("const address = SHARED_ADDRESS();")
    assert "SHARED_ADDRESS()" not in js and (f'"{page}"' if page else '("")') in js


@pytest.mark.parametrize("address, loopback", [
    (LOCAL, True), ("http://localhost:7860/", True), ("http://[::1]:7860/", True), ("http://127.1.2.3/", True),
    ("http://192.168.1.20:7860/", False), ("https://huggingface.co/spaces/a/b?view=x", False),
])
def test_loopback_addresses_are_this_computers_only(address, loopback):
    assert sharing.is_loopback(address) == loopback


def test_a_local_qr_code_says_no_phone_opens_it(monkeypatch):
    monkeypatch.delenv("GRADIO_SERVER_NAME", raising=False)
    panel, status = qr.drawn(qr.aimed_at(f"view=attention\n{LOCAL}"), "en")
    assert status == "" and panel.visible and "no phone" in panel.value and LOCAL.replace("&", "&amp;") in panel.value
    panel, _ = qr.drawn(qr.aimed_at(f"view=attention\n{LOCAL}"), "zh-CN")
    assert "手机" in panel.value and "GRADIO_SERVER_NAME=0.0.0.0" in panel.value


def test_a_server_on_the_network_gets_the_code_of_the_machines_network_address(monkeypatch):
    monkeypatch.setenv("GRADIO_SERVER_NAME", "0.0.0.0")
    monkeypatch.setattr(sharing, "machine_ip", lambda: "192.168.1.20")
    shared = "http://192.168.1.20:7860/?view=attention&lang=en"
    assert sharing.network_address(LOCAL) == shared
    panel, status = qr.drawn(qr.aimed_at(f"view=attention\n{LOCAL}"), "en")
    assert status == "" and panel.value == qr.panel_html(shared, "en", qr.text("en", "qr_network_address"))
    assert "phones on the same network" in panel.value
    monkeypatch.setenv("GRADIO_SERVER_NAME", "127.0.0.1")
    assert sharing.network_address(LOCAL) is None


def test_an_address_that_is_not_local_is_drawn_as_it_is(monkeypatch):
    address = "https://huggingface.co/spaces/teacher/playground-demo?view=attention"
    panel, status = qr.drawn(qr.aimed_at(f"view=attention\n{address}"), "en")
    assert status == "" and panel.value == qr.panel_html(address, "en")
