"""The reader's crash boundary: an unexpected exception becomes a report.

An exception that escapes a key action, a message handler or a worker takes
a Textual app down with a traceback, losing the reader mid-session. Here it
is written to a crash report (the traceback, the feedtui and Textual
versions, the last keys) in `crash-reports/` of the data directory, the user
is told once where it is, and the reader goes on. Where it cannot go on (the
reader is not up yet, or the same trouble comes back at once), the marks are
saved first and the app ends as Textual ends it, the terminal given back;
run_tui then says where the report is. See docs/crash-reports.md.

Textual (8.2.8) has no public hook for this: the boundary sits where its
exceptions meet the app, `App.run_action`, `App._handle_exception` (timers,
workers, callbacks) and `MessagePump._dispatch_message` (message handlers:
an exception there would also end the message loop of the widget it came
from), the last two private.
"""

from __future__ import annotations

import os
import platform
import sys
import time
import traceback
from collections import deque
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from textual.worker import WorkerFailed

if TYPE_CHECKING:
    from textual.app import App

CRASH_DIR = "crash-reports"
KEYS_KEPT = 50
# This many exceptions within BURST_S: the reader is stuck on one, not going on.
BURST = 5
BURST_S = 10.0


class CrashBoundary:
    """One reader's crash reports and the keys that led to them."""

    def __init__(self, data_dir: Path) -> None:
        self.directory = data_dir / CRASH_DIR
        self.keys: deque[str] = deque(maxlen=KEYS_KEPT)
        self.reports: list[Path] = []
        self._times: deque[float] = deque(maxlen=BURST)
        # The exception the reader stopped on, and its report.
        self.fatal: BaseException | None = None
        self.fatal_report: Path | None = None
        self._last_key: object = None

    def key_seen(self, event) -> None:
        """A Key event, seen by the app once from the terminal and again as it
        bubbles back up from the focused widget: kept once."""
        if event is not self._last_key:
            self._last_key = event
            self.keys.append(event.key)

    def went_on(self, app: App, error: BaseException, *, can_go_on: bool = True) -> bool:
        """Report `error`; True when the reader goes on, False when the caller
        is to let Textual end the app (the marks are saved by then)."""
        if error is self.fatal:
            return False
        cause = error.error if isinstance(error, WorkerFailed) else error
        self._times.append(time.monotonic())
        burst = len(self._times) == BURST and self._times[-1] - self._times[0] < BURST_S
        path = self.write(cause, screen=type(app.screen_stack[-1]).__name__ if app.screen_stack else "")
        where = str(path) if path else "(the report could not be written)"
        if getattr(app, "_exit", False):
            # The app is ending already (q, a signal, the terminal closed): its
            # own way out saves the marks; a traceback now would only stop it
            # short, with status 1, on a terminal that may be gone.
            return True
        if can_go_on and not burst:
            from feedtui.text.sanitize import strip_controls

            said = strip_controls(str(cause))[:200]  # an error may quote untrusted text
            app.notify(
                f"Unexpected error: {type(cause).__name__}: {said}. feedtui carries on; the report is in {where}",
                title="feedtui hit a bug", severity="error", markup=False, timeout=10,
            )
            return True
        self.fatal, self.fatal_report = error, path
        save = getattr(getattr(app, "engine", None), "save_now", None)
        if save is not None:
            try:
                save()
            except Exception:  # what cannot be saved is said by run_tui's own close
                pass
        return False

    def stopped_message(self) -> str:
        """What the user reads once the terminal is back ("" if nothing stopped the reader)."""
        if self.fatal is None:
            return ""
        where = self.fatal_report or "nowhere: it could not be written"
        return f"feedtui: stopped on an unexpected error; marks were saved first. Crash report: {where}"

    def write(self, error: BaseException, *, screen: str = "") -> Path | None:
        """The report's path, or None when it could not be written (a full or read-only disk)."""
        from textual import __version__ as textual_version

        from feedtui import __version__

        now = datetime.now(timezone.utc)
        lines = [
            "feedtui crash report",
            f"time: {now.isoformat(timespec='seconds')}",
            f"feedtui: {__version__}",
            f"textual: {textual_version}",
            f"python: {platform.python_version()} on {sys.platform}",
            f"screen: {screen}",
            f"last {len(self.keys)} keys, oldest first: {' '.join(self.keys)}",
            "",
            *traceback.format_exception(error),
        ]
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"crash-{now:%Y%m%d-%H%M%S}-{os.getpid()}-{len(self.reports) + 1}.txt"
            path.write_text("\n".join(line.rstrip("\n") for line in lines) + "\n", encoding="utf-8")
        except OSError:
            return None
        self.reports.append(path)
        return path


def boundary_of(app: App) -> CrashBoundary | None:
    return getattr(app, "crash_boundary", None)


class Guarded:
    """Mixed into a MessagePump (the app, a screen, a widget) before it: an
    exception from one of its message handlers goes to the crash boundary,
    and the pump goes on taking messages."""

    async def _dispatch_message(self, message) -> None:
        try:
            await super()._dispatch_message(message)  # type: ignore[misc]
        except Exception as error:
            boundary = boundary_of(self.app)  # type: ignore[attr-defined]
            if boundary is None or not boundary.went_on(self.app, error):  # type: ignore[attr-defined]
                raise
