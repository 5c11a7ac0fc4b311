"""Benchmark the paper list: first frame and key -> repaint latency.

    /work/venv/bin/python bench/bench_paper_list.py [--cards 10000] [--presses 1000]

Runs a headless Textual app (`App.run_test(size=(120, 40))`) holding one
`PaperList` over an in-memory source of invented cards and prints:

- first frame: from the app's start, and from the list's mount, to the first
  frame that contains lines drawn by the list;
- key -> repaint: for each `j`, from just before `pilot.press("j")` to the
  moment the frame showing the new cursor is handed to the driver.

How frames are seen: Textual composes a frame and passes it to
`App._display`; the headless driver then skips turning it into terminal
bytes. The bench app overrides `_display` to do that encoding anyway (so the
cost a real terminal pays is counted) and to timestamp the frame together
with the list's cursor at that moment. A key's latency ends at the first
frame after the press whose cursor is the new one.

Textual paints at most 60 frames a second (a frame waits for the next 1/60 s
tick when the previous frame was less than a tick ago), so presses sent
back to back include that wait. The figure is given back to back and with
presses paced at a keyboard's auto-repeat rate (30 keys a second) — the
latter is what holding `j` feels like.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import textual
from textual.app import App, ComposeResult
from textual.screen import Screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from feedtui.ui.cards import CardData, shorten_names  # noqa: E402
from feedtui.ui.widgets.paper_list import PaperList  # noqa: E402

STYLES = Path(__file__).resolve().parents[1] / "styles" / "paper_list.tcss"

SYLLABLES = ["ka", "lo", "mir", "ten", "sa", "vor", "qui", "ne", "dra", "pel", "zo", "ri", "tan", "bel"]
WORDS = [
    "sparse", "pipeline", "accelerator", "scheduling", "inference", "graph", "kernel", "latency",
    "heterogeneous", "edge", "memory", "bandwidth", "tensor", "compiler", "partition", "offload",
    "throughput", "quantised", "federated", "streaming", "cache", "placement", "adaptive", "runtime",
]
TOPICS = ["Edge Inference", "Heterogeneous Computing", "Pipeline Parallelism", "Sparse Kernels", "Graph Learning"]


def invented_name(rng: random.Random) -> str:
    def word() -> str:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()

    return f"{word()} {word()}"


def invented_card(rng: random.Random, number: int) -> CardData:
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18))).capitalize()
    sentences = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "." for _ in range(rng.randint(3, 9))]
    authors = [invented_name(rng) for _ in range(rng.randint(1, 12))]
    places = [f"University of {invented_name(rng).split()[0]}" for _ in range(rng.randint(0, 5))]
    return CardData(
        paper_id=f"2609.{number:05d}",
        date=f"Oct {1 + number % 28}, 2026",
        category=rng.choice(["cs.DC", "cs.LG", "cs.AR", "cs.PF"]),
        title=title,
        abstract=" ".join(sentences),
        authors=shorten_names(authors),
        affiliations=shorten_names(places, sep=" · "),
        tags=tuple(rng.sample(TOPICS, rng.randint(1, 4))),
        current_topic=TOPICS[1],
        read=rng.random() < 0.4,
        starred=rng.random() < 0.05,
    )


class ListSource:
    def __init__(self, cards: list[CardData]) -> None:
        self.cards = cards
        self.positions = {card.paper_id: index for index, card in enumerate(cards)}

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, index: int) -> CardData:
        return self.cards[index]

    def index_of(self, paper_id: str) -> int | None:
        return self.positions.get(paper_id)


class TimedPaperList(PaperList):
    """Counts the lines it draws and notes when it was mounted."""

    lines_drawn = 0
    mounted_at = 0.0

    def on_mount(self) -> None:
        self.mounted_at = time.perf_counter()

    def render_line(self, y: int):
        self.lines_drawn += 1
        return super().render_line(y)


class BenchApp(App):
    CSS_PATH = STYLES

    def __init__(self, source: ListSource) -> None:
        super().__init__()
        self.source = source
        self.frames: list[tuple[float, float, int]] = []  # (wall, cpu, cursor) per frame
        self.first_list_frame: float | None = None
        self.frame_seen = asyncio.Event()

    def compose(self) -> ComposeResult:
        yield TimedPaperList(self.source)

    def on_mount(self) -> None:
        self.query_one(PaperList).focus()

    def _display(self, screen: Screen, renderable) -> None:
        super()._display(screen, renderable)
        if renderable is None:
            return
        if hasattr(renderable, "render_segments"):
            renderable.render_segments(self.console)
        now = time.perf_counter()
        paper_list = self.query_one(TimedPaperList)
        if self.first_list_frame is None and paper_list.lines_drawn:
            self.first_list_frame = now
        self.frames.append((now, time.thread_time(), paper_list.cursor))
        self.frame_seen.set()


async def frame_with_cursor(app: BenchApp, cursor: int, after: float) -> tuple[float, float]:
    """Wall and CPU clock of the first frame after `after` showing `cursor`."""
    while True:
        found = None
        for moment, cpu, seen in reversed(app.frames):
            if moment < after:
                break
            if seen == cursor:
                found = (moment, cpu)
        if found is not None:
            return found
        app.frame_seen.clear()
        await asyncio.wait_for(app.frame_seen.wait(), timeout=5)


async def key_latencies(app: BenchApp, pilot, presses: int, interval: float) -> tuple[list[float], list[float]]:
    """Wall-clock latency of each press, and the CPU time the app's thread
    spent in it (which a busy machine does not inflate much)."""
    paper_list = app.query_one(PaperList)
    latencies, cpu_times = [], []
    for _ in range(presses):
        expected = min(paper_list.cursor + 1, paper_list.card_count - 1)
        if interval:
            await asyncio.sleep(interval)
        started, cpu_started = time.perf_counter(), time.thread_time()
        await pilot.press("j")
        painted, cpu_painted = await frame_with_cursor(app, expected, started)
        latencies.append(painted - started)
        cpu_times.append(cpu_painted - cpu_started)
    return latencies, cpu_times


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   "
        f"max {ordered[-1] * 1000:6.2f} ms   (n={len(ordered)})"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--presses", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat-rate", type=float, default=30.0, help="keys per second for the paced run")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    source = ListSource([invented_card(rng, number) for number in range(args.cards)])
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}, textual {textual.__version__}")
    print(f"load average before the run: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    print(f"{args.cards:,} cards, terminal 120x40, {args.presses:,} presses of j per run")

    app = BenchApp(source)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        while app.first_list_frame is None:
            app.frame_seen.clear()
            await asyncio.wait_for(app.frame_seen.wait(), timeout=10)
        paper_list = app.query_one(TimedPaperList)
        print(f"first frame: {(app.first_list_frame - started) * 1000:.1f} ms from app start, "
              f"{(app.first_list_frame - paper_list.mounted_at) * 1000:.1f} ms from the list's mount")
        for label, interval in (("back to back", 0.0), (f"{args.repeat_rate:g} keys/s", 1 / args.repeat_rate)):
            paper_list.go_to(0)
            await pilot.pause()
            wall, cpu = await key_latencies(app, pilot, args.presses, interval)
            print(f"j -> repaint, {label:13} wall: {summary(wall)}")
            print(f"j -> repaint, {label:13} CPU:  {summary(cpu)}")
    print(f"load average after the run: {' '.join(f'{load:.2f}' for load in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    asyncio.run(main())
