"""The architecture's standing limits, read from the source with `ast`.

- No import cycle among feedtui's modules, counting every import statement:
  at the top, inside a function, under `if TYPE_CHECKING:`. Moving an import
  into a function changes when it runs, not what depends on what.
- No file in src/feedtui over 800 lines but the two that are one cohesive
  thing each; the main screen under 600.
- The front ends (ui/, the CLI, export/) never import the store, and nothing
  outside core/ reaches through the engine to its stores.

A limit that is not true yet, because the work that makes it true is under
way, is marked `xfail(strict=True)`: the test turns red the day it passes,
and its marker is then removed, so the limit holds from that day on.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "feedtui"


# -- Reading the source ------------------------------------------------------


def modules_under(root: Path) -> dict[str, Path]:
    """Every module below `root` (a directory holding top-level packages) by
    its dotted name; a package is its __init__.py, under the package's name."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            found[".".join(parts)] = path
    return found


@dataclass(frozen=True, slots=True)
class Import:
    """One module an import statement runs: `target`, from `line` of the importer."""

    target: str
    line: int


def _ancestors(name: str) -> list[str]:
    """a.b.c -> [a, a.b]"""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> list[Import]:
    """The modules among `modules` that the module `name` (its file `path`)
    imports, statement by statement, wherever the statement is.

    `import a.b.c` and `from a.b.c import x` run a.b.c, and the packages
    a and a.b above it (their __init__) — but not a package the importer is
    itself inside, which Python has run before the importer: a package whose
    __init__ gathers names from its own modules is not a cycle.
    `from a.b import c` runs the module a.b.c when there is one. Relative
    imports are resolved from the importer's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    own = {*_ancestors(name), name}
    found: list[Import] = []

    def add(target: str, line: int) -> None:
        for module in (*_ancestors(target), target):
            if module in modules and module not in own and Import(module, line) not in found:
                found.append(Import(module, line))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: -(node.level - 1)]
                base = ".".join(base_parts)
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            add(source, node.lineno)
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    add(f"{source}.{alias.name}", node.lineno)
    return found


def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """Each module under `root`, with the modules under `root` it imports
    (each with the line of its first import statement)."""
    modules = modules_under(root)
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for found in imports_of(name, path, modules):
            edges.setdefault(found.target, found.line)
        graph[name] = edges
    return graph


def strongly_connected(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through
    others (Tarjan's algorithm, iterative): each group of two or more, or of
    one module importing itself, holds at least one cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []

        def enter(node: str) -> None:
            nonlocal counter
            index[node] = low[node] = counter
            counter += 1
            stack.append(node)
            on_stack.add(node)
            work.append((node, iter(sorted(graph.get(node, {})))))

        enter(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    enter(successor)
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph.get(node, {}):
                        groups.append(sorted(group))
    return groups


def shortest_cycle_through(graph: Mapping[str, Mapping[str, int]], start: str) -> list[str]:
    """The shortest chain of imports from `start` back to it ([] if none)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(graph.get(node, {})):
                if successor == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(came_from[chain[-1]])
                    return [start, *reversed(chain[:-1]), start]
                if successor not in came_from:
                    came_from[successor] = node
                    following.append(successor)
        frontier = following
    return []


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Cycles enough to see every module of every group that import each
    other: the shortest through each module, each cycle once."""
    found: list[list[str]] = []
    seen: set[frozenset[tuple[str, str]]] = set()
    for group in strongly_connected(graph):
        for module in group:
            cycle = shortest_cycle_through(graph, module)
            key = frozenset(zip(cycle, cycle[1:]))
            if cycle and key not in seen:
                seen.add(key)
                found.append(cycle)
    return found


def describe(cycle: list[str], graph: Mapping[str, Mapping[str, int]]) -> str:
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in zip(cycle, cycle[1:])]
    return "cycle: " + " | ".join(steps)


# -- The checker, on invented module trees -------------------------------------


def write_tree(root: Path, files: Mapping[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    root = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import thing\n",
        "pkg/b.py": "thing = 1\n\ndef later():\n    from pkg import a\n    return a\n",
    })
    graph = import_graph(root)
    assert graph["pkg.b"] == {"pkg.a": 4}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_an_import_under_type_checking_counts(tmp_path):
    root = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/a.py": "from ..c import C\n",
        "pkg/c.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from .sub.a import A\n"
        ),
    })
    assert cycles(import_graph(root)) == [["pkg.c", "pkg.sub.a", "pkg.c"]]


def test_importing_a_package_runs_its_init(tmp_path):
    # x imports pkg.y; pkg/__init__ imports x: a cycle through the __init__,
    # whichever way the importer spells it.
    for spelling in ("import pkg.y\n", "from pkg import y\n", "from pkg.y import Y\n"):
        root = write_tree(tmp_path / str(len(spelling)), {
            "x.py": spelling,
            "pkg/__init__.py": "import x\n",
            "pkg/y.py": "Y = 1\n",
        })
        assert cycles(import_graph(root)) == [["pkg", "x", "pkg"]], spelling


def test_a_package_gathering_names_from_its_own_modules_is_no_cycle(tmp_path):
    root = write_tree(tmp_path, {
        "pkg/__init__.py": "from pkg.a import A\nfrom .b import B\n",
        "pkg/a.py": "from pkg.b import B\nA = B\n",
        "pkg/b.py": "B = 1\n",
    })
    graph = import_graph(root)
    assert graph["pkg"] == {"pkg.a": 1, "pkg.b": 2}
    assert cycles(graph) == []


def test_an_acyclic_tree_passes_and_modules_outside_it_are_not_counted(tmp_path):
    root = write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import os\nimport json as j\nfrom pkg import b\nfrom . import c\n",
        "pkg/b.py": "from .c import C\n\ndef f():\n    import pkg.c\n",
        "pkg/c.py": "C = 1\n",
    })
    graph = import_graph(root)
    assert graph["pkg.a"] == {"pkg.b": 3, "pkg.c": 4}
    assert graph["pkg.b"] == {"pkg.c": 1}
    assert cycles(graph) == []


def test_every_module_of_a_longer_cycle_is_shown(tmp_path):
    root = write_tree(tmp_path, {
        "a.py": "import b\n",
        "b.py": "import c\n",
        "c.py": "def f():\n    import a\n",
        "d.py": "import a\n",
    })
    graph = import_graph(root)
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert describe(cycles(graph)[0], graph) == "cycle: a (line 1) -> b | b (line 1) -> c | c (line 2) -> a"


# -- The source ---------------------------------------------------------------

MODULES = modules_under(SRC)
GRAPH = import_graph(SRC)

# Cycles whose removal is under way in other work of issue 29.
PENDING_CYCLES = {
}
FIXED_CYCLES = [
    ("feedtui.cli", "feedtui.ui.run"),
    ("feedtui.topics.registry", "feedtui.topics.tagging"),
    ("feedtui.core.engine", "feedtui.export.state_json"),
    *(
        (f"feedtui.ui.{name}", "feedtui.ui.screens.help")
        for name in ("app", "screens.main", "screens.detail", "screens.topic_form", "screens.welcome")
    ),
]


def _in_one_cycle(a: str, b: str) -> bool:
    return any(a in group and b in group for group in strongly_connected(GRAPH))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        *FIXED_CYCLES,
        *(pytest.param(a, b, marks=pytest.mark.xfail(strict=True, reason=why)) for (a, b), why in PENDING_CYCLES.items()),
    ],
)
def test_no_import_cycle_between(a, b):
    assert not _in_one_cycle(a, b), "\n".join(describe(c, GRAPH) for c in cycles(GRAPH) if a in c and b in c)


def test_no_other_import_cycle():
    """Cycles other than the pending ones: with the imports between the two
    modules of each pending cycle left out (both ways), nothing is left that
    imports itself. A new cycle through one of those imports shows in
    test_no_import_cycle_at_all once the pending ones are gone."""
    pending_edges = {(a, b) for a, b in PENDING_CYCLES} | {(b, a) for a, b in PENDING_CYCLES}
    pruned = {name: {t: n for t, n in edges.items() if (name, t) not in pending_edges} for name, edges in GRAPH.items()}
    found = cycles(pruned)
    assert not found, "\n".join(describe(c, pruned) for c in found)


def test_no_import_cycle_at_all():
    found = cycles(GRAPH)
    assert not found, "\n".join(describe(c, GRAPH) for c in found)


# -- File sizes ---------------------------------------------------------------

LONGEST = 800
LONG_EXCEPTIONS = {"topics/query.py", "text/_latex_tables.py"}
OVER_TODAY: dict[str, str] = {}


def _lines(relative: str) -> int:
    path = PACKAGE / relative
    return len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0


def _size_cases():
    files = sorted({p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")} | set(OVER_TODAY))
    for relative in files:
        if relative in LONG_EXCEPTIONS:
            continue
        marks = [pytest.mark.xfail(strict=True, reason=OVER_TODAY[relative])] if relative in OVER_TODAY else []
        yield pytest.param(relative, marks=marks, id=relative)


@pytest.mark.parametrize("relative", list(_size_cases()))
def test_no_file_over_800_lines(relative):
    assert _lines(relative) <= LONGEST, f"src/feedtui/{relative}: {_lines(relative)} lines"


def test_the_main_screen_under_600_lines():
    assert _lines("ui/screens/main.py") < 600


def test_the_size_check_reads_real_files():
    assert _lines("topics/query.py") > 100
    assert _lines("no/such/file.py") == 0


# -- Front ends call the core -------------------------------------------------

FRONT_ENDS = ("ui/", "cli.py", "cli/", "export/", "demo/", "launch_checks.py")
STORE = "feedtui.store"
STORES = {"state", "cache", "registry", "tags", "fetch_state"}


def _module_name(relative: str) -> str:
    parts = Path("feedtui", relative).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _files(condition) -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if condition(p.relative_to(PACKAGE).as_posix()))


def store_imports(path: Path, name: str) -> list[Import]:
    """The imports of the store package or its modules in one file."""
    return [i for i in imports_of(name, path, MODULES) if i.target == STORE or i.target.startswith(STORE + ".")]


def store_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """`engine.state`, `self.engine.cache`, `app.engine.tags`…: (line, text)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in STORES:
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id == "engine") or (
                isinstance(owner, ast.Attribute) and owner.attr == "engine"
            ):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


