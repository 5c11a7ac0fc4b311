#!/usr/bin/env python3
"""Where a key's time goes, in the suite's key figure: j in a 10,000-card topic at 160×48 in tmux.

The suite's probe (bench/repaint.py) times each key from tmux's `send-keys` to
the last `%output` of its repaint. Here the app runs with two hooks that log
`time.monotonic()` (the probe's clock): when Textual delivers the key, and
when the frame's bytes have been written to the terminal. Each key's time
then splits into
  input     send-keys → the app has the key (tmux, the pty, Textual's input thread)
  app       the key → its frame written (dispatch, the frame, its escape codes)
  terminal  written → the probe's last %output (tmux takes in the frame, relays it)

    python bench/key_path.py [--keys 300] [--work DIR] [--src SRC]

The B cache (40,000 papers) is built in --work the first time, as the suite
builds it (half a minute).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/key_path.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import os
import statistics
import tempfile
import time

LOG_ENV = "FEEDTUI_KEY_PATH_LOG"


def run_app(argv: list[str]) -> int:
    """The app with its two hooks (the child side of this script)."""
    from textual import events
    from textual.app import App
    from textual.drivers.linux_driver import LinuxDriver

    log = open(os.environ[LOG_ENV], "w", buffering=1)
    write, on_event = LinuxDriver.write, App.on_event

    def logged_write(self, data: str) -> None:
        write(self, data)
        log.write(f"{time.monotonic():.6f} written {len(data)}\n")

    async def logged_on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            log.write(f"{time.monotonic():.6f} key {event.key}\n")
        await on_event(self, event)

    LinuxDriver.write = logged_write  # type: ignore[method-assign]
    App.on_event = logged_on_event  # type: ignore[method-assign]
    from feedtui.cli import main

    return main(argv)


def measure(keys: int, work: Path, src: Path) -> None:
    from bench import feedtui_app
    from bench.run import SET_L, Suite, build_parser
    from bench.server import FeedServer

    suite = Suite(build_parser().parse_args(["--runs", "1", "--work", str(work), "--src", str(src)]))
    log_path = suite.scratch / "key-path.log"
    launcher = feedtui_app.Launcher(
        (sys.executable, str(Path(__file__).resolve()), "--app"),
        (("PYTHONPATH", str(src)), (LOG_ENV, str(log_path))),
    )
    sent: list[float] = []
    answered: list[float | None] = []
    try:
        suite.feed_set("L", SET_L)
        with FeedServer(work / "feeds") as server:
            suite.server = server
            cache = suite.feedtui_cache("B")
        sandbox = feedtui_app.Sandbox(cache.root, launcher).copy(suite.scratch / "key-path")
        with feedtui_app.big_topic_in_focus(sandbox, "Bench B ", 160, 48, quiet_s=0.05) as (program, probe):
            for _ in range(keys):
                at = probe.send(["j"])
                sent.append(at)
                answered.append(probe.last_output_after(at))
            program.quit(["q"], 30)
        lines = log_path.read_text().splitlines()
    finally:
        suite.close()
    report(sent, answered, lines)


def split_keys(sent: list[float], answered: list[float | None], log_lines: list[str]) -> dict[str, list[float]]:
    """Each key's seconds as input / app / terminal / whole key, matched by order
    (the last len(sent) key arrivals in the app's log are the probe's keys)."""
    arrivals: list[float] = []
    writes: list[float] = []
    for line in log_lines:
        stamp, kind, detail = line.split(" ", 2)
        if kind == "key" and detail == "j":
            # Textual hands App.on_event each key twice (delivered, then
            # forwarded to the focused widget): keep the first.
            if not arrivals or float(stamp) - arrivals[-1] > 0.005:
                arrivals.append(float(stamp))
        elif kind == "written":
            writes.append(float(stamp))
    arrivals = arrivals[-len(sent):] if sent else []
    parts: dict[str, list[float]] = {"input": [], "app": [], "terminal": [], "whole key": []}
    for at, arrived, last in zip(sent, arrivals, answered):
        if last is None:
            continue
        done = max((w for w in writes if arrived <= w <= last), default=None)
        if done is None:
            continue
        parts["input"].append(arrived - at)
        parts["app"].append(done - arrived)
        parts["terminal"].append(last - done)
        parts["whole key"].append(last - at)
    return parts


def report(sent: list[float], answered: list[float | None], log_lines: list[str]) -> None:
    parts = split_keys(sent, answered, log_lines)
    print(f"key path, {len(parts['whole key'])} × j in a 10,000-card topic, 160×48 in tmux (ms)")
    for name, values in parts.items():
        if not values:
            continue
        ms = sorted(1000 * v for v in values)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(f"  {name:10s} median {statistics.median(ms):6.2f}   p95 {p95:6.2f}   max {ms[-1]:6.2f}")


def main() -> int:
    if sys.argv[1:2] == ["--app"]:
        return run_app(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=300)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench", help="as bench/run.py's")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    args = parser.parse_args()
    measure(args.keys, args.work, args.src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
