"""The app's folders depend one way: no import loop between the folders of playground/ui (through any
number of folders, imports inside functions included), each imports only the folders below it in
README's order, and nothing below playground/ui imports it.

Read from the source with ast, so a loop is found whether or not the import runs."""
import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "playground" / "ui"
ON_TOP = {"ui", "bench"}          # playground/ui itself, and the benches that drive the app
# The folders from the ground up, as README lists them: each imports only those before it.
LAYERS = ("text", "course", "inputs", "session", "server", "page", "views", "tabs", "header", ("app", "budget"), "ui")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = ROOT) -> set[str]:
    """The modules (or names in them) `path` imports, relative imports resolved: "playground.ui.page.forms"."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)   # `from . import page`
    return found


def ui_folder(module: str) -> str | None:
    """The folder of playground/ui a module is in ("page", "tabs", ...); a module at the top of ui
    (app, budget) is its own; None outside ui."""
    parts = module.split(".")
    if parts[:2] != ["playground", "ui"]:
        return None
    if len(parts) == 2:
        return "ui"
    top = parts[2]
    return top if (UI / top).is_dir() or (UI / f"{top}.py").is_file() else None


def folder_imports(root: Path = UI) -> dict[tuple[str, str], set[str]]:
    """(folder, folder it imports) -> "module -> module" for each import that crosses folders."""
    crossings = defaultdict(set)
    for path in root.rglob("*.py"):
        source = ui_folder(module_name(path))
        for target in imported(path):
            folder = ui_folder(target)
            if folder is not None and folder != source:
                crossings[source, folder].add(f"{module_name(path)} -> {target}")
    return crossings


def loops(edges) -> list[list[str]]:
    """The groups of folders that import each other, directly or through others (Tarjan's components)."""
    graph = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_folders_of_the_ui_import_one_way():
    crossings = folder_imports()
    assert {("tabs", "page"), ("page", "session"), ("app", "tabs")} <= set(crossings)   # the walk sees imports
    found = loops(crossings)
    why = [line for group in found for (source, target), lines in sorted(crossings.items())
           if source in group and target in group for line in sorted(lines)]
    assert found == [], "folders that import each other:\n" + "\n".join(why)


def test_each_folder_imports_only_those_below_it():
    rank = {name: level for level, layer in enumerate(LAYERS) for name in ((layer,) if isinstance(layer, str) else layer)}
    folders = {path.name for path in UI.iterdir() if path.is_dir() and (path / "__init__.py").exists()}
    assert folders | {path.stem for path in UI.glob("*.py") if path.stem != "__init__"} <= set(rank), "a folder not in LAYERS"
    upward = sorted(line for (source, target), lines in folder_imports().items() if rank[target] >= rank[source]
                    for line in lines)
    assert upward == []


def test_a_tab_imports_no_other_tab_but_the_lessons_live_runs():
    """Views two tabs share live in views/; a lesson runs a lab or a training live through those tabs' own code."""
    allowed = {("lessons", "labs"), ("lessons", "train")}
    crossings = set()
    for path in (UI / "tabs").rglob("*.py"):
        parts = module_name(path).split(".")
        if len(parts) < 4:
            continue                                       # tabs/__init__.py: the tab row lists every tab
        for target in imported(path):
            other = target.split(".")
            if other[:3] == ["playground", "ui", "tabs"] and len(other) > 3 and other[3] != parts[3]:
                crossings.add((parts[3], other[3]))
    assert ("lessons", "labs") in crossings              # the walk sees a tab importing another
    assert crossings <= allowed, crossings - allowed


def test_nothing_below_the_ui_imports_it():
    below = [path for path in (ROOT / "playground").rglob("*.py")
             if path.relative_to(ROOT / "playground").parts[0] not in ON_TOP]
    assert any(path.name == "attention.py" for path in below)
    upward = sorted(f"{module_name(path)} -> {target}" for path in below for target in imported(path)
                    if target == "playground.ui" or target.startswith("playground.ui."))
    assert upward == []


def test_the_check_finds_a_loop_through_three_folders():
    edges = {("page", "session"), ("session", "views"), ("views", "page"), ("tabs", "page")}
    assert loops(edges) == [["page", "session", "views"]]
    assert loops(edges - {("views", "page")}) == []


def test_relative_imports_are_read_as_the_modules_they_name(tmp_path):
    package = tmp_path / "playground" / "ui" / "tabs" / "train"
    package.mkdir(parents=True)
    source = package / "handlers.py"
    source.write_text("from ...page.forms import Form\nfrom ... import session\n\ndef f():\n    from .. import lessons\n")
    found = imported(source, root=tmp_path)
    assert {"playground.ui.page.forms", "playground.ui.session", "playground.ui.tabs.lessons"} <= found
