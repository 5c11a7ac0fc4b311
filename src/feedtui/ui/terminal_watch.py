"""A reader whose terminal has gone ends as SIGHUP ends it.

Closing a terminal sends SIGHUP to the process in its foreground, but not to
one started with SIGHUP ignored (`nohup feedtui`, some launchers) nor to one
the terminal does not control. Such a reader stayed, its input thread
spinning on the hung-up terminal, which reads as end-of-file at once, at
most of a core. So a thread asks the terminal for its attributes every
TERMINAL_CHECK_S: a hung-up terminal refuses (EIO), and the reader then
leaves as the quit signals make it leave, saving what is pending.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable

TERMINAL_CHECK_S = 1.0
# What a terminal that has hung up answers (ENXIO: its device is gone).
GONE = (errno.EIO, errno.ENXIO)


def watch_terminal(fd: int, gone: Callable[[], None], over: threading.Event, every: float = TERMINAL_CHECK_S) -> threading.Thread | None:
    """Call `gone()` once, in a thread of its own, when the terminal `fd`
    hangs up; no watch (None) when `fd` is no terminal. Ends when `over` is set."""
    import termios

    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):
        return None

    def look() -> None:
        while not over.wait(every):
            if terminal_gone(fd):
                gone()
                return

    thread = threading.Thread(target=look, name="feedtui-terminal-watch", daemon=True)
    thread.start()
    return thread


def terminal_gone(fd: int) -> bool:
    """Whether the terminal `fd` has hung up (False for one that answers, or
    for no terminal at all)."""
    import termios

    try:
        termios.tcgetattr(fd)
    except termios.error as error:
        return bool(error.args) and error.args[0] in GONE
    except (OSError, ValueError):
        return False
    return False


def leave_a_gone_terminal(fd: int) -> None:
    """Standard output and error to /dev/null if the terminal `fd` has hung
    up: the interpreter's last flush to it fails otherwise, and that makes
    the exit status 120 instead of the hangup's 129."""
    import os

    if not terminal_gone(fd):
        return
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (1, 2):
            os.dup2(nowhere, stream)
    finally:
        os.close(nowhere)
