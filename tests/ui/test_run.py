"""Starting the UI: the library is loaded and the app built before Textual starts, without a collection."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.run import build_app

from tests.factories import make_paper
from tests.gc_watch import collections_started
from tests.ui.conftest import NOW

SRC = Path(__file__).resolve().parents[2] / "src"


def test_building_the_app_never_collects_and_freezes_what_it_built(make_engine, tmp_path):
    papers = [
        make_paper(f"2611.{number:05d}", title=f"Widget {number}", published=NOW - timedelta(hours=number))
        for number in range(1500)
    ]
    seeded = make_engine(papers, data_dir=tmp_path / "data")
    seeded.close()
    with collections_started() as started:
        try:
            app = build_app(seeded.config, tmp_path / "data")
            frozen = gc.get_freeze_count()
            enabled_after = gc.isenabled()
        finally:
            gc.unfreeze()
    try:
        assert isinstance(app, FeedtuiApp)
        assert len(app.engine.library.ids) == 1500
        # Collections while the engine opens, the rows are read or Textual is
        # imported would walk everything built so far, again and again.
        assert started == []
        # Each card row is a list holding several strings: all now out of the collector's way.
        assert frozen > 1500
        assert enabled_after
    finally:
        app.engine.close()


def run_feedtui(argv: list[str], **streams) -> subprocess.CompletedProcess:
    """`feedtui ARGV` as a process of its own, on this checkout's code."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}, "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, "-m", "feedtui", *argv], env=env, timeout=60, **streams)


def test_the_reader_without_a_terminal_says_so_and_exits_at_once(tmp_path):
    """`feedtui` from cron (no terminal on stdin or stderr) waited for keys
    forever and drew its screens into the log."""
    done = run_feedtui(
        ["--demo", "--data-dir", str(tmp_path / "data")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert done.stderr == "feedtui: the reader needs a terminal; for scripts use feedtui refresh / topics / papers\n"
    assert done.stdout == ""
