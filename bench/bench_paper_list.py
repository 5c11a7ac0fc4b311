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
latter is what holding `j` feels like. For scale, the same presses are
measured on a trivial Line-API widget that scrolls the same way but draws
ready-made lines: Textual's own cost of a key and a full repaint.

The rare long outliers (the max) are mostly full garbage collections of the
heap (10,000 cards and their strings); `--gc-freeze` shows the effect of
`gc.freeze()` once the data is loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import textual
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from feedtui.store.codec import shorten_names  # noqa: E402
from feedtui.ui.cards import CardData  # noqa: E402
from feedtui.ui.widgets.paper_list import CARD_HEIGHT, PaperList  # noqa: E402

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
    sentences = [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."
        for _ in range(rng.randint(3, 9))
    ]
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

    def render_line(self, y: int) -> Strip:
        self.lines_drawn += 1
        return super().render_line(y)


class FloorList(ScrollView, can_focus=True):
    """Textual's own cost, for comparison: a Line-API widget of the same size
    whose `j` scrolls like the paper list's (a card of CARD_HEIGHT lines at a
    time) but whose lines are ready-made strips (three segments each, like a
    card line) taken from a pool, so it does no work of its own."""

    POOL = 1_000

    BINDINGS = [Binding("j", "next", "Next")]

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count
        self.cursor = 0
        self.virtual_size = Size(0, count * CARD_HEIGHT)
        self.lines_drawn = 0
        self.pool: list[Strip] = []

    def action_next(self) -> None:
        self.cursor = min(self.cursor + 1, self.count - 1)
        view = self.scrollable_content_region.height
        bottom = (self.cursor + 1) * CARD_HEIGHT
        if bottom > self.scroll_y + view:
            self.scroll_to(y=bottom - view, animate=False, force=True)
        self.refresh()

    def go_to(self, index: int) -> None:
        self.cursor = index
        self.scroll_to(y=index * CARD_HEIGHT, animate=False, force=True)

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.scrollable_content_region.width
        if not self.pool or self.pool[0].cell_length != width:
            base = self.rich_style
            bold = base + Style(bold=True)
            self.pool = [
                Strip([Segment("   ", base), Segment(f"line {n} of invented text", bold), Segment(" " * width, base)])
                .crop(0, width)
                for n in range(self.POOL)
            ]
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        self.lines_drawn += 1
        return self.pool[(round(self.scroll_y) + y) % self.POOL]


class BenchApp(App):
    CSS_PATH = STYLES

    def __init__(self, make_list: Callable[[], ScrollView]) -> None:
        super().__init__()
        self.make_list = make_list
        self.frames: list[tuple[float, float, int]] = []  # (wall, cpu, cursor) per frame
        self.first_list_frame: float | None = None
        self.frame_seen = asyncio.Event()

    @property
    def the_list(self):
        return self.query_one(ScrollView)

    def compose(self) -> ComposeResult:
        yield self.make_list()

    def on_mount(self) -> None:
        self.the_list.focus()

    def _display(self, screen: Screen, renderable) -> None:
        super()._display(screen, renderable)
        if renderable is None:
            return
        if hasattr(renderable, "render_segments"):
            renderable.render_segments(self.console)
        now = time.perf_counter()
        the_list = self.the_list
        if self.first_list_frame is None and the_list.lines_drawn:
            self.first_list_frame = now
        self.frames.append((now, time.thread_time(), the_list.cursor))
        self.frame_seen.set()

    async def first_frame(self) -> float:
        while self.first_list_frame is None:
            self.frame_seen.clear()
            await asyncio.wait_for(self.frame_seen.wait(), timeout=10)
        return self.first_list_frame


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


@dataclass
class Press:
    wall: float  # key sent -> frame handed to the driver
    cpu: float  # CPU time of the app's thread in that interval
    scrolled: bool  # the list scrolled, so all of it was repainted


async def key_latencies(app: BenchApp, pilot, presses: int, interval: float) -> list[Press]:
    the_list = app.the_list
    the_list.go_to(0)
    await pilot.pause()
    results = []
    for _ in range(presses):
        if interval:
            await asyncio.sleep(interval)
        expected = the_list.cursor + 1
        scroll_before = the_list.scroll_y
        started, cpu_started = time.perf_counter(), time.thread_time()
        await pilot.press("j")
        painted, cpu_painted = await frame_with_cursor(app, expected, started)
        results.append(Press(painted - started, cpu_painted - cpu_started, the_list.scroll_y != scroll_before))
    return results


def summary(values: list[float]) -> str:
    if not values:
        return "(none)"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   "
        f"max {ordered[-1] * 1000:6.2f} ms   (n={len(ordered)})"
    )


def report(label: str, presses: list[Press]) -> None:
    scrolled = [press for press in presses if press.scrolled]
    print(f"  {label}")
    print(f"    wall                {summary([press.wall for press in presses])}")
    print(f"    CPU                 {summary([press.cpu for press in presses])}")
    print(f"    wall, scrolled only {summary([press.wall for press in scrolled])}")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


async def measure(make_list: Callable[[], ScrollView], args: argparse.Namespace) -> None:
    app = BenchApp(make_list)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        first = await app.first_frame()
        if isinstance(app.the_list, TimedPaperList):
            print(f"  first frame: {(first - started) * 1000:.1f} ms from app start, "
                  f"{(first - app.the_list.mounted_at) * 1000:.1f} ms from the list's mount")
        report("j -> repaint, back to back", await key_latencies(app, pilot, args.presses, 0.0))
        paced = f"j -> repaint, {args.repeat_rate:g} keys/s"
        report(paced, await key_latencies(app, pilot, args.presses, 1 / args.repeat_rate))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--presses", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat-rate", type=float, default=30.0, help="keys per second for the paced run")
    parser.add_argument("--no-floor", action="store_true", help="skip the trivial-widget comparison")
    parser.add_argument(
        "--gc-freeze", action="store_true", help="gc.freeze() once the cards are built, as an app could"
    )
    args = parser.parse_args()
    args.presses = min(args.presses, args.cards - 1)

    rng = random.Random(args.seed)
    source = ListSource([invented_card(rng, number) for number in range(args.cards)])
    if args.gc_freeze:
        gc.freeze()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}, textual {textual.__version__}; load average {load()}")
    print(f"{args.cards:,} cards, terminal 120x40, {args.presses:,} presses of j per run"
          f"{', gc.freeze() after building them' if args.gc_freeze else ''}")
    print("PaperList:")
    await measure(lambda: TimedPaperList(source), args)
    if not args.no_floor:
        print("Textual's floor (a Line-API widget drawing ready-made lines, same scrolling):")
        await measure(lambda: FloorList(args.cards), args)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    asyncio.run(main())
