#!/usr/bin/env python3
"""Discovery's speed and memory on a large cache: Ask over the whole cache,
Related, For you, and computing the vectors.

    python bench/bench_discovery_speed.py --data DIR [--papers 40000] [--repeat 7] [--src PATH]

DIR is a data directory; when it holds no papers, PAPERS papers are made
with the suite's generator (bench/feeds.py: 200 feeds x 200 entries for
40,000) and stored in it first, which takes a minute or two; the same DIR
is reused by later runs. Each run is a fresh process, so memory is the
process's own:

  vectors     Engine.compute_vectors() for papers lacking them (ms per paper;
              only on the first run over DIR, or with --recompute)
  ask cold    the first whole-cache Ask: builds the word index, loads the model
              and the vectors
  ask         whole-cache Ask, warm (median over the questions, REPEAT times)
  related     Engine.related (first call reads every paper's authors; then warm)
  for you     Engine.for_you with ten stars
  rss         resident memory before the first Ask, after it, and the peak

Prints median [min–max] in milliseconds, and MB for memory.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)
QUESTIONS = (
    "pipeline parallelism for large model training",
    "sparse attention accelerators",
    "how to schedule jobs on heterogeneous clusters",
    "graph neural networks on FPGAs",
    "energy efficient inference at the edge",
    "offloading computation from phones",
    "scheduling of networks",
)


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def figure(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:8.1f} ms [{min(times) * 1000:.1f}–{max(times) * 1000:.1f}]"


def build(data: Path, papers: int) -> None:
    from bench.feeds import FeedSetSpec, render_feed
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.sources.parse.route import parse_feed

    feeds = max(1, papers // 200)
    spec = FeedSetSpec(feeds, papers // feeds, 1, NOW)
    engine = Engine(Config(), data, clock=lambda: NOW)
    try:
        # A few large stores: each rewrites the weeks it touches, and the papers span them all.
        step = 40
        for first in range(0, feeds, step):
            batch = [p for i in range(first, min(first + step, feeds)) for p in parse_feed(render_feed(spec, i), "bench", now=NOW).papers]
            engine.cache.store(batch, {}, NOW)
        engine.follow("Heterogeneous Computing") if engine.has_topic("Heterogeneous Computing") else None
    finally:
        engine.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--papers", type=int, default=40_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--recompute", action="store_true", help="drop the stored vectors and compute them again")
    args = parser.parse_args()
    sys.path[:0] = [str(args.src), str(ROOT)]
    if not (args.data / "cache" / "papers").exists():
        started = time.perf_counter()
        build(args.data, args.papers)
        print(f"built {args.data} in {time.perf_counter() - started:.0f} s")
    if args.recompute:
        (args.data / "cache" / "vectors.bin").unlink(missing_ok=True)

    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.memory import IdleCollector

    engine = Engine(Config(), args.data, clock=lambda: NOW)
    try:
        library = engine.load_library()
        IdleCollector().start()  # the thresholds the app sets (no loop here: no idle collections)
        print(f"{len(library):,} papers, {args.repeat} runs, {args.src}")
        if not (args.data / "cache" / "vectors.bin").exists():
            started, cpu = time.perf_counter(), time.process_time()
            count = engine.compute_vectors()
            took, cpu = time.perf_counter() - started, time.process_time() - cpu
            print(f"  vectors       {took:8.1f} s for {count:,}: {took / max(count, 1) * 1000:.3f} ms per paper "
                  f"(CPU {cpu / max(count, 1) * 1000:.3f} ms, the tokenizer's threads included)")
            engine.release_discovery()
            import gc

            gc.collect()
        before, peak_before = rss_mb(), peak_mb()
        started = time.perf_counter()
        answer = engine.ask(QUESTIONS[0])
        cold = time.perf_counter() - started
        after = rss_mb()
        print(f"  ask cold      {cold * 1000:8.1f} ms (semantic: {answer.semantic} {answer.note})")
        print(f"  rss           {before:.1f} MB before Ask, {after:.1f} MB after (+{after - before:.1f}); "
              f"peak {peak_mb():.1f} MB (before Ask {peak_before:.1f})")
        times = []
        for _ in range(args.repeat):
            for question in QUESTIONS:
                started = time.perf_counter()
                engine.ask(question)
                times.append(time.perf_counter() - started)
        print(f"  ask           {figure(times)}")
        ids = library.ids[:: max(1, len(library) // 10)][:10]
        started = time.perf_counter()
        engine.related(ids[0])
        print(f"  related cold  {(time.perf_counter() - started) * 1000:8.1f} ms (reads every paper's authors)")
        times = []
        for _ in range(args.repeat):
            for paper_id in ids:
                started = time.perf_counter()
                engine.related(paper_id)
                times.append(time.perf_counter() - started)
        print(f"  related       {figure(times)}")
        engine.star(library.ids[5:1000:100])
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            result = engine.for_you()
            times.append(time.perf_counter() - started)
        print(f"  for you       {figure(times)} ({len(result.hits)} papers, fallback {result.fallback})")
        engine.unstar(library.ids[5:1000:100])
        print(f"  rss at end    {rss_mb():.1f} MB, peak {peak_mb():.1f} MB")
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
