"""Starting the UI: the library is loaded and the app built before Textual starts, without a collection."""

from __future__ import annotations

import gc
import io
import os
import pty
import select
import subprocess
import sys
import time
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


def run_in_a_terminal(argv: list[str], env: dict[str, str]) -> tuple[int, str]:
    """`feedtui ARGV` with a pseudo-terminal for stdin, stdout and stderr:
    (its exit status, what it wrote there)."""
    main_end, its_end = pty.openpty()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}, "PYTHONPATH": str(SRC), **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "feedtui", *argv], env=env, stdin=its_end, stdout=its_end, stderr=its_end,
    )
    os.close(its_end)
    written = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if not select.select([main_end], [], [], 1.0)[0]:
                continue
            try:
                chunk = os.read(main_end, 4096)
            except OSError:  # EIO: the process has ended and closed the terminal
                break
            if not chunk:
                break
            written += chunk
    finally:
        os.close(main_end)
        if process.poll() is None:  # still running at the deadline: it never would have stopped
            process.kill()
    return process.wait(timeout=60), written.decode("utf-8", "replace")


def test_the_reader_in_a_locale_that_is_not_utf8_says_how_to_start_it(tmp_path):
    """It started, and drew every ★ and ▁ as a literal \\u2605 escape."""
    status, written = run_in_a_terminal(["--demo", "--data-dir", str(tmp_path / "data")], {"PYTHONIOENCODING": "latin-1"})
    assert (status, written) == (
        1, "feedtui: the reader needs UTF-8 output, and PYTHONIOENCODING=latin-1 is not: start it without PYTHONIOENCODING\r\n",
    )


def test_the_locale_that_is_not_utf8_is_named_with_the_variable_that_sets_it(monkeypatch):
    from feedtui.ui.run import encoding_problem

    monkeypatch.setattr(sys, "__stderr__", io.TextIOWrapper(io.BytesIO(), encoding="iso8859-1"))
    for name in ("PYTHONIOENCODING", "LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.ISO-8859-1")
    assert encoding_problem() == (
        "the reader needs a UTF-8 locale, and LANG=en_US.ISO-8859-1 is not one: start it as LANG=C.UTF-8 feedtui"
    )
    monkeypatch.setenv("LC_ALL", "de_DE@euro")
    assert encoding_problem().endswith("LC_ALL=de_DE@euro is not one: start it as LC_ALL=C.UTF-8 feedtui")
    monkeypatch.setattr(sys, "__stderr__", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert encoding_problem() == ""
