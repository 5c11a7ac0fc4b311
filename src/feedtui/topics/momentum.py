"""Momentum: how much a topic is being written about now, against just before.

Everything here is a pure function of first-version submission times. Times are
int epoch seconds (UTC) because the sidebar computes momentum for ~50 topics
over tens of thousands of papers at start-up: the times are sorted once (in C)
and every window is then counted with binary searches. Times already in
order (oldest or newest first, as the cache keeps them) sort in linear time,
many times faster than shuffled input.

Callers leave out papers whose first-version date is a guess
(`Paper.date_estimated`): a replaced announcement, an older paper cross-listed
anew, or a blog post about an older paper is not a new paper, and counting it
on the day it was seen would invent momentum.

Windows, with `as_of` the moment the numbers are for:

- `last4` counts papers published in (as_of - 28 days, as_of];
- `prev4` counts papers published in (as_of - 56 days, as_of - 28 days];
- the 12 weeks start on Mondays at 00:00 UTC; the last is the week containing
  `as_of` and only counts papers up to and including `as_of`; each earlier week
  covers [Monday 00:00, next Monday 00:00).

Papers published after `as_of` are counted nowhere, and papers published
before `counted_since(as_of)` only in totals that cancel out: a caller may
leave those out and get the same momentum.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from typing import Literal, TypeVar

from feedtui.slot_record import SlotRecord

DAY = 86_400
WEEK = 7 * DAY
WINDOW = 28 * DAY
WEEKS_SHOWN = 12
# 1970-01-05 was a Monday: the origin of the Monday-started week grid.
_FIRST_MONDAY = 4 * DAY
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_EIGHTHS = " ▁▂▃▄▅▆▇█"
# Pseudo-count in the trending score's denominator; see `trending_score`.
TRENDING_PRIOR = 4.0

# Where the share's denominator came from: the arXiv API's count of all new
# papers, or every paper in the local cache.
ShareOf = Literal["arxiv", "cache"]

K = TypeVar("K")


# The records here are plain slotted classes, not dataclasses: momentum is
# imported on the way to the reader's first paint (see slot_record.py).


class Week(SlotRecord):
    __slots__ = ("start", "count")

    def __init__(self, start: date, count: int) -> None:
        self.start = start
        self.count = count


class Momentum(SlotRecord):
    """A topic's momentum at one moment; `weeks` are the 12 weeks, oldest first."""

    __slots__ = ("weeks", "last4", "prev4", "share", "share_of", "sentence", "hidden")

    def __init__(
        self,
        weeks: tuple[Week, ...],
        last4: int,
        prev4: int,
        share: float | None,
        share_of: ShareOf | None,
        sentence: str,
        # The topic's papers in the eight weeks counted that the config's `hide`
        # query left out (counted nowhere above, and said in the sentence).
        hidden: int = 0,
    ) -> None:
        self.weeks = weeks
        self.last4 = last4
        self.prev4 = prev4
        self.share = share
        self.share_of = share_of
        self.sentence = sentence
        self.hidden = hidden

    @property
    def first_label(self) -> str:
        """The chart's left axis label, e.g. `Jul 13`."""
        return short_date(self.weeks[0].start)

    @property
    def last_label(self) -> str:
        """The chart's right axis label, e.g. `Week of Sep 28`."""
        return f"Week of {short_date(self.weeks[-1].start)}"

    @property
    def score(self) -> float:
        return trending_score(self.last4, self.prev4)

    def to_json(self) -> dict:
        return {
            "last4": self.last4,
            "prev4": self.prev4,
            "trending": self.score,
            "share": self.share,
            "share_of": self.share_of,
            "sentence": self.sentence,
            "hidden": self.hidden,
            "weeks": [{"start": week.start.isoformat(), "count": week.count} for week in self.weeks],
        }


