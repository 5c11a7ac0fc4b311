"""The floors of figures 3 and 5 for any reader built on Textual: a bare
Textual app that draws what the timers wait for, and nothing else.

    python bench/textual_floor.py [TOPIC] [PAPERS]           figure 3
    python bench/textual_floor.py --cards 10000 [TOPIC]      figure 5

It shows TOPIC (default "Bench A 000") in a sidebar and "Latest papers
(PAPERS)" over the pane, and quits on q. Timed by bench/tui_start.py in tmux
exactly as `feedtui` is, it gives what importing Textual, starting its
driver and painting a first frame cost on this machine: what feedtui's start
takes beyond it is feedtui's own (its config, data directory, paper index,
sidebar and list).

With --cards N the pane is a list of N cards of CARD_LINES lines, drawn with
Textual's Line API from ready-made lines (so the list does no work of its
own), with a cursor that j moves down a card, the lines moving up with it
once it reaches the bottom, as the paper list's do. Timed by bench/repaint.py
as feedtui's list is, it gives Textual's and the terminal's cost of a key
and a repaint of the whole list.
"""

from __future__ import annotations

import argparse
import sys

from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

CARD_LINES = 3
# Distinct ready-made lines; the list shows them in turn.
LINE_POOL = 1_000


class CardLines(Widget, can_focus=True):
    """N cards of ready-made lines and a cursor; j moves it a card down.

    It keeps its own first line rather than being a ScrollView: a scroll
    repaints in a second frame (the scrollbar and the scroll offset's
    watchers), so one key would cost two frames and the figure would be a
    ScrollView's, not the floor. Every j repaints the whole list in one."""

    BINDINGS = [Binding("j", "next", "Next card")]

    def __init__(self, cards: int) -> None:
        super().__init__()
        self.cards = cards
        self.cursor = 0
        self.top = 0
        self._pool: list[Strip] = []
        self._pool_width = -1
        self._selected = Style(reverse=True)

    def action_next(self) -> None:
        self.cursor = min(self.cursor + 1, self.cards - 1)
        bottom = (self.cursor + 1) * CARD_LINES
        self.top = max(self.top, bottom - self.size.height)
        self.refresh()

    def _lines(self, width: int) -> list[Strip]:
        if self._pool_width != width:
            plain, bold, dim = Style(), Style(bold=True), Style(dim=True)
            self._pool = [
                Strip([Segment(f" 2026-11-{n % 28 + 1:02d} ", dim), Segment(f"cs.{n % 7} ", plain), Segment(f"Invented line {n} of a card", bold)])
                .extend_cell_length(width)
                .crop(0, width)
                for n in range(LINE_POOL)
            ]
            self._pool_width = width
        return self._pool

    def render_line(self, y: int) -> Strip:
        line = self.top + y
        if line >= self.cards * CARD_LINES:
            return Strip.blank(self.size.width)
        strip = self._lines(self.size.width)[line % LINE_POOL]
        if line // CARD_LINES == self.cursor:
            strip = strip.apply_style(self._selected)
        return strip


class FloorApp(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, topic: str, papers: int, cards: int) -> None:
        super().__init__()
        self.topic = topic
        self.papers = papers
        self.cards = cards

    def compose(self) -> ComposeResult:
        sidebar = Static(self.topic, markup=False)
        sidebar.styles.width = 30
        with Horizontal():
            yield sidebar
            with Vertical():
                yield Static(f"Latest papers ({self.papers:,})", markup=False)
                if self.cards:
                    cards = CardLines(self.cards)
                    cards.styles.height = "1fr"  # the rows under the title, no more
                    yield cards

    def on_mount(self) -> None:
        if self.cards:
            self.query_one(CardLines).focus()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="textual_floor.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("topic", nargs="?", default="Bench A 000")
    parser.add_argument("papers", nargs="?", type=int, help="the count in the title (default: --cards, else 5000)")
    parser.add_argument("--cards", type=int, default=0, help="a list of this many cards, j moving its cursor")
    args = parser.parse_args(argv)
    papers = args.papers if args.papers is not None else (args.cards or 5000)
    FloorApp(args.topic, papers, args.cards).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
