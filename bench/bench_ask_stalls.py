#!/usr/bin/env python3
"""Ask about a big topic in the running app: how long the answer takes, and
how long the event loop (the keys) stalls meanwhile.

    python bench/bench_ask_stalls.py --cache DIR [--question Q] [--src PATH]

DIR is a data directory's parent holding config.toml and data/, such as the
B cache of `bench/run.py` (40,000 papers, topics of 10,000); it is copied
first, so the app's writes never touch it. The app runs headless (Textual's
`run_test`), shows the largest topic, and asks Q twice: the first time the
engine builds its search index (its papers read from the cache) and loads
the model, the second time (the question closed and asked again) it keeps
them. A task ticking every 10 ms on the app's event loop records how late
each tick is: a late tick is a key that would have waited as long.
Prints each Ask's time and its five worst stalls, and the collections the
garbage collector ran during the first one. `--src` measures another tree.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK_S = 0.01


class Ticker:
    """Lateness of a 10 ms tick on the running loop, while it runs."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self._task: asyncio.Task | None = None

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    async def _tick(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(TICK_S)
            self.late.append(time.perf_counter() - started - TICK_S)

    def worst(self, count: int = 5) -> str:
        return ", ".join(f"{late * 1000:.0f}" for late in sorted(self.late, reverse=True)[:count]) + " ms"


class Collections:
    """The collector's runs (generation, milliseconds) while it is attached."""

    def __init__(self) -> None:
        self.runs: list[tuple[int, float]] = []
        self._started = 0.0

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.runs.append((info["generation"], (time.perf_counter() - self._started) * 1000))

    def __str__(self) -> str:
        slow = [f"gen {generation} {ms:.0f} ms" for generation, ms in self.runs if ms >= 5]
        return f"{len(self.runs)} collections; those over 5 ms: {', '.join(slow) or 'none'}"


async def ask(pilot, main, question: str) -> float:
    """Ask `question` about the topic shown; seconds until its answer is the list."""
    started = time.perf_counter()
    await pilot.press("slash")
    main.query_one("#ask").value = question
    await pilot.press("enter")
    while not (main.asking.question == question and main.topic_view.cards is not None and main.topic_view.cards.highlight):
        await pilot.pause(0.01)
        if time.perf_counter() - started > 120:
            raise SystemExit(f"no answer to {question!r} in 120 s")
    return time.perf_counter() - started


async def measure(data: Path, question: str) -> None:
    from feedtui.config import load_config
    from feedtui.ui.run import build_app
    from feedtui.ui.widgets.topic_list import TopicList

    config = load_config(data.parent / "config.toml")
    app = build_app(config, data)
    async with app.run_test(size=(160, 48)) as pilot:
        main = app.main_screen
        while not (main.ready and main.current):
            await pilot.pause(0.05)
        biggest = max(main.query_one(TopicList).rows, key=lambda row: row.papers)
        main.go_to_topic(biggest.name)
        await pilot.pause(0.5)
        print(f"topic {biggest.name!r}: {biggest.papers:,} papers; question {question!r}")
        with Ticker() as first, Collections() as collections:
            took = await ask(pilot, main, question)
        print(f"  first Ask (index built)   {took:6.2f} s; worst stalls {first.worst()}")
        print(f"    {collections}")
        await pilot.press("escape")
        await pilot.pause(0.2)
        with Ticker() as second:
            took = await ask(pilot, main, question)
        print(f"  second Ask (index kept)   {took:6.2f} s; worst stalls {second.worst()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="a data directory's parent (config.toml, data/)")
    parser.add_argument("--question", default="federated", help="what to ask")
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the feedtui source tree to measure")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    with tempfile.TemporaryDirectory(prefix="ask-stalls-") as work:
        copy = Path(work) / "cache"
        shutil.copytree(args.cache, copy, symlinks=True)
        asyncio.run(measure(copy / "data", args.question))


if __name__ == "__main__":
    main()
