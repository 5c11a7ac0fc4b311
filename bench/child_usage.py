"""Run a command as the child of a small process, and write down its usage.

    python -S -E bench/child_usage.py USAGE_FILE COMMAND [ARG ...]

A process's peak RSS (`ru_maxrss`) does not start at zero: Linux keeps it
across exec, and a child forked or vforked from the suite's runner starts
from the runner's own peak. A runner that once held hundreds of MB
(generating feeds, building a cache) made every program it measured
afterwards read as at least that large. This process is a few MB; the
command it starts reads as what it used itself.

USAGE_FILE gets one line: wall seconds (from just before the command starts
to the moment it is reaped), user and system CPU seconds, and peak RSS in
KiB, of the command and of the descendants it waited for. The exit status is
the command's; a command killed by a signal kills this process by the same
signal.
"""

import os
import signal
import sys
import time


def main() -> int:
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    usage_file, argv = sys.argv[1], sys.argv[2:]
    started = time.perf_counter()
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ)
    except OSError as error:
        sys.stderr.write(f"child_usage: cannot start {argv[0]}: {error}\n")
        return 127
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    with open(usage_file, "w", encoding="ascii") as out:
        out.write(f"{wall!r} {usage.ru_utime!r} {usage.ru_stime!r} {usage.ru_maxrss}\n")
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        if -code not in (signal.SIGKILL, signal.SIGSTOP):  # those cannot be handled anyway
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main())