def compute_momentum(
    published: Iterable[int],
    as_of: int,
    *,
    total_new: int | None = None,
    share_of: ShareOf = "cache",
    hidden: Iterable[int] = (),
) -> Momentum:
    """Momentum from first-version submission times in epoch seconds, any order.

    `hidden` are the times of the topic's papers that the hide query left
    out: counted nowhere, but those in the eight weeks of `last4` and
    `prev4` are counted and said, so that the sentence says what it leaves out.

    `total_new` is the number of all new papers in the same 28 days as `last4`
    (the denominator of `share`), and `share_of` says where it came from:
    "arxiv" (the API's total, for 28 days ending up to a week earlier) or
    "cache" (every cached paper). When it is None
    or 0 the share is unknown: `share` and `share_of` are None and the sentence
    stops after the counts. A denominator smaller than `last4` (counts taken at
    different moments) gives a share of 100%.
    """
    if share_of not in ("arxiv", "cache"):
        raise ValueError(f"share_of must be 'arxiv' or 'cache', not {share_of!r}")
    times = sorted(published)
    upto_as_of = bisect_right(times, as_of)

    def upto(moment: int) -> int:
        """Papers published at or before `moment` (and not after as_of)."""
        return min(bisect_right(times, moment), upto_as_of)

    def before(moment: int) -> int:
        """Papers published strictly before `moment`."""
        return min(bisect_left(times, moment), upto_as_of)

    last4 = upto_as_of - upto(as_of - WINDOW)
    prev4 = upto(as_of - WINDOW) - upto(as_of - 2 * WINDOW)

    current_week = week_start(as_of)
    starts = [current_week - (WEEKS_SHOWN - 1 - index) * WEEK for index in range(WEEKS_SHOWN)]
    edges = [before(start) for start in starts] + [upto_as_of]
    weeks = tuple(
        Week(start=_utc_date(start), count=edges[index + 1] - edges[index]) for index, start in enumerate(starts)
    )

    left_out = sum(1 for moment in hidden if as_of - 2 * WINDOW < moment <= as_of)
    share = None
    if total_new:
        share = min(1.0, last4 / total_new)
    return Momentum(
        weeks=weeks,
        last4=last4,
        prev4=prev4,
        share=share,
        share_of=share_of if share is not None else None,
        sentence=momentum_sentence(last4, prev4, share, share_of, hidden=left_out),
        hidden=left_out,
    )


def counted_since(as_of: int) -> int:
    """The earliest first-version time `compute_momentum(…, as_of)` tells apart
    from any earlier one: the start of the oldest week shown (with twelve weeks
    shown, that is before `prev4` begins; the `min` keeps it true with fewer)."""
    return min(week_start(as_of) - (WEEKS_SHOWN - 1) * WEEK, as_of - 2 * WINDOW)


def compute_momentum_at(
    published: Iterable[datetime],
    as_of: datetime,
    *,
    total_new: int | None = None,
    share_of: ShareOf = "cache",
) -> Momentum:
    """`compute_momentum` for timezone-aware datetimes (naive ones are taken as UTC)."""
    return compute_momentum(
        (epoch_seconds(moment) for moment in published),
        epoch_seconds(as_of),
        total_new=total_new,
        share_of=share_of,
    )


