"""The line above the footer: last refresh, refresh progress, a refresh that failed.

The progress bar is built by the first refresh, not with the line: until
then it would only be hidden, and its widgets (a bar, a percentage, an
estimate with a timer of its own) are work for the first frame.
"""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static


def papers_cached(count: int) -> str:
    return f"{count:,} paper{'s' if count != 1 else ''} cached"


class StatusLine(Horizontal):
    DEFAULT_CSS = """
    StatusLine { height: 1; }
    StatusLine > #status-text { width: 1fr; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    StatusLine > ProgressBar { width: 26; height: 1; margin-left: 1; display: none; }
    StatusLine > ProgressBar Bar { width: 20; }
    StatusLine.-refreshing > ProgressBar { display: block; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="status-text")

    def show(self, *, last_refresh: datetime | None, failed: str = "", note: str = "", papers: int = 0) -> None:
        """`failed`: the last refresh fetched nothing, and this is what failed
        (offline, or every source it asked answered with an error). The parts
        are set apart by a dot, the badge and what failed as well."""
        parts: list[tuple[str, str]] = []
        if failed:
            parts += [(" refresh failed ", "reverse bold"), (failed, "bold")]
        if last_refresh:
            parts.append((f"refreshed {last_refresh.astimezone():%a %H:%M}", "dim"))
        else:
            parts.append(("never refreshed", "dim"))
        parts.append((papers_cached(papers), "dim"))
        if note:
            parts.append((note, ""))
        text = Text()
        for index, (part, style) in enumerate(parts):
            text.append(f"  ·  {part}" if index else part, style=style)
        self.query_one("#status-text", Static).update(text)

    def show_refreshing(self, activity: str = "", *, papers: int = 0) -> None:
        """During a refresh: what it is at (paging a query, waiting), first, to be
        seen at 80 columns beside the bar, and the papers cached so far."""
        text = Text("refreshing…")
        if activity:
            text.append(f" {activity}")
        text.append(f"  ·  {papers_cached(papers)}", style="dim")
        self.query_one("#status-text", Static).update(text)

    def start_progress(self, total: int) -> None:
        from textual.widgets import ProgressBar

        bars = self.query_children(ProgressBar)
        if bars:
            bars.first().update(total=max(total, 1), progress=0)
        else:
            self.mount(ProgressBar(total=max(total, 1), show_eta=False, id="status-progress"))
        self.add_class("-refreshing")

    def advance(self, done: int, total: int) -> None:
        from textual.widgets import ProgressBar

        for bar in self.query_children(ProgressBar):
            bar.update(total=max(total, 1), progress=done)

    def stop_progress(self) -> None:
        self.remove_class("-refreshing")
