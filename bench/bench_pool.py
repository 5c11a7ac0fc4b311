"""What does httpx's connection pool cost a refresh's client, one pool against
feedtui's ShardedTransport (pools of sources.http.transport.SHARD_CONNECTIONS)?

GETs N feed files from bench/server.py (run in a process of its own, so its
work is not counted) with at most 64 in flight, as the Fetcher's default
concurrency allows, and prints wall time and this process's CPU time for each
kind of transport, median and range over the runs, alternating the two.

    python bench/bench_pool.py [--requests 200] [--runs 5] [--latency-ms 200]

The feeds are set A of bench/run.py (generated into --work if missing).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

import argparse
import asyncio
import resource
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime

import httpx

from bench.feeds import FeedSetSpec, feed_file_name, write_feed_set
from feedtui.sources.http.transport import ShardedTransport

CONCURRENCY = 64
SET_A = dict(feeds=50, entries=100, seed=1)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def fetch_all(transport: httpx.AsyncBaseTransport, base: str, requests: int) -> tuple[float, float]:
    gate = asyncio.Semaphore(CONCURRENCY)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:

        async def one(index: int) -> int:
            async with gate:
                response = await client.get(f"{base}/{feed_file_name(index % SET_A['feeds'])}")
                return len(response.content)

        cpu, wall = cpu_seconds(), time.perf_counter()
        sizes = await asyncio.gather(*(one(i) for i in range(requests)))
        if min(sizes) == 0:
            raise SystemExit("an empty answer: is the server serving the feeds?")
        return time.perf_counter() - wall, cpu_seconds() - cpu


def transport(kind: str) -> httpx.AsyncBaseTransport:
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    if kind == "one pool":
        return httpx.AsyncHTTPTransport(limits=limits, verify=False)
    return ShardedTransport(limits, verify=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench-pool")
    args = parser.parse_args()
    feeds = args.work / "A"
    if not (feeds / "manifest.json").exists():
        write_feed_set(FeedSetSpec(now=NOW, **SET_A), feeds)
    port_file = args.work / "port"
    port_file.unlink(missing_ok=True)
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "server.py"), str(args.work), "--latency-ms", str(args.latency_ms), "--port", "0", "--port-file", str(port_file)]
    )
    try:
        deadline = time.monotonic() + 10
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the feed server did not start")
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port_file.read_text().strip()}/A"
        kinds = ("one pool", "sharded")
        figures: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        for _ in range(args.runs):
            for kind in kinds:
                figures[kind].append(asyncio.run(fetch_all(transport(kind), base, args.requests)))
        print(f"{args.requests} GETs of set A's feeds, {CONCURRENCY} in flight, {args.latency_ms:g} ms latency; median [min-max] of {args.runs} runs")
        for kind in kinds:
            walls = [w for w, _ in figures[kind]]
            cpus = [c for _, c in figures[kind]]
            print(
                f"  {kind:9s} wall {statistics.median(walls):.3f} s [{min(walls):.3f}-{max(walls):.3f}]"
                f"  client CPU {statistics.median(cpus):.3f} s [{min(cpus):.3f}-{max(cpus):.3f}]"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
