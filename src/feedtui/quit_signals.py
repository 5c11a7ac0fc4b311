"""SIGTERM and SIGHUP: `kill PID`, a terminal window closed, an ssh session
dropped, a logout. By default they end the process on the spot, losing the
marks still waiting to be written and, in the reader, leaving the terminal in
the alternate screen with mouse reporting on. Here they end it as the user
would: the reader as `q` does, a one-shot command as Ctrl-C does. The exit
status is then the one a shell gives a process the signal ended (128 + its
number: 143 for SIGTERM, 129 for SIGHUP).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

# By name, looked up when handlers are set: a platform without SIGHUP (feedtui
# is POSIX only, but `--version` and `--help` still answer there) lacks it.
QUIT_SIGNAL_NAMES = ("SIGTERM", "SIGHUP")
# A signal that comes while a module is imported comes again this much later.
IMPORT_RETRY_S = 0.01

Handler = Callable[[int, FrameType | None], None]


def quit_signals() -> tuple[int, ...]:
    """The quit signals this platform has."""
    return tuple(getattr(signal, name) for name in QUIT_SIGNAL_NAMES if hasattr(signal, name))


def exit_status(signum: int) -> int:
    return 128 + signum


@contextmanager
def quit_signals_handled(handler: Handler) -> Iterator[None]:
    """Within: `handler(signum, frame)` for SIGTERM and SIGHUP, then the
    handlers from before. A signal ignored when feedtui started stays ignored
    (`nohup feedtui refresh` carries on when the terminal closes)."""
    before = {}
    for signum in quit_signals():
        if signal.getsignal(signum) is not signal.SIG_IGN:
            before[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, previous in before.items():
            signal.signal(signum, previous)


@contextmanager
def quit_signals_as_ctrl_c() -> Iterator[list[int]]:
    """For the one-shot commands: SIGTERM and SIGHUP do what Ctrl-C does
    (whatever handles SIGINT now: KeyboardInterrupt, or asyncio's stop of a
    refresh, which stores what it has fetched). Yields the signals received."""
    received: list[int] = []

    def as_ctrl_c(signum: int, frame: FrameType | None) -> None:
        if _importing(frame):
            # An exception raised while a native module initialises can crash
            # the interpreter (orjson's import did, 1 kill in 40 at start).
            retry = threading.Timer(IMPORT_RETRY_S, os.kill, (os.getpid(), signum))
            retry.daemon = True
            retry.start()
            return
        received.append(signum)
        interrupt = signal.getsignal(signal.SIGINT)
        if not callable(interrupt):  # Ctrl-C is ignored (a background job): stopped all the same
            if _stoppable and not _stoppable[-1].done():
                _stop(_stoppable[-1])
                return
            interrupt = signal.default_int_handler
        interrupt(signal.SIGINT, frame)

    with quit_signals_handled(as_ctrl_c):
        yield received


# The asyncio tasks a quit signal stops as asyncio stops one on Ctrl-C (the
# innermost last); see stoppable.
_stoppable: list[Any] = []


@contextmanager
def stoppable(task: Any) -> Iterator[None]:
    """Within: a quit signal that comes while Ctrl-C is ignored cancels
    `task` (an asyncio.Task), as asyncio.run cancels its task on Ctrl-C. A
    refresh started with Ctrl-C ignored (`nohup feedtui refresh &`, cron)
    then stores what it fetched before it ends: a KeyboardInterrupt raised
    wherever the loop happened to be lost it. The task turns its
    CancelledError into KeyboardInterrupt (asyncio.run does that only for
    the Ctrl-C it handled itself)."""
    _stoppable.append(task)
    try:
        yield
    finally:
        _stoppable.remove(task)


def _stop(task: Any) -> None:
    task.cancel()
    task.get_loop().call_soon_threadsafe(lambda: None)  # wakes a loop waiting in select()


def _importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False
