#!/usr/bin/env python3
"""The first question about a 10,000-paper topic, in the reader, in tmux.

Opens the suite's B cache (40,000 papers, topics of 10,000) at 160×48, as the
key figure does, with the keyboard in the first big topic's list; asks
QUESTION there, and times Enter → the answer's title on screen (the topic's
search index is built for this first question, the papers read from the
cache). Then, on a fresh copy, asks and presses q 0.3 s after Enter, while
the index is being built, and times q → the reader gone.

    python bench/ask_tui.py [--runs 3] [--work DIR] [--src SRC]

The B cache is built in --work the first time, as the suite builds it (half
a minute); each run starts from a fresh copy of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/ask_tui.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import re
import shutil
import statistics
import tempfile
import time

QUESTION = "sparse attention"
ANSWERED = re.compile(r"Ask: " + re.escape(QUESTION) + r" — [\d,]+ papers?")


def first_answer(sandbox, *, quit_during_build: bool) -> float:
    """Seconds from Enter to the answer on screen, or with `quit_during_build`
    from q (pressed 0.3 s after Enter) to the reader's exit."""
    from bench.common import MeasureError
    from bench.feedtui_app import big_topic_in_focus

    with big_topic_in_focus(sandbox, "Bench B ", 160, 48, quiet_s=0.05) as (program, probe):
        probe.press("/")
        program.send_keys(*("Space" if ch == " " else ch for ch in QUESTION))
        probe.settle()
        asked = time.time()
        program.send_keys("Enter")
        if quit_during_build:
            time.sleep(0.3)
            gone = program.quit(["q"], 60)
            if gone is None:
                raise MeasureError("the reader did not quit within 60 s of q during an index build")
            return gone
        shown, screen, _, _ = program.wait_for([ANSWERED], poll_s=0.01, timeout=120)
        if shown is None:
            raise MeasureError(f"no answer to {QUESTION!r} within 120 s; screen:\n{screen}")
        program.quit(["Escape", "q"], 30)
        return shown - asked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench", help="as bench/run.py's")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    args = parser.parse_args()

    from bench.run import SET_L, Suite, build_parser
    from bench.server import FeedServer

    suite = Suite(build_parser().parse_args(["--runs", "1", "--work", str(args.work), "--src", str(args.src)]))
    answers: list[float] = []
    quits: list[float] = []
    try:
        suite.feed_set("L", SET_L)
        with FeedServer(args.work / "feeds") as server:
            suite.server = server
            cache = suite.feedtui_cache("B")
        for run in range(args.runs):
            for quitting, out in ((False, answers), (True, quits)):
                sandbox = cache.copy(suite.scratch / "ask")
                try:
                    out.append(first_answer(sandbox, quit_during_build=quitting))
                finally:
                    shutil.rmtree(sandbox.root)
    finally:
        suite.close()
    print(f"first Ask in a 10,000-paper topic, 160×48 in tmux, {args.runs} runs, {args.src} (median [min–max])")
    for label, values in (("Enter → answer shown", answers), ("q during the index build → gone", quits)):
        print(f"  {label:32s} {statistics.median(values):6.2f} s [{min(values):.2f}–{max(values):.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
