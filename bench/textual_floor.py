"""The floor of figure 3 for any reader built on Textual: a bare Textual app
that paints the two lines the start-up timer waits for, and nothing else.

    python bench/textual_floor.py [TOPIC] [PAPERS]

It shows TOPIC (default "Bench A 000") in a sidebar and "Latest papers
(PAPERS)" over an empty pane, and quits on q. Timed by bench/tui_start.py
in tmux exactly as `feedtui` is, it gives what importing Textual, starting
its driver and painting a first frame cost on this machine: what feedtui's
start takes beyond it is feedtui's own (its config, data directory, paper
index, sidebar and list).
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static


class FloorApp(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, topic: str, papers: int) -> None:
        super().__init__()
        self.topic = topic
        self.papers = papers

    def compose(self) -> ComposeResult:
        sidebar = Static(self.topic, markup=False)
        sidebar.styles.width = 30
        with Horizontal():
            yield sidebar
            with Vertical():
                yield Static(f"Latest papers ({self.papers:,})", markup=False)


def main(argv: list[str]) -> int:
    topic = argv[0] if argv else "Bench A 000"
    papers = int(argv[1]) if len(argv) > 1 else 5000
    FloorApp(topic, papers).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
