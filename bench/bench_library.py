#!/usr/bin/env python3
"""The library's part of a 40,000-paper start, step by step.

Before Textual starts, `feedtui` reads the card index and the stored tags and
builds the library (`ui.run.build_app`); the first frame then asks for
every topic's momentum for the sidebar. This times those steps alone, on the
suite's B cache (200 feeds x 200 entries, 40,000 papers), built as
`bench/run.py` builds it (half a minute; feeds kept in --work) or given with
--cache (a kept sandbox holding config.toml and data/):

  index      PaperCache.load_index (every week's card index)
  tags       TagStore.load
  library    Library(rows, …)
  members    Library.set_members for every topic
  momenta    Engine.momenta() for every topic (as the sidebar asks)

Each run is a fresh process on --src (so two source trees can be compared
run by run), with the collector off as in the app; prints median [min-max]
in milliseconds.

    python bench/bench_library.py [--runs 7] [--work DIR | --cache DIR] [--src SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/bench_library.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

STEPS = ("index", "tags", "library", "members", "momenta")


def time_steps(root: Path) -> dict:
    """One run's milliseconds per step, and what was loaded (the child side).
    The steps are `Engine.load_library`'s, spelt out to be timed one by one."""
    import gc
    import time

    from feedtui.config import load_config
    from feedtui.core.engine import open_engine
    from feedtui.core.library import Library

    engine = open_engine(load_config(root / "config.toml"), root / "data")
    gc.disable()
    marks = [time.perf_counter()]
    load = engine.cache.load_index()
    marks.append(time.perf_counter())
    stored = engine.tags.load()
    marks.append(time.perf_counter())
    library = Library(load.rows, engine.state.read_view)
    marks.append(time.perf_counter())
    for entry in engine.registry:
        signature, ids = stored.get(entry.name, ("", []))
        library.set_members(entry.name, ids if signature == entry.signature else ())
    marks.append(time.perf_counter())
    engine._library = library
    gc.freeze()
    engine.momenta()
    marks.append(time.perf_counter())
    engine.close()
    return {
        "ms": {step: 1000 * (end - start) for step, start, end in zip(STEPS, marks, marks[1:])},
        "papers": len(library),
        "memberships": sum(map(len, library.members.values())),
    }


def run_children(root: Path, runs: int, src: Path) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(root)]
    return [
        json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]


def measure(args: argparse.Namespace) -> list[dict]:
    if args.cache is not None:
        return run_children(args.cache, args.runs, args.src)
    from bench.run import SET_L, Suite, build_parser
    from bench.server import FeedServer

    suite = Suite(build_parser().parse_args(["--runs", "1", "--work", str(args.work), "--src", str(args.src)]))
    try:
        suite.feed_set("L", SET_L)
        with FeedServer(args.work / "feeds") as server:
            suite.server = server
            root = suite.feedtui_cache("B").root
        return run_children(root, args.runs, args.src)
    finally:
        suite.close()


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(time_steps(Path(sys.argv[2]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench", help="as bench/run.py's")
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--cache", type=Path, help="a B cache kept from an earlier run (its config.toml and data/), instead of building one")
    args = parser.parse_args()
    runs = measure(args)
    print(
        f"library steps on a cache of {runs[0]['papers']:,} papers ({runs[0]['memberships']:,} in topics),"
        f" {args.runs} runs, {args.src} (ms, median [min-max])"
    )
    for step in (*STEPS, "total"):
        values = [sum(run["ms"].values()) if step == "total" else run["ms"][step] for run in runs]
        print(f"  {step:8s} {statistics.median(values):7.1f} [{min(values):.1f}-{max(values):.1f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
