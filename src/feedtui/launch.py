"""The `feedtui` command as a process: the collector around `cli.main`.

Importing the app builds a few hundred thousand objects that live as long as
the process, so no collections run while they are made (about 9 ms of every
start, measured). At the end everything still alive is frozen, so the
interpreter's last collection at exit does not walk it (40–80 ms of a 0.6 s
refresh of 304s). Files are closed and saved by then; nothing waits on it.
Tests call `cli.main` in their own process and get neither.
"""

from __future__ import annotations

import gc


def run() -> int:
    gc.disable()
    try:
        from feedtui.cli import main
    finally:
        gc.enable()
    status = main()
    gc.freeze()
    return status
