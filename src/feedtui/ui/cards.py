"""What a paper card shows, as plain data, and the rules for shortening lists.

The paper list widget draws `CardData`; it never reads the library itself.
`CardData` is built on demand for the cards on screen only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from feedtui.model import UTC

@dataclass(frozen=True, slots=True)
class CardData:
    paper_id: str
    date: str  # "Oct 4, 2026"
    category: str  # primary arXiv category, may be ""
    title: str
    abstract: str  # what the card shows; the full text when expanded
    authors: str  # "Ada Lovelace, Alan Turing, Grace Hopper +7"
    affiliations: str  # "A · B · C +2"
    tags: tuple[str, ...]  # every topic the paper belongs to
    current_topic: str = ""
    read: bool = False
    starred: bool = False
    expanded: bool = False
    # Words of an "ask about this topic" query, highlighted wherever they occur.
    highlight: tuple[str, ...] = field(default_factory=tuple)
    # Came into the cache since the previous reader session started.
    new: bool = False
    # The day of the cards below, when it is not this card's ("Mon Nov 30"):
    # the line after this card separates the days.
    day_after: str = ""

    @property
    def header(self) -> str:
        return f"{self.date} · {self.category}" if self.category else self.date


def card_date(epoch_seconds: int, date_format: str = "%b %-d, %Y") -> str:
    return paper_date(datetime.fromtimestamp(epoch_seconds, UTC), date_format)


def paper_date(moment: datetime, date_format: str = "%b %-d, %Y") -> str:
    """A paper's date in UTC as the `date_format` setting writes it, on its
    card and in its detail view alike."""
    moment = moment.astimezone(UTC)
    try:
        return moment.strftime(date_format)
    except ValueError:
        return moment.strftime("%Y-%m-%d")
