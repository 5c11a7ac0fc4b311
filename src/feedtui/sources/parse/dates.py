"""Feed dates → timezone-aware UTC datetimes, and what to do with implausible ones.

A date is plausible from `EARLIEST` (arXiv opened in August 1991; no paper
feedtui shows is older) up to one day after the fetch time (clocks and time
zones differ; more than that is a broken or hostile feed). An implausible or
missing date is replaced by the fetch time and marked as an estimate, so the
paper still shows up but stays out of momentum.
"""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from feedtui.model import UTC
from feedtui.sources.parse.text import entries

EARLIEST = datetime(1991, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=1)


def parse_datetime(text: str | None) -> datetime | None:
    """ISO 8601 / RFC 3339 (Atom, the arXiv API) or RFC 822 (RSS); None if neither.

    A time without a zone is taken as UTC.
    """
    if not text:
        return None
    text = text.strip()
    if not text or len(text) > 64:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        from email.utils import parsedate_to_datetime  # RSS dates only; a costly import

        try:
            value = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    return _as_utc(value)


def from_struct_time(value: time.struct_time | None) -> datetime | None:
    """feedparser's `*_parsed` values (already UTC) as datetimes."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(calendar.timegm(value), UTC)
    except (OverflowError, ValueError, OSError, TypeError):
        return None


def _as_utc(value: datetime) -> datetime | None:
    try:
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        return None


@dataclass(slots=True)
class DateChecker:
    """Applies the plausibility rule and counts what it replaced, for one feed."""

    now: datetime
    missing: int = 0
    future: int = 0
    ancient: int = 0

    def check(self, value: datetime | None) -> tuple[datetime, bool]:
        """(the date to keep, whether it is an estimate)."""
        if value is None:
            self.missing += 1
            return self.now, True
        if value > self.now + FUTURE_SLACK:
            self.future += 1
            return self.now, True
        if value < EARLIEST:
            self.ancient += 1
            return self.now, True
        return value, False

    def plausible(self, value: datetime | None) -> bool:
        return value is not None and EARLIEST <= value <= self.now + FUTURE_SLACK

    def warnings(self) -> list[str]:
        """Implausible dates are worth a word; missing ones are common and are not."""
        notes: list[str] = []
        if self.future:
            notes.append(f"{entries(self.future)} dated more than a day in the future; the fetch time is used instead")
        if self.ancient:
            notes.append(f"{entries(self.ancient)} dated before 1991; the fetch time is used instead")
        return notes
