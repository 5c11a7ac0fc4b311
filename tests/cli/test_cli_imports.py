"""The CLI's place in the import graph, read from the source with `ast`
(every import statement counts: at the top, inside a function, under
TYPE_CHECKING): no cycle passes through it, and the OPML merge rules import
neither Textual nor argparse."""

from __future__ import annotations

import ast
from pathlib import Path

import feedtui

SRC = Path(feedtui.__file__).resolve().parent


def module_names() -> dict[str, Path]:
    names = {}
    for path in SRC.rglob("*.py"):
        parts = ["feedtui", *path.relative_to(SRC).with_suffix("").parts]
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module `module` imports: `from a.b import c` is a.b, and a.b.c when that is a module."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                stem = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*stem, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known and name != module}


def graph() -> dict[str, set[str]]:
    known = module_names()
    return {module: imported(module, path, known) for module, path in known.items()}


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(edges[module])
    return seen


def test_no_import_cycle_passes_through_the_cli_or_its_launch_checks():
    edges = graph()
    ours = [m for m in edges if m == "feedtui.cli" or m.startswith("feedtui.cli.")]
    ours += ["feedtui.launch_checks", "feedtui.ui.run", "feedtui.launch", "feedtui.core.opml_merge"]
    assert len(ours) > 10
    in_cycles = sorted(module for module in ours if module in reachable(edges, module))
    assert in_cycles == []


def test_the_reader_does_not_import_the_cli():
    edges = graph()
    assert not any(
        target == "feedtui.cli" or target.startswith("feedtui.cli.")
        for module, targets in edges.items()
        if module.startswith("feedtui.ui.")
        for target in targets
    )


def test_the_opml_merge_rules_need_neither_textual_nor_argparse():
    tree = ast.parse((SRC / "core" / "opml_merge.py").read_text(encoding="utf-8"))
    roots = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    roots |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert roots <= {"__future__", "collections", "dataclasses", "feedtui"}
