"""What the reader's start leaves for later: modules that only later screens,
keys or refreshes need are not imported by the first paint (a real process,
its first paint on a headless Textual driver)."""

from __future__ import annotations

import json
import subprocess
import sys

# Each is imported where it is first needed, never on the way to the first paint.
NOT_AT_START = (
    "feedtui.ui.screens.detail",  # the paper view: Enter
    "feedtui.ui.paper_actions",  # open, copy, cite: their keys
    "feedtui.text.latex",  # the parse path's LaTeX tables: a refresh
    "feedtui.discovery.records",  # Ask's answers, For you, Related: their keys
    "feedtui.discovery.answer",  # Ask's quotes: a question
    "textual.widgets._progress_bar",  # the status line's bar: the first refresh
    "html.parser",  # text that holds HTML
    "importlib.resources",  # the catalogue, when the package is a zip
)

SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from feedtui.config import load_config
from feedtui.ui.run import build_app
from feedtui.ui.screens.main import MainScreen

seen = {}

def at_first_paint(self):
    import dataclasses
    seen["modules"] = sorted(sys.modules)
    seen["dataclasses"] = sorted(
        f"{name}.{value.__qualname__}"
        for name, module in list(sys.modules.items()) if name.startswith("feedtui.")
        for value in vars(module).values()
        if isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
    )
    self.app.exit()

MainScreen.after_first_paint = at_first_paint

async def main():
    app = build_app(load_config(Path(sys.argv[1])), Path(sys.argv[2]))
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(200):
            if seen:
                break
            await pilot.pause(0.05)

asyncio.run(main())
print(json.dumps(seen))
"""


def first_paint(make_engine, tmp_path) -> dict:
    """What a real process had imported when the reader first painted."""
    engine = make_engine()
    engine.close()
    config = tmp_path / "config.toml"
    config.write_text("[general]\nauto_refresh = false\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(config), str(tmp_path / "data")],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "feedtui.ui.widgets.paper_list" in seen["modules"]  # the first paint was reached
    return seen


def test_the_first_paint_imports_nothing_that_only_later_work_needs(make_engine, tmp_path):
    modules = set(first_paint(make_engine, tmp_path)["modules"])
    assert sorted(modules & set(NOT_AT_START)) == []


# Modules on the way to the first paint whose records are NamedTuples or
# plain slotted classes: a dataclass compiles its generated methods when its
# module is imported.
NO_DATACLASSES = ("feedtui.ui.widgets.", "feedtui.ui.cards", "feedtui.ui.presenter", "feedtui.ui.services",
                  "feedtui.ui.user_commands", "feedtui.ui.screens.main_parts.", "feedtui.core.events",
                  "feedtui.core.engine", "feedtui.topics.", "feedtui.settings", "feedtui.config.",
                  "feedtui.store.state", "feedtui.store.tags", "feedtui.model.Topic", "feedtui.model.SourceReport",
                  "feedtui.model.RefreshReport")


def test_the_first_paint_builds_no_dataclass_of_the_modules_kept_free_of_them(make_engine, tmp_path):
    made = first_paint(make_engine, tmp_path)["dataclasses"]
    assert any(name.startswith("feedtui.model.") for name in made)  # the check sees dataclasses
    assert [name for name in made if name.startswith(NO_DATACLASSES)] == []
