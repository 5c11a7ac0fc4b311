"""What `feedtui refresh` says while it waits on arXiv: the query being paged
and how far, and the waits arXiv asked for (on a terminal, one line redrawn)."""

from __future__ import annotations

import io
import re
import sys

from feedtui.cli import main
from feedtui.sources.http import pacing
from tests.held_feeds import held_api, paged_config

DRAW = "\r\x1b[K"


class Terminal(io.StringIO):
    """stderr as a terminal: `refresh` draws its progress line on it."""

    def isatty(self) -> bool:
        return True


def refresh_paged(tmp_path, api_url: str) -> int:
    config = paged_config(tmp_path, api_url)
    return main(["--data-dir", str(tmp_path / "data"), "--config", str(config), "refresh", "Paged"])


def test_the_progress_line_says_how_far_a_query_has_paged_and_what_it_waits_for(tmp_path, monkeypatch):
    """Only "[1/2] ok arXiv new-paper count" showed while a query paged, and
    nothing at all while arXiv's Retry-After was waited out. (The day's count
    of new papers is no longer counted among the sources: [0/1].)"""
    monkeypatch.setattr(pacing, "WAIT_WORTH_TELLING_S", 0.5)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with held_api(30, held_start=30, retry_after="1") as api:
        assert refresh_paged(tmp_path, api.url) == 0
    assert api.throttled == 1
    drawn = [line for line in terminal.getvalue().split(DRAW) if line]
    waits = [line for line in drawn if "waiting" in line]
    assert waits and all(re.fullmatch(r"\[\d/1\] waiting 1 s: arXiv asked \(Retry-After\)", line) for line in waits), drawn
    paged = [line.split("] ", 1)[1] for line in drawn if "Paged:" in line]
    assert paged == ["Paged: 10 of ~30 papers", "Paged: 20 of ~30 papers", "Paged: 30 papers so far"]
    assert drawn[-1].startswith("30 new, 0 updated papers from 1 source;")


def test_without_a_terminal_only_a_long_wait_is_said(tmp_path, monkeypatch, capsys):
    from feedtui.cli import progress

    monkeypatch.setattr(pacing, "WAIT_WORTH_TELLING_S", 0.5)
    monkeypatch.setattr(progress, "LONG_WAIT_S", 0.5)
    with held_api(30, held_start=30, retry_after="1") as api:
        assert refresh_paged(tmp_path, api.url) == 0
    said = capsys.readouterr().err.splitlines()
    # Said once, though the count of new papers waited in arXiv's lane behind it.
    assert [line for line in said if "waiting" in line] == ["feedtui: waiting 1 s: arXiv asked (Retry-After)"]
    assert DRAW not in "".join(said) and not any("Paged:" in line for line in said)


def test_a_wait_on_the_progress_line_counts_down(tmp_path, monkeypatch):
    """A wait of 20 s said "waiting 20 s" until it was over."""
    monkeypatch.setattr(pacing, "WAIT_WORTH_TELLING_S", 0.5)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with held_api(30, held_start=30, retry_after="3") as api:
        assert refresh_paged(tmp_path, api.url) == 0
    drawn = [line for line in terminal.getvalue().split(DRAW) if line]
    counted = {int(m[1]) for line in drawn if (m := re.fullmatch(r"\[\d/1\] waiting (\d) s: arXiv asked \(Retry-After\)", line))}
    assert 3 in counted and min(counted) < 3, drawn


def test_a_wait_that_ends_leaves_the_one_still_under_way_told(monkeypatch):
    """Two waits at once: the end of the shorter one took the longer one's
    text away, and the line said the query's paging while it still waited."""
    from feedtui.core import fetch as refresh

    monkeypatch.setattr(refresh.time, "monotonic", lambda: 1000.0)
    told = []
    teller = refresh.ActivityTeller(told.append)
    teller.paged("Paged", 10, 30)
    teller.waited(30, "arXiv asked (Retry-After)")
    teller.waited(6, "before asking example.org again")
    assert told[-1].text() == "waiting 6 s: before asking example.org again"
    teller.waited(0, "before asking example.org again")
    assert told[-1].text() == "waiting 30 s: arXiv asked (Retry-After)"
    monkeypatch.setattr(refresh.time, "monotonic", lambda: 1012.5)
    assert told[-1].text() == "waiting 18 s: arXiv asked (Retry-After)"
    teller.waited(0, "arXiv asked (Retry-After)")
    assert told[-1].text() == "Paged: 10 of ~30 papers"
