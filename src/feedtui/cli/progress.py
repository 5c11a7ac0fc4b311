"""What `feedtui refresh` shows while it works, and the line that sums it up.

On a terminal, one line drawn over itself: the sources done, what is under
way, a wait counted down each second. Without a terminal (cron), nothing but
a wait of LONG_WAIT_S or more, said once, so that a log explains a slow run.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from feedtui.core.events import RefreshActivity

if TYPE_CHECKING:
    from feedtui.core.events import RefreshProgress

# Without a terminal, `refresh` says nothing while it works, except a wait this long (cron's log says why it took so long).
LONG_WAIT_S = 30.0


class RefreshProgressView:
    """Told each source's end (`progress`) and what is under way (`activity`)
    by the engine's refresh; on a terminal it draws one line over itself,
    and without one it stays silent but for long waits."""

    def __init__(self, interactive: bool) -> None:
        from feedtui.core.fetch import Waiting

        self.interactive = interactive
        self._waiting = Waiting
        # The last source ended, shown again once a wait or a query's paging is over.
        self.ended = ""
        # Without a terminal: when each long wait said ends (by why), so that the
        # requests waiting in arXiv's lane behind the one told do not repeat it.
        self.waits_said: dict[str, float] = {}
        # The last activity told, drawn again each second while it is a wait.
        self.shown: RefreshActivity | None = None

    def progress(self, p: RefreshProgress) -> None:
        if self.interactive:
            mark = "ok" if p.ok else "FAILED"
            self.ended = f"[{p.done}/{p.total}] {mark} {p.label[:60]}"
            _progress_line(self.ended)
            if self.shown is not None:
                self.shown = RefreshActivity(p.done, p.total, self.shown.activity)

    def activity(self, p: RefreshActivity) -> None:
        if self.interactive:
            self.shown = p
            count = f"[{p.done}/{p.total}]"
            _progress_line(f"{count} {p.activity.text(40)}" if p.activity else self.ended or f"{count} refreshing…")
        elif isinstance(wait := p.activity, self._waiting) and wait.seconds >= LONG_WAIT_S:
            # No progress line without a terminal, but a long silence is
            # explained, once: not again for a wait begun while it lasted.
            if wait.until - wait.seconds >= self.waits_said.get(wait.why, 0.0):
                self.waits_said[wait.why] = wait.until
                print(f"feedtui: {wait.text()}", file=sys.stderr)

    def count_down(self) -> None:
        """Each second: a wait on the line counts down."""
        if self.shown is not None and isinstance(self.shown.activity, self._waiting):
            self.activity(self.shown)

    def clear(self) -> None:
        """The line is wiped before the report is written under it."""
        if self.interactive:
            sys.stderr.write("\r\x1b[K")


async def ticking(work, tick: Callable[[], None], every_s: float = 1.0):
    """`await work`, calling `tick` every `every_s` seconds meanwhile."""

    async def ticks() -> None:
        while True:
            await asyncio.sleep(every_s)
            tick()

    ticker = asyncio.create_task(ticks())
    try:
        return await work
    finally:
        ticker.cancel()


def _progress_line(text: str) -> None:
    """Draw the one progress line of `refresh` on the terminal, over the last."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except OSError:
        columns = 0
    # A terminal that does not say its size (0 columns) is taken as 80 wide.
    sys.stderr.write(f"\r\x1b[K{text[: max(columns or 80, 21) - 1]}")
    sys.stderr.flush()


def say_what_was_kept(stopped, interactive: bool) -> None:
    """Ctrl-C during a refresh: the papers stored before it ended are kept.
    Stopped by SIGHUP, stderr may be a terminal that has closed: the write
    fails (EIO), and that must not take the place of the stop."""
    new, updated = (stopped.new_papers, stopped.updated_papers) if stopped is not None else (0, 0)
    try:
        if interactive:
            sys.stderr.write("\r\x1b[K")
        print(f"feedtui: {new:,} new, {updated:,} updated papers stored before it stopped", file=sys.stderr)
    except OSError:
        pass


def refresh_summary(report) -> str:
    """`2 new, 0 updated papers from 3 of 5 sources; 1 failed, 1 skipped`: the
    sources that answered, of all the refresh had, and what became of the rest."""
    total, answered, failed = len(report.sources), len(report.fetched), len(report.failed)
    skipped = total - answered - failed
    sources = f"{answered}" if answered == total else f"{answered} of {total}"
    rest = f"{failed} failed" + (f", {skipped} skipped" if skipped else "")
    return (
        f"{report.new_papers:,} new, {report.updated_papers:,} updated papers from {sources} "
        f"source{'' if total == 1 else 's'}; {rest}"
    )
