"""Starting the terminal UI."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from feedtui.config import Config
from feedtui.memory import gc_paused
from feedtui.quit_signals import exit_status, quit_signals_handled
from feedtui.ui.ending import stop_input
from feedtui.ui.terminal_watch import leave_a_gone_terminal, watch_terminal

if TYPE_CHECKING:
    from feedtui.core.engine import Engine
    from feedtui.ui.app import FeedtuiApp

# How long the app may take to end, once it has begun to leave after SIGTERM
# or SIGHUP, before the process saves what is pending and ends without it.
SHUTDOWN_GRACE_S = 5.0


def run_tui(config: Config, data_dir: Path, *, demo: bool = False) -> int:
    from feedtui.core.files import StoreError

    try:
        app = build_app(config, data_dir, demo=demo)
    except StoreError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        from feedtui.launch_checks import data_dir_problem

        print(f"feedtui: {data_dir_problem(data_dir, error)}", file=sys.stderr)
        return 1
    closing = threading.Lock()
    closed: list[bool] = []

    def close_once() -> bool:
        """Save what is pending, once, whichever thread comes first."""
        with closing:
            if not closed:
                closed.append(_close(app.engine))
            return closed[0]

    watch = QuitWatch(app.leaving, close_once)

    def stop(signum: int, frame) -> None:
        if not app.stopped_by:
            watch.start(signum)
        app.stop_for_signal(signum, frame)

    # SIGTERM and SIGHUP quit as q does (see quit_signals); one that comes
    # while the last changes are saved waits for the save. A terminal that
    # hangs up with no SIGHUP sent counts as one (see terminal_watch).
    with quit_signals_handled(stop):
        if sys.__stdin__ is not None:
            watch_terminal(sys.__stdin__.fileno(), lambda: stop(signal.SIGHUP, None), watch.ended)
        # Textual's start and the first frame make thousands of objects that
        # live as long as the app: no collection walks them before the reader
        # sees the screen (the main screen ends the pause once it is painted).
        app.until_first_paint.enter_context(gc_paused())
        try:
            app.run()
        finally:
            app.until_first_paint.close()
            stop_input(app)  # however the loop ended (see ui/ending.py)
            saved = close_once()
            watch.ended.set()
            if stopped := app.crash_boundary.stopped_message():
                _say(stopped)
    if app.stopped_by:
        if sys.__stdin__ is not None:
            leave_a_gone_terminal(sys.__stdin__.fileno())
        return exit_status(app.stopped_by)
    if not saved:
        return 1
    return app.return_code or 0


class QuitWatch:
    """After a quit signal: if the app has not ended SHUTDOWN_GRACE_S after it
    began to leave, save what is pending and end the process. A terminal
    closed under the reader makes Textual's writer thread die on the hung-up
    terminal, and its shutdown then waits for that thread for ever, short of
    the save. The count starts only once the app has stopped a refresh under
    way (`leaving`): its store may take seconds, and cut short it is lost."""

    def __init__(self, leaving: threading.Event, close_once: Callable[[], bool], end: Callable[[int], object] = os._exit) -> None:
        self.leaving = leaving
        self.close_once = close_once
        self.end = end
        # Set once run_tui is over: nothing is left to watch.
        self.ended = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, signum: int) -> None:
        self.thread = threading.Thread(target=self._watch, args=(signum,), name="feedtui-quit-watch", daemon=True)
        self.thread.start()

    def _watch(self, signum: int) -> None:
        from feedtui.ui.screens.main import STOP_REFRESH_S

        # An event loop too stuck to begin leaving is not waited for beyond
        # the longest a refresh's store is given.
        self.leaving.wait(STOP_REFRESH_S + SHUTDOWN_GRACE_S)
        if self.ended.wait(SHUTDOWN_GRACE_S):
            return
        self.close_once()
        self.end(exit_status(signum))


def _close(engine: Engine) -> bool:
    """Save what is pending; False when that failed, said with what is lost."""
    from feedtui.core.files import StoreError

    try:
        engine.close()
    except StoreError as error:
        _say(f"feedtui: {error}")
        lost, count = engine.unsaved_changes()
        if lost:
            _say(f"feedtui: {lost} {'was' if count == 1 else 'were'} not saved")
        return False
    return True


def _say(line: str) -> None:
    """A last word on stderr, which may be a terminal that has closed (SIGHUP)."""
    try:
        print(line, file=sys.stderr)
    except OSError:
        pass


def build_app(config: Config, data_dir: Path, *, demo: bool = False) -> FeedtuiApp:
    """The engine, its library loaded, and the app around it, all before
    Textual starts (a loading thread would share the interpreter with
    Textual's own start-up and take twice as long).

    Nearly everything made here lives as long as the app: the card rows, the
    engine's topics, Textual's and the app's modules and classes. So the
    collector stays off from the engine's opening to the app's construction,
    and then everything is frozen, out of the collector's sight. Objects made
    during a pause all sit in the youngest generation: without the freeze the
    first collection after it would walk every one of them, a pause that
    grows with the cache; with collections on, opening the engine and
    importing Textual set off dozens of collections."""
    from feedtui.core.engine import open_engine

    with gc_paused():
        engine = open_engine(config, data_dir, demo=demo)
        engine.load_library()
        from feedtui.ui.app import FeedtuiApp

        app = FeedtuiApp(engine)
        gc.freeze()
    return app
