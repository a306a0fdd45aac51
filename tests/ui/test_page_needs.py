"""Each tab declares what the page needs from it (tabs/<tab>/page_needs.py), the page collects the
declarations through one registry (playground.ui.tabs) and knows no tab by name: the parts `hide=`
hides, presenter mode's figure, folded controls and layout, the figure a link scrolls to."""
import ast
import re
from pathlib import Path

import gradio as gr
import pytest

from playground.ui import app
from playground.ui.page import hiding, present
from playground.ui.page.links import parse_link
from playground.ui.page.page_needs import PageNeeds
from playground.ui.tabs import PAGE_NEEDS, TABS, tab_row

UI = Path(app.__file__).parent
TOKEN = re.compile(r"[A-Za-z0-9_-]+")
# The modules of page/ that read the tabs' declarations: none may import a tab.
READERS = ("hiding", "present", "phone", "accessibility", "page_needs", "page_script", "links", "context")


def ids_by_tab(demo) -> dict[str, set[str]]:
    """view -> the elem_ids of the blocks inside its tab panel."""
    panels = {block._id: block.elem_id.removeprefix("tab-") for block in demo.blocks.values()
              if isinstance(block, gr.Tab) and (block.elem_id or "").startswith("tab-")}
    ids = {view: set() for view in panels.values()}
    for block in demo.blocks.values():
        parent = block.parent
        while parent is not None and parent._id not in panels:
            parent = parent.parent
        if parent is not None and block.elem_id:
            ids[panels[parent._id]].add(block.elem_id)
    return ids


def selector_ids(selectors) -> tuple[set[str], set[str]]:
    """(the ids a CSS selector names, the id prefixes it names with [id^='...'])."""
    text = " ".join(selectors)
    return set(re.findall(r"#([a-z0-9-]+)", text)), set(re.findall(r"\[id\^='([a-z0-9-]+)'\]", text))


def test_the_registry_covers_every_tab_package_in_the_tab_rows_order(demo):
    packages = sorted(path.parent.name for path in (UI / "tabs").glob("*/__init__.py")
                      if "def build(" in path.read_text(encoding="utf-8"))
    assert sorted(view for view, _ in TABS) == packages
    assert list(PAGE_NEEDS) == [view for view, _ in TABS]
    assert all(needs.view == view for view, needs in PAGE_NEEDS.items())
    assert app.TABS is TABS                                          # the page builds the tabs the registry lists
    assert set(ids_by_tab(demo)) == set(PAGE_NEEDS)


def test_each_tab_declares_blocks_of_its_own_panel(demo):
    """The parts, figure and presenter-hidden blocks a tab declares are its own: a renamed or moved block
    breaks this."""
    ids = ids_by_tab(demo)
    for view, needs in PAGE_NEEDS.items():
        own = ids[view]
        assert needs.figure in own, (view, needs.figure)
        for name, selectors in {**needs.parts, "presenter": needs.presenter_hides}.items():
            named, prefixes = selector_ids(selectors)
            assert named or prefixes or name in ("controls", "explanation", "presenter"), (view, name)
            assert named <= own, (view, name, named - own)
            assert all(any(i.startswith(prefix) for i in own) for prefix in prefixes), (view, name)
    labs = PAGE_NEEDS["labs"]
    assert labs.open_controls and f"{labs.view}-controls" in ids["labs"]     # Labs' text says to press Run lab there


def test_page_sources_name_no_tab_element_id(demo):
    """A tab's element ids live in its own package: page/ knows them only from the declarations."""
    tab_sources = " ".join(path.read_text(encoding="utf-8") for folder in ("tabs", "views")
                           for path in (UI / folder).rglob("*.py"))
    written_by_tabs = set(TOKEN.findall(tab_sources))                # ids the page makes (f"{view}-note") are not
    tab_ids = {i for ids in ids_by_tab(demo).values() for i in ids if i in written_by_tabs}
    assert {"attention-head-plot", "generate-examples", "lesson-picker", "labs-card"} <= tab_ids
    for path in sorted((UI / "page").glob("*.py")):
        named = tab_ids & set(TOKEN.findall(path.read_text(encoding="utf-8")))
        assert not named, (path.name, sorted(named))