STORE_IMPORTS_TODAY: dict[str, str] = {}


def _front_end_cases():
    front = _files(lambda r: r.startswith(FRONT_ENDS))
    for relative in sorted(set(front) | set(STORE_IMPORTS_TODAY)):
        marks = [pytest.mark.xfail(strict=True, reason=STORE_IMPORTS_TODAY[relative])] if relative in STORE_IMPORTS_TODAY else []
        yield pytest.param(relative, marks=marks, id=relative)


@pytest.mark.parametrize("relative", list(_front_end_cases()))
def test_front_ends_do_not_import_the_store(relative):
    path = PACKAGE / relative
    found = store_imports(path, _module_name(relative)) if path.exists() else []
    assert not found, f"src/feedtui/{relative} imports the store: " + ", ".join(f"{i.target} (line {i.line})" for i in found)


REACHES_TODAY: dict[str, str] = {}


def _outside_core_cases():
    files = _files(lambda r: not r.startswith("core/"))
    for relative in sorted(set(files) | set(REACHES_TODAY)):
        marks = [pytest.mark.xfail(strict=True, reason=REACHES_TODAY[relative])] if relative in REACHES_TODAY else []
        yield pytest.param(relative, marks=marks, id=relative)


@pytest.mark.parametrize("relative", list(_outside_core_cases()))
def test_no_reach_through_the_engine_outside_the_core(relative):
    path = PACKAGE / relative
    found = store_reaches(ast.parse(path.read_text(encoding="utf-8"))) if path.exists() else []
    assert not found, f"src/feedtui/{relative}: " + ", ".join(f"{text} (line {line})" for line, text in found)


def test_the_front_end_checks_see_what_they_look_for(tmp_path):
    root = write_tree(tmp_path, {
        "feedtui/__init__.py": "",
        "feedtui/store/__init__.py": "",
        "feedtui/store/cache.py": "",
        "feedtui/ui/__init__.py": "",
        "feedtui/ui/a.py": "def f():\n    from ..store import cache\n",
        "feedtui/ui/b.py": "from feedtui import store\n",
        "feedtui/ui/c.py": "from feedtui.text import x\n",
    })
    modules = modules_under(root)
    to_store = {
        name: [i.target for i in imports_of(name, modules[name], modules) if i.target.startswith(STORE)]
        for name in ("feedtui.ui.a", "feedtui.ui.b", "feedtui.ui.c")
    }
    assert to_store == {
        "feedtui.ui.a": ["feedtui.store", "feedtui.store.cache"],
        "feedtui.ui.b": ["feedtui.store"],
        "feedtui.ui.c": [],
    }
    tree = ast.parse("engine.state.pref('x')\nself.engine.cache\nself.app.engine.tags.get(1)\nengine.follow('x')\nstate.cache\n")
    assert store_reaches(tree) == [(1, "engine.state"), (2, "self.engine.cache"), (3, "self.app.engine.tags")]
