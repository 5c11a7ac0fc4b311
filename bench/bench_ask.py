#!/usr/bin/env python3
"""Ask about a topic: building its search index, and ranking a question.

    python bench/bench_ask.py [--feeds 50] [--entries 100] [--repeat 5] [--src PATH]
    python bench/bench_ask.py --cache DIR [--papers 5000] [--repeat 5] [--src PATH]

Renders FEEDS x ENTRIES papers with the suite's own generator (bench/feeds.py)
and reads them with feedtui's parser, so the index is built from the fields
the app has (display titles and abstracts, authors). Then prints the median
and range over REPEAT runs of `SearchIndex.build` over all of them (what the
first question about a topic waits for, after its papers are read from the
cache) and of `rank` for a few questions. `--src` measures another source tree.

With `--cache` (a data directory's parent holding config.toml and data/, such
as a sandbox `bench/run.py --keep` leaves, or bench_library.py's B cache), the
papers are instead the first PAPERS of the cache's largest topic, and reading
them from the cache (`Engine.papers`) is timed too, with the collector set as
the app sets it (`memory.IdleCollector`: youngest threshold 10,000, no
automatic full collections, the library frozen). So is what the app does
for a topic that large, `Engine.search_index`: worker processes read the
papers' files and index them in parts, merged here.
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


def generated_papers(feeds: int, entries: int) -> list:
    from bench.feeds import FeedSetSpec, render_feed
    from feedtui.sources.parse.route import parse_feed

    spec = FeedSetSpec(feeds, entries, 1, NOW)
    return [p for index in range(feeds) for p in parse_feed(render_feed(spec, index), "bench", now=NOW).papers]


def cached_papers(root: Path, count: int, repeat: int) -> tuple[list, list[float], list[float]]:
    import gc

    from feedtui.config import load_config
    from feedtui.core.engine import open_engine

    engine = open_engine(load_config(root / "config.toml"), root / "data")
    engine.load_library()
    library = engine.library
    largest = max(library.members, key=lambda name: len(library.members[name]))
    positions = library.topic_positions(largest)[:count]
    gc.freeze()
    gc.set_threshold(10_000, 10, 2**30)
    reads = timed(lambda: engine.papers(positions), repeat)
    papers = engine.papers(positions)
    # What the app does since the index of a large topic is built by workers
    # from the cache files (trees before that have no Engine.search_index).
    pooled = timed(lambda: engine.search_index(positions), repeat) if hasattr(engine, "search_index") else []
    engine.close()
    return papers, reads, pooled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feeds", type=int, default=50)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--cache", type=Path, help="a sandbox holding config.toml and data/")
    parser.add_argument("--papers", type=int, default=5000, help="with --cache: papers of the largest topic")
    args = parser.parse_args()
    sys.path[:0] = [str(args.src), str(ROOT)]

    from feedtui.search import SearchIndex

    reads: list[float] = []
    pooled: list[float] = []
    if args.cache:
        papers, reads, pooled = cached_papers(args.cache, args.papers, args.repeat)
    else:
        papers = generated_papers(args.feeds, args.entries)
    builds = timed(lambda: SearchIndex.build(papers), args.repeat)
    index = SearchIndex.build(papers)
    print(f"Ask over {len(papers):,} papers, {args.repeat} runs, {args.src} (median [min–max])")
    if reads:
        print(f"  read the papers  {figure(reads)}")
    print(f"  build the index  {figure(builds)}   {statistics.median(builds) / len(papers) * 1e6:.0f} µs per paper")
    if pooled:
        print(f"  read and build on every core (Engine.search_index)  {figure(pooled)}")
    for question in QUESTIONS:
        print(f"  rank {question!r:32} {figure(timed(lambda: index.rank(question), args.repeat))}")


if __name__ == "__main__":
    main()
