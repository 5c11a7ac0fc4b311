#!/usr/bin/env python3
"""Parse speed: the fast arXiv-API path against the feedparser path, on generated feeds.

Generates FEEDS x ENTRIES arXiv-API-style feeds with the suite's own
generator (bench/feeds.py, the feeds of the refresh figures) or, with --gen,
with another gen_feeds.py (such as ../shared/bench/gen_feeds.py, whose
--style is legacy or 2025), then parses every feed REPEAT times with each path and prints the median and range of the time
per 100-entry feed and per entry — wall time and the process's CPU time (the
latter is less disturbed by other work on the machine). Rows:

  fast path                parse_feed (ElementTree), everything included
  fast path, no LaTeX      the same with LaTeX rendering replaced by identity
  feedparser path          parse_feed_with_feedparser (what the fast path replaces)
  feedparser alone         feedparser.parse only, no Papers built (the floor of that path)

    python bench/bench_parse.py [--feeds 50] [--entries 100] [--repeat 3] [--gen PATH [--style legacy|2025]]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

import feedparser  # noqa: E402

from feedtui.sources.parse import text as parse_text  # noqa: E402
from feedtui.sources.parse.route import parse_feed, parse_feed_with_feedparser  # noqa: E402

NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


def own_feeds(feeds: int, entries: int) -> list[bytes]:
    from bench.feeds import FeedSetSpec, render_feed

    spec = FeedSetSpec(feeds, entries, 1, NOW)
    return [render_feed(spec, index) for index in range(feeds)]


def generate(generator: Path, out: Path, feeds: int, entries: int, style: str) -> list[bytes]:
    subprocess.run(
        [
            sys.executable,
            str(generator),
            str(out),
            "--feeds",
            str(feeds),
            "--entries",
            str(entries),
            "--seed",
            "1",
            "--now",
            "2026-11-29",
            "--style",
            style,
        ],
        check=True,
        capture_output=True,
    )
    return [path.read_bytes() for path in sorted(out.glob("feed-*.xml"))]


def measure(parse: Callable[[bytes], object], documents: list[bytes], repeat: int) -> tuple[list[float], list[float]]:
    """Seconds per document, wall and CPU, over every document and repetition."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeat):
        for data in documents:
            started_wall, started_cpu = time.perf_counter(), time.process_time()
            parse(data)
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started_wall)
    return wall, cpu


def row(label: str, samples: tuple[list[float], list[float]], entries: int) -> str:
    wall, cpu = samples
    per_feed = 100 / entries * 1000  # ms per 100-entry feed, from seconds per feed

    def figure(values: list[float]) -> str:
        median = statistics.median(values)
        return (
            f"{median * per_feed:8.2f} ms ({min(values) * per_feed:6.2f}–{max(values) * per_feed:7.2f})"
            f"  {median / entries * 1000:7.4f} ms/entry"
        )

    return f"{label:<22} wall {figure(wall)}   cpu {figure(cpu)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feeds", type=int, default=50)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gen", help="another generator's gen_feeds.py (default: the suite's bench/feeds.py)")
    parser.add_argument("--style", choices=["legacy", "2025"], default="legacy", help="--gen's layout")
    args = parser.parse_args()

    if args.gen:
        if not Path(args.gen).is_file():
            sys.exit(f"no feed generator at {args.gen}")
        with tempfile.TemporaryDirectory() as temp:
            documents = generate(Path(args.gen), Path(temp) / "feeds", args.feeds, args.entries, args.style)
        layout = f"{args.style} layout of {args.gen}"
    else:
        documents = own_feeds(args.feeds, args.entries)
        layout = "the suite's API layout"
    for data in documents[:1]:
        fast, slow = parse_feed(data, "bench", now=NOW), parse_feed_with_feedparser(data, "bench", now=NOW)
        if fast != slow:
            sys.exit("the two paths disagree on the first feed: not benchmarking")

    def fast(data: bytes) -> object:
        return parse_feed(data, "bench", now=NOW)

    def feedparser_path(data: bytes) -> object:
        return parse_feed_with_feedparser(data, "bench", now=NOW)

    def feedparser_alone(data: bytes) -> object:
        return feedparser.parse(io.BytesIO(data))

    rows = [("fast path", measure(fast, documents, args.repeat))]
    render = parse_text.latex_to_unicode
    parse_text.latex_to_unicode = lambda text, **_: text
    try:
        rows.append(("fast path, no LaTeX", measure(fast, documents, args.repeat)))
    finally:
        parse_text.latex_to_unicode = render
    slow_repeat = max(1, args.repeat // 3)
    rows.append(("feedparser path", measure(feedparser_path, documents, slow_repeat)))
    rows.append(("feedparser alone", measure(feedparser_alone, documents, slow_repeat)))

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"parse: {len(documents)} feeds x {args.entries} entries ({layout}), "
        f"{args.repeat} rounds (feedparser rows {slow_repeat}); "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, feedparser {feedparser.__version__}, "
        f"load average {load:.2f}"
    )
    print("median per 100-entry feed (min–max) and per entry")
    for label, samples in rows:
        print(row(label, samples, args.entries))
    fast_cpu, fast_plain_cpu, slow_cpu, floor_cpu = (statistics.median(samples[1]) for _, samples in rows)
    print(f"fast path is {slow_cpu / fast_cpu:.1f}x faster than the feedparser path (CPU medians, both with LaTeX)")
    print(f"fast path without LaTeX takes {fast_plain_cpu / floor_cpu:.1%} of the time of feedparser alone")


if __name__ == "__main__":
    main()
