#!/usr/bin/env python3
"""The long random-key run of the reader (the suite runs a short one).

    python scripts/monkey.py [--seeds 10] [--keys 2000] [--first-seed 1] [--terminal-runs 0]

Each seed drives the demo reader, headless, in its own temporary data
directory with `--keys` random keys, resizes and mouse clicks over every
screen (see tests/ui/monkey.py), then reads the marks back with the CLI as
real processes. Prints, per seed and in all: keys sent, resizes, clicks,
screens reached, crash reports, disagreements with the CLI, uncaught
exceptions, and processes left behind. A failing seed is rerun with
`--first-seed SEED --seeds 1`. Exit status 1 on any failure.

With --terminal-runs N, N more seeds run the real `feedtui --demo` in a
pseudo-terminal: random bytes as a terminal sends them (escape sequences
for the page and arrow keys included) and window resizes, then the reader is
ended one way of four (q after escapes, SIGTERM, SIGHUP, the terminal
closed); it must end within 5 s, leaving no crash report and no process.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.ui import monkey  # noqa: E402

TERMINAL_KEYS = (
    list("jkmsnufoeEgGtJKSMabcxyz0123456789?/ ,.;'éü中") + ["\t", "\r", "\x1b", "\x7f", "\x1b[5~", "\x1b[6~",
    "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F", "\x06", "\x10", "\x1a", "\x04", "\x15", "\x1b[Z"]
)
ENDINGS = ("q", "SIGTERM", "SIGHUP", "closed")


def terminal_run(seed: int, keys: int) -> tuple[int, str, bool, list[str]]:
    """(keys sent, how it was ended, whether it ended in time, crash reports)."""
    import fcntl
    import random
    import signal
    import struct
    import termios

    from tests.test_reader_exits import Reader

    rng = random.Random(seed)
    started = Reader(Path(tempfile.mkdtemp(prefix=f"feedtui-terminal-{seed}-")))
    try:
        started.wait_for("Week of")
        sent = 0
        while sent < keys:
            if rng.random() < 0.03:
                size = struct.pack("HHHH", rng.randint(8, 50), rng.randint(30, 160), 0, 0)
                fcntl.ioctl(started.fd, termios.TIOCSWINSZ, size)
                os.kill(started.pid, signal.SIGWINCH)
            burst = [rng.choice(TERMINAL_KEYS) for _ in range(rng.randint(1, 12))]
            started.send("".join(burst))
            sent += len(burst)
            time.sleep(rng.choice((0, 0.01, 0.05, 0.1)))
            if started.ended_within(0.01):  # it ended under the keys: a failure, said below
                break
        ending = rng.choice(ENDINGS)
        if started.status is not None:
            ending = f"itself under the keys (status {started.status})"
        else:
            if ending == "q":
                started.send("\x1b")
                time.sleep(0.3)
                for _ in range(6):  # out of any dialog, then quit ("quit anyway?" takes q too)
                    started.send("\x1b")
                    time.sleep(0.2)
                started.send("q")
                time.sleep(0.3)
                started.send("q")
            elif ending == "closed":
                started.hang_up()
            else:
                os.kill(started.pid, getattr(signal, ending))
        began = time.monotonic()
        ended = started.status is not None or started.ended_within(4.0)
        if not ended:
            ending += "\n" + stacks_of(started.pid)
            ended = started.ended_within(1.0)
        ending += f", in {time.monotonic() - began:.1f} s"
        reports = [str(p) for p in (started.data / "demo" / "crash-reports").glob("*")]
        return sent, ending, ended, reports
    finally:
        started.close()


def stacks_of(pid: int) -> str:
    """What a reader that is slow to end is doing: py-spy's dump of its threads,
    when py-spy is installed (`pip install py-spy`)."""
    import shutil
    import subprocess

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        return "(no py-spy to show its threads)"
    done = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30)
    return done.stdout + done.stderr


def live_children() -> list[str]:
    """This process's children that are still running (zombies are ended)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        state, parent = fields.split()[:2]
        if int(parent) == os.getpid() and state != "Z":
            found.append(f"{stat.parent.name} {name.split('(', 1)[1]}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--keys", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--terminal-runs", type=int, default=0)
    options = parser.parse_args()
    totals = {"keys": 0, "resizes": 0, "clicks": 0, "crashes": 0, "crash reports": 0, "disagreements": 0}
    screens: set[str] = set()
    failed: list[int] = []
    started = time.monotonic()
    for seed in range(options.first_seed, options.first_seed + options.seeds):
        data = Path(tempfile.mkdtemp(prefix=f"feedtui-monkey-{seed}-"))
        began = time.monotonic()
        try:
            outcome = asyncio.run(monkey.run(seed, options.keys, data))
        except Exception:
            traceback.print_exc()
            print(f"seed {seed}: CRASH (an exception escaped the reader); data in {data}", flush=True)
            totals["crashes"] += 1
            failed.append(seed)
            continue
        for name in ("keys", "resizes", "clicks"):
            totals[name] += getattr(outcome, name)
        totals["crash reports"] += len(outcome.crash_reports)
        totals["disagreements"] += len(outcome.disagreements)
        screens |= outcome.screens
        bad = outcome.crash_reports or outcome.disagreements
        print(
            f"seed {seed}: {outcome.keys} keys, {outcome.resizes} resizes, {outcome.clicks} clicks, "
            f"{outcome.sessions} session(s), {len(outcome.crash_reports)} crash reports, "
            f"{len(outcome.disagreements)} disagreements, {time.monotonic() - began:.0f} s, "
            f"screens: {', '.join(sorted(outcome.screens))}",
            flush=True,
        )
        for line in [*map(str, outcome.crash_reports), *outcome.disagreements]:
            print(f"    {line}", flush=True)
        if bad:
            failed.append(seed)
    first = options.first_seed + options.seeds
    for seed in range(first, first + options.terminal_runs):
        sent, ending, ended, reports = terminal_run(seed, options.keys)
        totals["keys"] += sent
        totals["crash reports"] += len(reports)
        print(f"terminal seed {seed}: {sent} keys, ended by {ending}: {'ended' if ended else 'STILL RUNNING after 5 s'}, "
              f"{len(reports)} crash reports", flush=True)
        for report in reports:
            print(f"    {report}", flush=True)
        # Ended under the keys with status 0: a quit the keys reached (the palette's Quit).
        if reports or not ended or (ending.startswith("itself") and "status 0)" not in ending):
            failed.append(seed)
            totals["crashes"] += not ended
    time.sleep(0.5)  # a launched `true` browser that has not ended yet
    left = live_children()
    print(
        f"\nseeds {options.first_seed}..{first + options.terminal_runs - 1}: "
        + ", ".join(f"{value} {name}" for name, value in totals.items())
        + f", {len(left)} processes left behind, {time.monotonic() - started:.0f} s"
    )
    print(f"screens reached: {', '.join(sorted(screens))}")
    for child in left:
        print(f"    left behind: {child}")
    if failed:
        print(f"failed seeds: {failed}")
    return 1 if failed or left else 0


if __name__ == "__main__":
    sys.exit(main())
