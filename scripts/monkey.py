#!/usr/bin/env python3
"""The long random-key run of the reader (the suite runs a short one).

    python scripts/monkey.py [--seeds 10] [--keys 2000] [--first-seed 1]

Each seed drives the demo reader, headless, in its own temporary data
directory with `--keys` random keys, resizes and mouse clicks over every
screen (see tests/ui/monkey.py), then reads the marks back with the CLI as
real processes. Prints, per seed and in all: keys sent, resizes, clicks,
screens reached, crash reports, disagreements with the CLI, uncaught
exceptions, and processes left behind. A failing seed is rerun with
`--first-seed SEED --seeds 1`. Exit status 1 on any failure.
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
    time.sleep(0.5)  # a launched `true` browser that has not ended yet
    left = live_children()
    print(
        f"\nseeds {options.first_seed}..{options.first_seed + options.seeds - 1}: "
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
