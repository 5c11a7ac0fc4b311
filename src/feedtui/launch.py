"""The `feedtui` command as a process: the collector around `cli.main`.

Importing the app builds a few hundred thousand objects that live as long as
the process, so no collections run while they are made, and they are frozen
as soon as the import is done: the youngest generation still counts all of
them, so the first collections after the import would otherwise walk them all,
in every command and at every start. For the same reason `main` is told that the
process ends after it: a one-shot command, which runs with the collector
paused, freezes what it built before the pause ends. At the end everything
still alive is frozen, so the interpreter's last collection at exit does not
walk it (a large part of a short command, such as a refresh of 304s). Files are closed and saved by
then; nothing waits on the collector. Worker pools still shutting down are
waited for, 2 s at most (see cpu_pool.finish_closing). SIGTERM and SIGHUP
stop a command as Ctrl-C does (see quit_signals; the reader handles them
itself). Tests call `cli.main` in their own process and get none of this.
"""

from __future__ import annotations

import gc
import sys


def run() -> int:
    gc.disable()
    try:
        from feedtui.cli import main
    finally:
        gc.freeze()
        gc.enable()
    from feedtui.quit_signals import exit_status, quit_signals_as_ctrl_c

    with quit_signals_as_ctrl_c() as received:
        try:
            status = main(exits_after=True)
        except KeyboardInterrupt:  # before main's own handling begins (parsing the arguments)
            status = 130
    if pools := sys.modules.get("feedtui.cpu_pool"):  # imported only by commands that parse or tag
        try:
            pools.finish_closing()
        except KeyboardInterrupt:  # a second Ctrl-C: the workers end with the process
            status = 130
    gc.freeze()
    status = exit_status(received[0]) if received else status
    end_if_threads_linger(status)
    return status


# How long threads still running at the end may take before the process ends without them.
LINGER_S = 2.0


def end_if_threads_linger(status: int) -> None:
    """End the process now if a thread that is no daemon is still running
    LINGER_S after the command is done: the interpreter would wait for it at
    exit for ever (a reader whose terminal input thread was never stopped
    stayed, frozen, and spun on the closed terminal). Everything is saved
    and closed by then."""
    import os
    import threading
    import time

    deadline = time.monotonic() + LINGER_S
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
