"""What a paper card shows, as plain data, and the rules for shortening lists.

The paper list widget draws `CardData`; it never reads the library itself.
`CardData` is built on demand for the cards on screen only.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from feedtui.model import UTC

# The `density` setting's values; "auto" is compact on a terminal of fewer
# than AUTO_COMPACT_BELOW lines.
DENSITIES = ("auto", "compact", "comfortable")
AUTO_COMPACT_BELOW = 34

class CardData(NamedTuple):
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
    highlight: tuple[str, ...] = ()
    # Came into the cache since the previous reader session started.
    new: bool = False
    # The day of the cards below, when it is not this card's ("Mon Nov 30"):
    # the line after this card separates the days.
    day_after: str = ""
    # For you: why the paper is there ("like: <title>"); and the user's
    # "more like this" (+1) or "less like this" (-1) of it.
    why: str = ""
    feedback: int = 0

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


class CardShape(NamedTuple):
    """How many lines each part of a card gets; every card of a list has
    the same shape, so the list finds a card by arithmetic.

    With `fill`, the title and the abstract share their lines: a title of
    one line leaves its second to the abstract rather than blank. Without
    `affiliations`, they follow the authors on the authors' line, so a paper
    without any leaves no empty line. `separator` is a blank line after the
    card."""

    title_lines: int
    abstract_lines: int
    fill: bool
    affiliations: bool
    separator: bool

    @property
    def text_lines(self) -> int:
        return self.title_lines + self.abstract_lines

    @property
    def height(self) -> int:
        """Header, title, abstract, authors, affiliations, tags, separator."""
        return 1 + self.text_lines + 1 + self.affiliations + 1 + self.separator


COMFORTABLE = CardShape(title_lines=2, abstract_lines=3, fill=False, affiliations=True, separator=True)
# Five lines: header, title and abstract in two, authors and affiliations, tags.
COMPACT = CardShape(title_lines=2, abstract_lines=0, fill=True, affiliations=False, separator=False)


def card_shape(density: str, terminal_height: int) -> CardShape:
    """The shape the `density` setting asks for on a terminal this tall."""
    if density == "compact" or (density == "auto" and terminal_height < AUTO_COMPACT_BELOW):
        return COMPACT
    return COMFORTABLE


def byline(card: CardData) -> str:
    """Authors, then affiliations after a `·`, for a card with no line of its own for them."""
    return f"{card.authors} · {card.affiliations}" if card.affiliations else card.authors
