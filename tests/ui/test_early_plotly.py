"""The app's page asks for Gradio's own Plotly chunk while it starts (page/early_plotly.py): the chunk
the Plot component imports, named in the page's first scripts; nothing when Gradio's build has no
single such chunk."""
import httpx
import pytest

from playground.ui import create_app
from playground.ui.header.room_page import BOARD_PATH, STUDENT_PATH
from playground.ui.page.early_plotly import ASSETS, LOAD_FUNCTION, early_plotly_script, plotly_chunk
from playground.ui.page.idle_frames import FRAMES_SCRIPT

from .serving import serve


@pytest.fixture(scope="module")
def server(pretrained_dir):
    yield from serve(create_app(pretrained_dir))


def test_the_chunk_is_the_one_gradios_plot_component_imports():
    chunk = plotly_chunk()
    assert chunk is not None and (ASSETS / chunk).is_file()
    plot_components = list(ASSETS.glob("Plot-*.js"))
    assert plot_components and any(f'"./{chunk}"' in path.read_text() for path in plot_components)


def test_a_build_without_one_plotly_chunk_gets_no_script(tmp_path):
    assert plotly_chunk(tmp_path) is None
    for name in ("PlotlyPlot-a.js", "PlotlyPlot-b.js"):
        (tmp_path / name).write_text("")
    assert plotly_chunk(tmp_path) is None
    assert early_plotly_script(None) == ""


def test_the_script_loads_the_chunk_from_the_pages_assets():
    script = early_plotly_script("PlotlyPlot-abc.js")
    assert '"assets/PlotlyPlot-abc.js"' in script and "document.baseURI" in script
    assert "modulepreload" in script and f"window.{LOAD_FUNCTION}" in script


def test_the_app_page_alone_carries_the_script_after_the_frames_script(server):
    page = httpx.get(server, timeout=30).text
    script = early_plotly_script(plotly_chunk())
    assert page.count(script) == 1
    assert page.index(FRAMES_SCRIPT) < page.index(script) < page.index('<script type="module"')
    for path in (STUDENT_PATH, BOARD_PATH):
        assert script not in httpx.get(server + path, timeout=30).text, path
