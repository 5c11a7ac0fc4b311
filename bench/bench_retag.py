#!/usr/bin/env python3
"""Retagging a 50,000-paper cache: adding a topic, and recomputing every topic.

    /work/venv/bin/python bench/bench_retag.py [--papers 50000] [--runs 5] [--work DIR]

Builds a cache the way refreshes do — `bench/feeds.py` arXiv API feeds (50
feeds of papers/50 entries, invented text, ~1,200-character abstracts),
parsed by `parse_feed` and stored with `PaperCache.store` — in `--work`
(default `$TMPDIR/feedtui-bench-retag`), reused while its arguments match.
Then it times, as medians [min-max] over `--runs` of wall and CPU time:

  - `engine.compute_tags([T])` for one new topic T: a category-filtered query,
    an abstract phrase, an author, a broad two-word query;
  - `engine.compute_tags(all)`: every catalogue topic plus those four;
  - and, to show where the time goes, the two halves of a retag: reading
    every week's match file (`store.match.read_match_rows`) and tagging the
    rows already in memory (`tagging.tag_match_rows`); then the same for
    the full documents (`cache.iter_documents`, `tagging.tag_documents`),
    which is what a week without a current match file costs.

compute_tags reads every match file from disk (the OS page cache is warm
after the first run) and writes the tags file, as `feedtui topic add` does.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from bench.feeds import FeedSetSpec, render_feed  # noqa: E402
from feedtui.config import load_config  # noqa: E402
from feedtui.core.engine import Engine  # noqa: E402
from feedtui.model import TopicDefinition  # noqa: E402
from feedtui.sources.parse.route import parse_feed  # noqa: E402
from feedtui.store.match import read_match_rows  # noqa: E402
from feedtui.topics.tagging import MATCH_ROWS_VERSION, build_matchers, tag_documents, tag_match_rows  # noqa: E402

NOW = datetime(2026, 11, 29, tzinfo=UTC)
FEEDS = 50
NEW_TOPICS = {
    "category filter": 'cat:cs.DC AND abs:"pipeline scheduler"',
    "abstract phrase": 'abs:"sparse attention"',
    "author": "au:varik",
    "two words": "abs:federated AND abs:drift",
}


def build_cache(work: Path, papers: int) -> Path:
    """The data directory holding a cache of `papers` papers (built once, then reused)."""
    spec = FeedSetSpec(feeds=FEEDS, entries=papers // FEEDS, seed=1, now=NOW)
    data = work / f"data-{spec.feeds}x{spec.entries}"
    marker = data / "bench-retag.json"
    wanted = {"spec": spec.to_json(), "version": 2}  # 2: with match files
    if marker.exists() and json.loads(marker.read_text()) == wanted:
        return data
    engine = Engine(load_config(work / "none.toml"), data, background_writes=False, clock=lambda: NOW)
    started = time.perf_counter()
    papers_parsed = []
    for index in range(spec.feeds):
        parsed = parse_feed(render_feed(spec, index), f"https://export.arxiv.org/api/query?feed={index}", now=NOW)
        papers_parsed.extend(parsed.papers)
        print(f"\rbuilding the cache: parsed feed {index + 1}/{spec.feeds}", end="", file=sys.stderr)
    engine.cache.store(papers_parsed, known={}, now=NOW)
    engine.close()
    print(f"\rbuilt {spec.feeds * spec.entries:,} papers in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    marker.write_text(json.dumps(wanted))
    return data


Timing = tuple[list[float], list[float]]


def timed(runs: int, action: Callable[[], object]) -> Timing:
    """Wall and CPU seconds of each run (CPU time is less disturbed by other
    work on a shared machine)."""
    walls, cpus = [], []
    for _ in range(runs):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return walls, cpus


def row(label: str, timing: Timing, note: str = "") -> str:
    cells = [f"{statistics.median(v):.2f} s [{min(v):.2f}-{max(v):.2f}]" for v in timing]
    return f"| {label} | {cells[0]} | {cells[1]} | {note} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench-retag")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    data = build_cache(args.work, args.papers)

    engine = Engine(load_config(args.work / "none.toml"), data, background_writes=False, clock=lambda: NOW)
    for name, query in NEW_TOPICS.items():
        if name not in engine.registry:
            engine.add_topic(name, TopicDefinition(query=query))
    cached = len(engine.library)
    lines = [
        f"retag on {cached:,} cached papers ({os.cpu_count()} cores, Python {sys.version.split()[0]}), "
        f"median [min-max] of {args.runs} runs",
        "",
        "| what | wall | CPU | matches |",
        "|---|---|---|---|",
    ]
    for name, query in NEW_TOPICS.items():
        found: dict[str, set[str]] = {}

        def add_one(name: str = name) -> None:
            found.update(engine.compute_tags([name]))

        times = timed(args.runs, add_one)
        lines.append(row(f"new topic, {name}: `{query}`", times, f"{len(found[name]):,}"))
    everything = engine.registry.names()
    times = timed(args.runs, lambda: engine.compute_tags(everything))
    lines.append(row(f"every topic ({len(everything)})", times, ""))

    rows: dict[str, list] = {}

    def read_rows() -> None:
        rows.clear()
        for path in engine.cache.shard_paths():
            week = read_match_rows(path, MATCH_ROWS_VERSION)
            if week is None:
                sys.exit(f"{path}: no current match file")
            rows.update(week)

    documents: list[tuple[str, dict]] = []

    def read_documents() -> None:
        documents.clear()
        for _shard, docs in engine.cache.iter_documents():
            documents.extend(docs.items())

    lines.append(row("  of which: read every match file", timed(args.runs, read_rows), f"{len(rows):,} rows"))
    tag_sets = (("one topic (abstract phrase)", ["abstract phrase"]), (f"every topic ({len(everything)})", everything))
    for label, names in tag_sets:
        matchers = build_matchers(engine.registry.entries[n] for n in names)
        times = timed(args.runs, lambda matchers=matchers: tag_match_rows(rows, matchers))
        lines.append(row(f"  of which: tag match rows in memory, {label}", times, ""))
    lines.append("| a week without a current match file is read whole instead: | | | |")
    lines.append(row("  read every papers shard", timed(args.runs, read_documents), f"{len(documents):,} documents"))
    for label, names in tag_sets:
        matchers = build_matchers(engine.registry.entries[n] for n in names)
        times = timed(args.runs, lambda matchers=matchers: tag_documents(documents, matchers))
        lines.append(row(f"  tag documents in memory, {label}", times, ""))
    engine.close()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