def epoch_seconds(moment: datetime) -> int:
    """Whole seconds since the epoch; a naive datetime is read as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return math.floor(moment.timestamp())


def week_start(moment: int) -> int:
    """Epoch seconds of 00:00 UTC on the Monday starting the week containing `moment`."""
    return moment - (moment - _FIRST_MONDAY) % WEEK


def _utc_date(moment: int) -> date:
    return date(1970, 1, 1) + timedelta(days=moment // DAY)


def short_date(day: date) -> str:
    """`Jul 13`: English month abbreviation whatever the locale, day without padding."""
    return f"{_MONTHS[day.month - 1]} {day.day}"


# What a share is of, in the sentence: arXiv's count is of all new papers;
# the cache's only of what this data directory holds, which in one with a
# single topic is that topic's papers (100%, and of nothing like "all").
SHARE_WORDS = {"arxiv": "of all new papers", "cache": "of the papers in your cache"}


def momentum_sentence(last4: int, prev4: int, share: float | None, share_of: ShareOf = "arxiv", *, hidden: int = 0) -> str:
    """The model page's wording: `6 papers in the last four weeks, against 1 the
    four weeks before. 0.1% of all new papers.` (a share taken from the cache:
    `… of the papers in your cache.`); without a known share the second
    sentence is left out. With papers hidden by the config's `hide` query, the
    first sentence says how many it does not count:
    `…, against 1 the four weeks before (3 hidden, not counted).`"""
    noun = "paper" if last4 == 1 else "papers"
    left_out = f" ({hidden:,} hidden, not counted)" if hidden else ""
    sentence = f"{last4:,} {noun} in the last four weeks, against {prev4:,} the four weeks before{left_out}."
    if share is None:
        return sentence
    return f"{sentence} {format_share(share)} {SHARE_WORDS[share_of]}."


def format_share(share: float) -> str:
    """A share in [0, 1] as a percentage a reader takes in at a glance.

    0 → `0%`; below 0.1% → `<0.1%`; below 10% → one decimal (`0.1%`, `2.5%`);
    from 10% → a whole number (`12%`), never rounded up to `100%` unless it is
    all of them.
    """
    percent = share * 100
    if percent <= 0:
        return "0%"
    if percent < 0.1:
        return "<0.1%"
    if percent < 9.95:
        return f"{percent:.1f}%"
    if percent >= 100:
        return "100%"
    return f"{min(99, math.floor(percent + 0.5))}%"


def trending_score(last4: int, prev4: int) -> float:
    """How strongly a topic is rising: (last4 - prev4) / sqrt(last4 + prev4 + 4).

    Under "nothing changed" the papers of the two windows fall into either with
    equal odds, so given n = last4 + prev4 the difference has a standard
    deviation of sqrt(n): the score is roughly how many standard deviations the
    rise is. That rewards rises backed by volume (40 → 60 scores 1.9) over tiny
    ones (0 → 1 scores 0.4, 0 → 5 scores 1.7), and the pseudo-count of 4 in
    the denominator keeps single papers from looking significant. Falling
    topics score below zero, quiet ones zero.
    """
    return (last4 - prev4) / math.sqrt(last4 + prev4 + TRENDING_PRIOR)


def sort_trending(items: Iterable[tuple[K, Momentum]]) -> list[K]:
    """Keys ordered by trending score, highest first; ties go to the larger
    `last4`, then keep their given order."""
    ranked = sorted(items, key=lambda item: (-item[1].score, -item[1].last4))
    return [key for key, _ in ranked]


def render_text_chart(momentum: Momentum, width: int = 60, height: int = 8) -> list[str]:
    """The 12 weekly counts as vertical bars for a terminal, one string per line.

    Bars are drawn in eighth-block characters scaled to the busiest week (a
    week with papers always shows at least a sliver); under them a row of
    counts, then the first week's date on the left and `Week of …` on the
    right. `width` is a target: the chart never gets narrower than the counts
    and labels need. Lines carry no trailing spaces. With no paper in any week
    there are no bars to draw: only the counts and dates are given (not
    `height` blank lines above them).
    """
    counts = [week.count for week in momentum.weeks]
    slot = max(2, width // len(counts), len(f"{max(counts):,}") + 1)
    bar = max(1, slot - 1)
    levels = [_bar_level(count, max(counts), height) for count in counts]
    lines = []
    for row in range(height - 1 if any(levels) else -1, -1, -1):
        cells = []
        for level in levels:
            fill = min(8, max(0, level - row * 8))
            cells.append((_EIGHTHS[fill] * bar).ljust(slot))
        lines.append("".join(cells).rstrip())
    lines.append("".join(f"{count:,}".ljust(slot) for count in counts).rstrip())
    first, last = momentum.first_label, momentum.last_label
    span = max(slot * len(counts) - 1, len(first) + 1 + len(last))
    lines.append(first + last.rjust(span - len(first)))
    return lines


def _bar_level(count: int, busiest: int, height: int) -> int:
    if count <= 0 or busiest <= 0:
        return 0
    return max(1, round(count / busiest * height * 8))
