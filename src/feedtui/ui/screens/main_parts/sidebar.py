"""The sidebar: the topics' rows, their order, their filter and their counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input, Static

from feedtui.topics.momentum import sort_trending
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, STARRED_VIEW, TopicRow, starred_positions
from feedtui.ui.widgets.paper_list import one_line_safe
from feedtui.ui.widgets.topic_list import TopicList, as_drawn

if TYPE_CHECKING:
    from textual.screen import Screen

    from feedtui.topics.registry import TopicEntry

SORTS = ("followed", "name", "unread", "trending")
# How the sidebar's title says each order (followed topics are on top in all).
SORT_WORDS = {"followed": "name", "name": "name", "unread": "unread", "trending": "trending"}
# How a topic matches the sidebar's filter: by its name, or by its
# description or definition (query, categories, feeds) only.
BY_NAME, BY_DEFINITION = 0, 1


def filter_match(entry: TopicEntry, text: str) -> int | None:
    """How `entry` matches the casefolded filter `text` (BY_NAME first), or None."""
    if not text or text in entry.name.casefold():
        return BY_NAME
    topic = entry.topic
    if text in topic.description.casefold() or text in topic.definition.describe().casefold():
        return BY_DEFINITION
    return None


class Sidebar:
    """Owns the topic list's rows and the sort they are drawn in."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = engine = screen.engine
        self.sort = engine.pref("sort", engine.settings.default_sort)
        if self.sort not in SORTS:
            self.sort = "followed"
        # Rows drawn without their momentum yet (see topic_rows).
        self._without_sparklines: set[str] = set()

    def topic_rows(self, sparklines: int | None = None) -> list[TopicRow]:
        """Every topic's row, in the order drawn. With `sparklines`, only the
        first that many rows drawn get their momentum (a sidebar of hundreds
        of topics shows a few dozen), the others theirs from `fill_sparklines`
        once the screen is drawn; the trending order needs every topic's."""
        engine = self.engine
        library = engine.library
        following = engine.is_following
        filter_text = self.screen.query_one("#topic-filter", Input).value.casefold().strip()
        rows: list[TopicRow] = []
        matches: dict[str, int] = {}
        entries = []
        for entry in engine.topics():
            if (match := filter_match(entry, filter_text)) is not None:
                matches[entry.name] = match
                entries.append(entry)
        partial = sparklines is not None and self.sort != "trending"
        momenta = {} if partial else engine.momenta([e.name for e in entries])
        new = self.screen.visit.counts()
        for entry in entries:
            momentum = momenta.get(entry.name)
            weeks = tuple(w.count for w in momentum.weeks) if momentum is not None else ()
            rows.append(
                TopicRow(
                    name=entry.name,
                    following=following(entry.name),
                    unread=library.unread_count(entry.name),
                    papers=len(library.topic_positions(entry.name)),
                    weeks=weeks,
                    error=entry.error,
                    new=new.get(entry.name, 0),
                )
            )
        if self.sort == "name":
            rows.sort(key=lambda r: r.name.casefold())
        elif self.sort == "unread":
            rows.sort(key=lambda r: (-r.unread, r.name.casefold()))
        elif self.sort == "trending":
            rows.sort(key=lambda r: r.name.casefold())
            rows = sort_trending((row, momenta[row.name]) for row in rows)
        else:
            rows.sort(key=lambda r: r.name.casefold())
        if filter_text:
            # Names that match first, each part in the order chosen (a stable sort).
            rows.sort(key=lambda r: matches[r.name])
        virtual = [self._for_you_row(), self._starred_row(), TopicRow(EVERYTHING_VIEW, False, 0, 0, virtual=True)]
        rows[:0] = [row for row in virtual if not filter_text or filter_text in row.name.casefold()]
        self._without_sparklines = set()
        if partial:
            following, others = as_drawn(rows)
            drawn = [r.name for r in (*following, *others) if not r.virtual]
            first = engine.momenta(drawn[:sparklines])
            rows = [r._replace(weeks=tuple(w.count for w in first[r.name].weeks)) if r.name in first else r for r in rows]
            self._without_sparklines = set(drawn[sparklines:])
        return rows

    def fill_sparklines(self) -> None:
        """The momentum of the rows `topic_rows` left without it (below the first screen)."""
        waiting, self._without_sparklines = self._without_sparklines, set()
        topic_list = self.screen.query_one(TopicList)
        names = [row.name for row in topic_list.rows if row.name in waiting and self.engine.has_topic(row.name)]
        momenta = self.engine.momenta(names) if names else {}
        for row in topic_list.rows:
            if (momentum := momenta.get(row.name)) is not None:
                topic_list.update_row(row._replace(weeks=tuple(w.count for w in momentum.weeks)))

    def _for_you_row(self) -> TopicRow:
        """For you's row counts the unread papers it suggested last (none
        before it is first shown: it is computed only then)."""
        library = self.engine.library
        for_you = self.screen.discover.for_you
        ids = [hit.paper_id for hit in for_you.hits] if for_you is not None else []
        unread = sum(1 for pid in ids if pid in library.pos and not library.is_read(library.pos[pid]))
        return TopicRow(FOR_YOU_VIEW, False, unread, len(ids), virtual=True)

    def _starred_row(self) -> TopicRow:
        """The reading list's row counts its unread papers, as the topics' rows do."""
        library = self.engine.library
        positions = starred_positions(library, self.engine.starred_view())
        unread = sum(1 for position in positions if not library.is_read(position))
        return TopicRow(STARRED_VIEW, False, unread, len(positions), virtual=True)

    def rebuild(self, keep: str | None = None, *, sparklines: int | None = None) -> None:
        """The sidebar's rows anew, its cursor on `keep`, else on the row it is
        on, never put back on the topic shown: a retag, a refresh or another
        feedtui's change ends in catch_up, and a key just before may have
        moved the cursor to a topic not shown yet (its TopicList.Shown
        message on its way); putting the cursor back lost that key."""
        screen = self.screen
        self.show_title()
        topic_list = screen.query_one(TopicList)
        topic_list.show_rows(self.topic_rows(sparklines), keep=keep or topic_list.current or screen.current)
        filter_input = screen.query_one("#topic-filter", Input)
        if screen.current is None and not topic_list.rows and filter_input.value:
            # The topic shown is gone (removed here or elsewhere) and the filter
            # matched only it: the filter goes too, so that another topic is shown.
            filter_input.value = ""
            topic_list.show_rows(self.topic_rows())
        if screen.current is None or screen.current not in [r.name for r in topic_list.rows]:
            chosen = topic_list.current
            if chosen:
                screen.show_topic(chosen)

    def show_title(self) -> None:
        """The sidebar's title: the order its topics are in, and the key that changes it."""
        title = Text()
        title.append("Topics", style="bold")
        title.append(f" by {SORT_WORDS[self.sort]}", style="")
        title.append(f" ({self.screen._key('topics.sort')})", style="dim")
        self.screen.query_one("#sidebar-title", Static).update(title)

    def update_counts(self, topics: set[str]) -> None:
        """Unread counts changed for these topics: redraw their rows only (and
        the reading list's, which may hold the papers)."""
        screen = self.screen
        if screen.unread_only and not screen.asking.question and not screen.discover.owns(screen.current):
            screen.topic_view.show_list_title()
        library = self.engine.library
        topic_list = screen.query_one(TopicList)
        following = self.engine.is_following
        for row in topic_list.rows:
            if row.name in topics:
                topic_list.update_row(row._replace(following=following(row.name), unread=library.unread_count(row.name)))
        topic_list.update_row(self._starred_row())
        topic_list.update_row(self._for_you_row())

    def follow_the_clock(self) -> None:
        """Momentum is as of now: as time passes, papers leave its windows, a
        paper dated ahead comes in, and on Monday 00:00 UTC a new week starts.
        The sparklines, the trending order and the topic's sentence and chart
        follow (with no work on a key press, and none redrawn when all is as
        drawn)."""
        screen = self.screen
        topic_list = screen.query_one(TopicList)
        rows = self.topic_rows()
        shown = topic_list.rows
        following, others = as_drawn(rows)
        if self.sort == "trending" and [r.name for r in following + others] != [r.name for r in shown]:
            topic_list.show_rows(rows, keep=screen.current)
        else:
            weeks = {row.name: row.weeks for row in rows}
            for row in shown:
                if row.name in weeks and weeks[row.name] != row.weeks:
                    topic_list.update_row(row._replace(weeks=weeks[row.name]))
        screen.topic_view.follow_the_clock()

    def filter_changed(self, value: str) -> None:
        topic_list = self.screen.query_one(TopicList)
        typed = one_line_safe(value.strip())
        topic_list.empty_message = f"No topic matches “{typed}” ({self.screen._key('app.back')} clears)" if typed else ""
        topic_list.show_rows(self.topic_rows(), keep=self.screen.current)

    def cycle_sort(self) -> None:
        # Followed topics stay on top in every order (SPEC §2), so "name" draws
        # the sidebar as "followed" does: S skips it.
        shown = [order for order in SORTS if order != "name"]
        current = "followed" if self.sort == "name" else self.sort
        self.sort = shown[(shown.index(current) + 1) % len(shown)]
        self.engine.set_pref("sort", self.sort)
        self.rebuild()
        self.screen.notify(f"Topics sorted by {self.sort}", markup=False)
