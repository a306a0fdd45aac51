"""Gradio's hashed scripts and styles are kept by the browser; the page and other files are not."""
import re

import httpx
import pytest

from playground.ui import create_app
from playground.ui.static_cache import HASHED_FILE

from .serving import serve


@pytest.fixture(scope="module")
def server(pretrained_dir):
    yield from serve(create_app(pretrained_dir))


def test_the_pages_hashed_files_are_kept_for_a_year(server):
    page = httpx.get(server, timeout=30)
    assert "cache-control" not in page.headers                            # the page itself is asked for each time
    names = re.findall(r'(?:src|href)="\./(assets/[^"]+\.(?:js|css))"', page.text)
    assert names and all(HASHED_FILE.search("/" + name) for name in names)
    for name in names:
        response = httpx.get(server + name, timeout=30)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_a_missing_or_unhashed_file_is_not_kept(server):
    missing = httpx.get(server + "assets/nothing-ABCDEFGH.js", timeout=30)
    assert missing.status_code == 404 and "cache-control" not in missing.headers
    assert not HASHED_FILE.search("/assets/theme.css")
    assert not HASHED_FILE.search("/static/fonts/Montserrat-Regular.woff2")
