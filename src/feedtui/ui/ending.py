"""Nothing of Textual's left running once the reader's app loop is over.

Textual (8.2.8) reads the terminal in a thread of its own (`textual-input`,
not a daemon) that only its driver's `disable_input` stops, and that
method swallows every exception: an exit that skips it, or fails inside
it, leaves the thread running and the terminal in the reader's modes. The
interpreter then waits for the thread at exit for ever (the process never
ends, the screen no longer answers), and once the terminal is gone the
thread spins on the hung-up tty, a core at full use. So when `App.run`
returns, however it ended, the thread is told to stop here too and the
terminal's modes are given back.
"""

from __future__ import annotations

import os
import signal
import sys
import termios
import threading

# Kitty keys off, main screen, cursor shown, focus, mouse and bracketed paste reports off.
RESET = "\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?1004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l"
INPUT_STOP_S = 1.0


def stop_suspending() -> None:
    """From now on a suspend (ctrl+z, SIGTSTP) is ignored: the reader is
    leaving. Textual's own handler would suspend its application mode while
    the app is closing it, and wait for ever on a writer thread that has
    stopped; keys typed ahead and still queued by the terminal reach it as
    signals once the terminal is back in its own modes. Only the main thread
    may set a handler; elsewhere this does nothing."""
    if hasattr(signal, "SIGTSTP") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTSTP, signal.SIG_IGN)


def input_left_running(app) -> bool:
    """Whether the app's driver still reads the terminal (its loop is over)."""
    thread = getattr(getattr(app, "_driver", None), "_key_thread", None)
    return thread is not None and thread.is_alive()


def stop_input(app) -> bool:
    """Stop the driver's input thread if it still runs and give the terminal
    its modes back; True when there was one to stop."""
    if not input_left_running(app):
        return False
    driver = app._driver
    driver.exit_event.set()
    driver._key_thread.join(INPUT_STOP_S)
    if driver.attrs_before is not None:
        try:
            termios.tcsetattr(driver.fileno, termios.TCSANOW, driver.attrs_before)
        except (termios.error, OSError):
            pass
    try:
        os.write(sys.__stderr__.fileno(), RESET.encode())
    except (OSError, AttributeError, ValueError):  # the terminal is gone
        pass
    return True