def test_the_page_modules_that_read_declarations_import_no_tab():
    for name in READERS:
        tree = ast.parse((UI / "page" / f"{name}.py").read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        assert not [module for module in imported if "tabs" in module.split(".")], (name, imported)


def test_a_new_tab_needs_only_its_declaration_for_hiding_presenting_and_scrolling(registry):
    """A tab the page has never heard of: its declaration alone gives its parts, presenter layout and scroll."""
    quiz = PageNeeds(view="quiz", place=100, figure="quiz-plot", parts={**hiding.CONTROLS, "answers": ("#quiz-answers",)},
                     scrolls_to_figure=True, presenter_hides=("#quiz-hints",),
                     presenter_css="body.present #tab-quiz #quiz-plot { width: 100%; }\n")
    tabs = (*PAGE_NEEDS.values(), quiz)
    css = hiding.hiding_css(tabs)
    assert "body.hide-answers #tab-quiz #quiz-answers" in css and "body.hide-controls #tab-quiz [id$='-controls']" in css
    assert "body.hide-scores #tab-attention .row:has(#attention-scores)" in css
    assert "body.hide-own_model #own-model-panel" in css                     # the page's own parts
    presenting = present.present_css(tabs)
    assert "body.present #tab-quiz #quiz-hints" in presenting and quiz.presenter_css in presenting
    assert f"{present.PRESENT_FONT_PX}px" in presenting
    assert '"quiz": "quiz-plot"' in present.scroll_to_named_js(tabs)
    assert '"train"' not in present.scroll_to_named_js(tabs)                 # a link to Train opens at its controls
    page = parse_link("?view=quiz&hide=answers,scores,tabs", ("attention", "quiz"), {}, registry,
                      {**PAGE_NEEDS, "quiz": quiz})
    assert page.hide == ("answers", "tabs") and [error.fields["value"] for error in page.ignored] == ["scores"]


def test_a_tabs_shared_caches_count_in_the_servers_memory_budget(monkeypatch):
    from playground.ui import budget
    from playground.ui.views.attention_passes import DEFAULT_MAX_BYTES

    assert budget.budget(30)["pass cache"] == DEFAULT_MAX_BYTES                  # the Attention tab's, from its declaration
    quiz = PageNeeds(view="quiz", place=100, figure="quiz-plot", parts={}, caches={"quiz answers": 7 * 2**20})
    monkeypatch.setattr(budget, "PAGE_NEEDS", {**PAGE_NEEDS, "quiz": quiz})
    assert budget.budget(30)["quiz answers"] == 7 * 2**20


@pytest.mark.parametrize("name", ["own_model", "Scores", "heads-off", ""])
def test_a_part_name_a_link_cannot_carry_or_the_page_has_is_refused(name):
    with pytest.raises(ValueError, match="quiz"):
        PageNeeds(view="quiz", place=100, figure="quiz-plot", parts={name: ("#quiz-answers",)})


def write_tab(folder: Path, view: str, place: int, declared_view: str | None = None) -> None:
    """A tiny tab package: a build and a page_needs.py (what the tab row reads of it)."""
    (folder / view).mkdir(parents=True)
    (folder / view / "__init__.py").write_text("def build(ctx):\n    pass\n")
    (folder / view / "page_needs.py").write_text(
        "from playground.ui.page.page_needs import PageNeeds\n"
        f"NEEDS = PageNeeds(view={declared_view or view!r}, place={place}, figure='{view}-plot', parts={{}})\n")


def test_the_tab_row_is_every_package_that_declares_its_page_needs_in_its_place(tmp_path, monkeypatch):
    # A tab added is its own folder: the row finds it and places it, and names no tab itself.
    row = tmp_path / "tiny_tab_row"
    row.mkdir()
    (row / "__init__.py").write_text("")
    write_tab(row, "second", 20)
    write_tab(row, "first", 10)
    (row / "helpers").mkdir()                                   # a package without page_needs.py: not a tab
    (row / "helpers" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    tabs = tab_row("tiny_tab_row", [str(row)])
    assert [view for view, _ in tabs] == ["first", "second"]
    assert all(module.__name__ == f"tiny_tab_row.{view}" and callable(module.build) for view, module in tabs)
    write_tab(row, "third", 10)
    with pytest.raises(ValueError, match="same place"):
        tab_row("tiny_tab_row", [str(row)])


def test_a_tab_declares_its_own_package_as_its_view(tmp_path, monkeypatch):
    row = tmp_path / "tiny_misnamed_row"
    row.mkdir()
    (row / "__init__.py").write_text("")
    write_tab(row, "first", 10, declared_view="other")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="its package's name"):
        tab_row("tiny_misnamed_row", [str(row)])


def test_the_apps_tabs_stand_in_their_declared_places():
    places = [PAGE_NEEDS[view].place for view, _ in TABS]
    assert places == sorted(places) and TABS[0][0] == "lessons"           # the page's default view comes first
