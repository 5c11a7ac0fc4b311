"""Signals as a process started from a terminal has them, for the tests'
child processes.

A shell starts a background job (`pytest … &` in a script) with SIGINT and
SIGQUIT ignored, and `nohup` ignores SIGHUP; a child inherits what its parent
ignores, and feedtui rightly keeps ignoring what it was started ignoring
(`nohup feedtui refresh` carries on when the terminal closes). A test that
sends its child one of these signals starts the child with them as a
terminal delivers them, whatever ignores them in the test run itself.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM)


def as_from_a_terminal(*, ignoring: tuple[int, ...] = ()) -> Callable[[], None]:
    """A `preexec_fn` (or a call in a forked child before exec): every
    terminal signal back to its default, then the `ignoring` ones ignored."""

    def reset() -> None:
        for signum in TERMINAL_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)
        for signum in ignoring:
            signal.signal(signum, signal.SIG_IGN)

    return reset
