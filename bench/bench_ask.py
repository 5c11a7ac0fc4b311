#!/usr/bin/env python3
"""Ask about a topic: building its search index, and ranking a question.

    python bench/bench_ask.py [--feeds 50] [--entries 100] [--repeat 5] [--src PATH]

Renders FEEDS x ENTRIES papers with the suite's own generator (bench/feeds.py)
and reads them with feedtui's parser, so the index is built from the fields
the app has (display titles and abstracts, authors). Then prints the median
and range over REPEAT runs of `SearchIndex.build` over all of them (what the
first question about a topic waits for, after its papers are read from the
cache) and of `rank` for a few questions. `--src` measures another source tree.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ("pipeline parallelism", "sparse attention accelerators", "graph", "scheduling of networks")
NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return times


def figure(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:8.1f} ms [{min(times) * 1000:.1f}–{max(times) * 1000:.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feeds", type=int, default=50)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    args = parser.parse_args()
    sys.path[:0] = [str(args.src), str(ROOT)]

    from bench.feeds import FeedSetSpec, render_feed
    from feedtui.search import SearchIndex
    from feedtui.sources.parse import parse_feed

    spec = FeedSetSpec(args.feeds, args.entries, 1, NOW)
    papers = [p for index in range(args.feeds) for p in parse_feed(render_feed(spec, index), "bench", now=NOW).papers]
    builds = timed(lambda: SearchIndex.build(papers), args.repeat)
    index = SearchIndex.build(papers)
    print(f"Ask over {len(papers):,} papers, {args.repeat} runs, {args.src} (median [min–max])")
    print(f"  build the index  {figure(builds)}   {statistics.median(builds) / len(papers) * 1e6:.0f} µs per paper")
    for question in QUESTIONS:
        print(f"  rank {question!r:32} {figure(timed(lambda: index.rank(question), args.repeat))}")


if __name__ == "__main__":
    main()
