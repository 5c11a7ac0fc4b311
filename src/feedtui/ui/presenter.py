"""From the engine's library to what the widgets draw.

Widgets get plain data (rows, cards, chart data) and never see the engine.
Everything here is quick: it reads the in-memory library and state only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from feedtui.core.library import Library
from feedtui.model import shown_title, split_arxiv_id
from feedtui.search import highlight_pattern
from feedtui.topics.names import READING_LIST
from feedtui.ui.cards import CardData, card_date

STARRED_VIEW = READING_LIST
# The discovery views (docs/discovery-reader.md): rows of the sidebar that are
# no topic, as the reading list is. A topic's name cannot start with a
# zero-width space (names are cleaned of invisible characters), and the
# sidebar draws the row without it: no topic can take these names.
FOR_YOU_VIEW = "\u200b✦ For you"
EVERYTHING_VIEW = "\u200b⌕ Ask everything"
VIRTUAL_VIEWS = frozenset({STARRED_VIEW, FOR_YOU_VIEW, EVERYTHING_VIEW})
DAY = 86_400


class TopicRow(NamedTuple):
    name: str
    following: bool
    unread: int
    papers: int
    weeks: tuple[int, ...] = ()
    error: str = ""
    virtual: bool = False
    # Papers that came since the previous reader session.
    new: int = 0


class TopicCards:
    """A CardSource over library positions: cards are made only when drawn."""

    def __init__(
        self,
        library: Library,
        positions: Sequence[int],
        *,
        head: Callable[[str, str], str],
        current_topic: str,
        read: dict,
        starred: dict,
        date_format: str,
        highlight: tuple[str, ...] = (),
        full_abstracts: dict[str, str] | None = None,
        expanded: set[str] | None = None,
        want_full: Callable[[str, bool], None] | None = None,
        is_new: Callable[[int], bool] | None = None,
        days: bool = False,
        why: Mapping[str, str] | None = None,
        feedback_of: Callable[[str], int] | None = None,
    ) -> None:
        self.library = library
        self.positions = list(positions)
        self._index: dict[int, int] | None = None
        # (week, paper id) -> the head of the abstract; reads a small file per week.
        self._head = head
        self.current_topic = current_topic
        self._read = read
        self._starred = starred
        self._date_format = date_format
        self.highlight = highlight
        self._pattern = highlight_pattern(highlight) if highlight else None
        # Cards the list shows expanded get their whole abstract, and so do an
        # Ask's cards whose match is past the head; until it is loaded (from
        # the paper's shard, off the UI thread) `want_full(paper id, expanded)`
        # is asked.
        self.full_abstracts = full_abstracts if full_abstracts is not None else {}
        self.expanded = expanded if expanded is not None else set()
        self._want_full = want_full
        # Whether the paper at a library position is new (since the last
        # visit); with `days` (cards in date order) a line separates each day's cards.
        self._is_new = is_new
        self.days = days
        # For you: why each paper is there; and the user's "more / less like
        # this" of each paper (+1 / -1), shown on its card.
        self._why = why or {}
        self._feedback_of = feedback_of

    def __len__(self) -> int:
        return len(self.positions)

    def paper_id(self, index: int) -> str:
        return self.library.ids[self.positions[index]]

    def index_of(self, paper_id: str) -> int | None:
        position = self.library.pos.get(paper_id)
        if position is None:
            return None
        if self._index is None:
            # Made on the first lookup (a millisecond at 10,000 cards): marking
            # a card read then finds it without walking the whole topic.
            self._index = {position: index for index, position in enumerate(self.positions)}
        return self._index.get(position)

    def card(self, index: int) -> CardData:
        position = self.positions[index]
        library = self.library
        row = library.rows[position]
        paper_id = library.ids[position]
        expanded = paper_id in self.expanded
        full = self.full_abstracts.get(paper_id) if expanded or self._pattern is not None else None
        abstract = full if full is not None else self._head(row.shard, paper_id)
        authors, affiliations = library.bylines_of(position)
        if full is None and self._want_full is not None and (expanded or self._match_past_head(abstract, row.title, authors, affiliations)):
            self._want_full(paper_id, expanded)
        return CardData(
            paper_id=paper_id,
            date=card_date(row.published, self._date_format),
            category=row.primary,
            title=shown_title(row.title),
            abstract=abstract,
            authors=authors,
            affiliations=affiliations,
            tags=library.tags_of(position),
            current_topic=self.current_topic,
            read=paper_id in self._read,
            starred=paper_id in self._starred,
            expanded=expanded and full is not None,
            highlight=self.highlight,
            new=self._is_new is not None and self._is_new(position),
            day_after=self._day_after(index),
            why=self._why.get(paper_id, ""),
            feedback=self._feedback_of(paper_id) if self._feedback_of is not None else 0,
        )

    def _day_after(self, index: int) -> str:
        """The next card's submission day (UTC), when it differs from this one's."""
        if not self.days or index + 1 >= len(self.positions):
            return ""
        rows = self.library.rows
        this, after = rows[self.positions[index]].published, rows[self.positions[index + 1]].published
        if this // DAY == after // DAY:
            return ""
        return datetime.fromtimestamp(after, UTC).strftime("%a %b %-d")

    def _match_past_head(self, head: str, *lines: str) -> bool:
        """Whether an Ask's card must read its whole abstract to show why it
        was found: its words are in none of its other lines, nor in the head,
        which is cut (see `feedtui.store.codec.head_of`)."""
        pattern = self._pattern
        return (
            pattern is not None
            and head.endswith("…")
            and pattern.search(head) is None
            and not any(pattern.search(text) for text in lines)
        )


def starred_positions(library: Library, starred: dict) -> list[int]:
    positions = [library.pos[pid] for pid in starred if pid in library.pos]
    rows, ids = library.rows, library.ids
    positions.sort(key=lambda i: (rows[i].published, ids[i]), reverse=True)
    return positions


def starred_not_cached(library: Library, starred: dict) -> list[str]:
    """The reading list's papers the cache lacks (starred on another machine
    and imported, say), in id order: listed nowhere, so counted aloud."""
    return sorted(pid for pid in starred if pid not in library.pos)


def not_cached_note(missing: Sequence[str], fetch: str, shown: str = "") -> str:
    """What the reading list says of the starred papers it cannot show
    (`missing`, not empty): `shown` (their ids, say) after their count, and
    that `fetch` (a refresh) fetches those with arXiv ids."""
    count = len(missing)
    note = f"{count:,} starred paper{'s are' if count != 1 else ' is'} not in the cache, so not listed"
    if shown:
        note += f": {shown}"
    if any(split_arxiv_id(pid) for pid in missing):
        note += f"; {fetch} fetches the arXiv ones"
    return note
