"""The fairness bench's newcomers open the page as a fresh browser does: the draw of the first tab
with the page's language, no query and nothing kept; the app then holds their session in English."""
import asyncio

import httpx

from playground.bench import load
from playground.bench.fairness import page_opening


def test_the_bench_opens_the_page_as_a_fresh_browser_does(served):
    app, url = served.app, served.url
    fn_index, data = page_opening(url)
    redraw = next(block for block in app.blocks.values() if getattr(block, "elem_id", None) == "lessons-redraw")
    assert (redraw._id, "click") in app.fns[fn_index].targets
    assert data == ["en", "", {}, {}]

    async def open_once() -> tuple[load.CallResult, str]:
        async with httpx.AsyncClient(timeout=60) as client:
            session = load.Session(client, await load.connect(client, url))
            return await session.call_index(fn_index, data, "opening"), session.hash

    opened, session = asyncio.run(open_once())
    assert opened.ok, opened.error
    workspace = app.workspaces.find(session)
    assert workspace is not None and workspace.language == "en"
