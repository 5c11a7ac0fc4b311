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


def test_the_reader_on_a_terminal_with_stderr_redirected_says_what_to_change(tmp_path):
    """Textual draws on stderr: with only that redirected (`feedtui 2>log`),
    the screens would go into the log while the keys come from the terminal."""
    import pty

    controller, terminal = pty.openpty()
    log = tmp_path / "err.log"
    try:
        with log.open("w") as stderr:
            done = run_feedtui(
                ["--demo", "--data-dir", str(tmp_path / "data")], stdin=terminal, stdout=terminal, stderr=stderr,
            )
    finally:
        os.close(terminal)
        os.close(controller)
    assert done.returncode == 2
    assert log.read_text() == "feedtui: the reader draws on the terminal through stderr, which is redirected; run it without 2>\n"


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
    from feedtui.launch_checks import encoding_problem

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


async def test_a_quit_signal_during_a_refresh_lets_its_store_finish_before_the_watch_counts(make_engine, tmp_path, monkeypatch):
    """SIGTERM while a refresh stored what it had fetched: the process was ended
    5 s after the signal whatever the app was doing, the store cut short."""
    import asyncio
    import signal
    import threading

    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.ui import run
    from feedtui.ui.widgets.status_line import StatusLine

    from tests.ui.test_app import SIZE, prompt_and_held_feeds, ready, until

    monkeypatch.setattr(run, "SHUTDOWN_GRACE_S", 0.01)
    storing, store_may_end = threading.Event(), threading.Event()
    ended_with: list[int] = []
    with prompt_and_held_feeds(make_engine, ["Prompt widget one", "Prompt widget two"], ["Late widget"], papers=[]) as (
        engine,
        feeds,
    ):
        store = engine.cache.store

        def slow_store(*args, **kwargs):
            storing.set()
            store_may_end.wait(30)
            return store(*args, **kwargs)

        monkeypatch.setattr(engine.cache, "store", slow_store)
        app = FeedtuiApp(engine)
        watch = run.QuitWatch(app.leaving, lambda: True, end=ended_with.append)
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            status = main.query_one(StatusLine)
            await pilot.press("R")
            await until(pilot, lambda: feeds.asked.is_set() and status.query_one("#status-progress").progress == 1, step=0.05)
            watch.start(signal.SIGTERM)
            app.stop_for_signal(signal.SIGTERM)
            # The refresh stops, then stores: polled without pilot.pause, which
            # waits for the screen to be idle, and the app may be waiting for
            # the store held here.
            for _ in range(600):
                if storing.is_set():
                    break
                await asyncio.sleep(0.05)
            assert storing.is_set()
            # Many times the grace, the store still under way (the app waits
            # for it, so pilot.pause would too).
            await asyncio.sleep(0.5)
            assert ended_with == []
            store_may_end.set()
            await until(pilot, lambda: app.return_code is not None, tries=400, step=0.05)
        assert app.leaving.is_set()
    watch.thread.join(5)
    assert ended_with == [128 + signal.SIGTERM]
    engine.close()
    after = Engine(Config(), tmp_path / "data", background_writes=False)
    assert len(after.library) == 2
    after.close()


def test_the_quit_watch_ends_nothing_once_the_reader_has_ended():
    """The watch outlived a clean end: 5 s later it ended the process with the
    signal's status, whatever ran after the reader."""
    import signal
    import threading

    from feedtui.ui.run import QuitWatch

    ended_with: list[int] = []
    leaving = threading.Event()
    watch = QuitWatch(leaving, lambda: True, end=ended_with.append)
    watch.start(signal.SIGHUP)
    leaving.set()
    watch.ended.set()
    watch.thread.join(30)
    assert not watch.thread.is_alive()
    assert ended_with == []
