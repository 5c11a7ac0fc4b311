"""The topic view: the header, the chart, the list's title and its cards."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input, Static

from feedtui.topics.momentum import Momentum
from feedtui.ui.presenter import STARRED_VIEW, VIRTUAL_VIEWS, TopicCards, not_cached_note, starred_not_cached, starred_positions
from feedtui.ui.widgets.momentum_chart import ChartData, MomentumChart
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_header import HeaderData, TopicHeader
from feedtui.ui.widgets.topic_list import TopicList

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

# An Ask's cards read the abstracts their matches are in once no key has come
# for this long (s), this many at a time (the cards on screen first); the
# latest SNIPPETS_KEPT cards that asked are remembered.
SNIPPET_WAIT_S = 0.3
SNIPPETS_READ = 12
SNIPPETS_KEPT = 48
# Said when a key that acts on the paper under the cursor finds none.
NO_PAPER_HERE = "No paper here"


class TopicView:
    """Owns what the right-hand side shows of a topic: its cards (TopicCards),
    the whole abstracts read for them, and the cursor's place among them."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.cards: TopicCards | None = None
        self.list_total = 0
        # The momentum the header and chart show (None: the reading list, or nothing yet).
        self.header_momentum: Momentum | None = None
        self.full_abstracts: dict[str, str] = {}
        self._loading_abstracts: set[str] = set()
        # Ask cards waiting to read the abstracts their matches are in, oldest first.
        self._snippets_wanted: dict[str, None] = {}
        self._snippet_timer: Timer | None = None

    def show(self, name: str, *, keep: str | None = None, focus_list: bool = False) -> None:
        screen, engine = self.screen, self.engine
        library = engine.library
        if screen.discover.owns(name):  # For you, Ask everything
            screen.show_follow_key()
            screen.discover.show(name, keep=keep, focus_list=focus_list)
            return
        screen.asking.clear_answer()
        if name == STARRED_VIEW:
            positions = starred_positions(library, engine.starred_view())
            unread = sum(1 for position in positions if not library.is_read(position))
            about = (
                f"Your reading list: papers you starred with {screen._key('paper.star')}"
                f" ({unread:,} unread, the sidebar's count)."
            )
            missing = starred_not_cached(library, engine.starred_view())
            if missing:
                about += f" {not_cached_note(missing, screen._key('app.refresh_all'))}."
            screen.query_one(TopicHeader).show_header(HeaderData(STARRED_VIEW, False, "", about, virtual=True))
            screen.query_one(MomentumChart).add_class("-hidden")
            self.header_momentum = None
        else:
            positions = library.topic_positions(name)
            self.show_momentum(name, engine.momentum(name))
        screen.show_follow_key()
        total = len(positions)
        if screen.unread_only:
            positions = [i for i in positions if not library.is_read(i)]
        if screen.asking.question:
            screen.asking.ask(screen.asking.question, keep=keep)
            return
        self.cards = self.cards_of(
            name,
            positions,
            is_new=screen.visit.is_new if screen.visit.since is not None else None,
            days=True,
        )
        self.list_total = total
        self.show_list_title()
        paper_list = screen.query_one(PaperList)
        paper_list.empty_message = self.empty_message(name, total)
        paper_list.set_source(self.cards, keep=keep)
        if focus_list:
            screen.focus_now(paper_list)

    def cards_of(self, name: str, positions: list[int], **view) -> TopicCards:
        """These papers' cards as the reader shows them now (marks, stars,
        feedback, abstracts loaded and expanded); `view` adds what the list
        shows beyond that (highlights, why, new marks, day rules)."""
        engine = self.engine
        return TopicCards(
            engine.library,
            positions,
            head=engine.abstract_head,
            current_topic=name,
            read=engine.read_view(),
            starred=engine.starred_view(),
            date_format=engine.settings.date_format,
            full_abstracts=self.full_abstracts,
            expanded=self.screen.query_one(PaperList).expanded,
            want_full=self.load_full_abstract,
            feedback_of=engine.feedback_of,
            **view,
        )

    def show_momentum(self, name: str, momentum: Momentum) -> None:
        """The topic's header, its sentence, and its chart."""
        screen = self.screen
        entry = self.engine.topic(name)
        screen.query_one(TopicHeader).show_header(
            HeaderData(
                name=name,
                following=self.engine.is_following(name),
                definition=entry.topic.definition.describe(),
                description=entry.topic.description,
                sentence=momentum.sentence,
                error=entry.error,
                follow_key=screen._key("topic.follow"),
            )
        )
        chart = screen.query_one(MomentumChart)
        chart.remove_class("-hidden")
        chart.update_chart(ChartData.from_momentum(momentum))
        self.header_momentum = momentum

    def follow_the_clock(self) -> None:
        """The topic's sentence and chart as of now (see Sidebar.follow_the_clock)."""
        name = self.screen.current
        if self.header_momentum is not None and self.engine.has_topic(name):
            momentum = self.engine.momentum(name)
            if momentum != self.header_momentum:
                self.show_momentum(name, momentum)

    def show_list_title(self) -> None:
        """`Latest papers (N)`; with unread only, how many of those shown are
        still unread (a card marked read stays until the topic is shown again)."""
        screen = self.screen
        title = Text()
        title.append("Latest papers ", style="bold")
        title.append(f"({self.list_total:,})", style="bold")
        if screen.unread_only and self.cards is not None:
            library = self.engine.library
            left = sum(1 for position in self.cards.positions if not library.is_read(position))
            title.append(f"  ·  unread only: {left:,} left ({screen._key('topic.unread_only')} shows all)", style="dim")
        screen.query_one("#list-title", Static).update(title)

    def empty_message(self, name: str, total: int) -> str:
        screen, key = self.screen, self.screen._key
        if name == STARRED_VIEW and not total and self.engine.starred_view():
            return "None of your starred papers is in the cache (see above)"
        if name == STARRED_VIEW:
            return f"No starred papers yet — press {key('paper.star')} on a paper to star it"
        if total and screen.unread_only:
            return (
                f"All read here — {key('topic.unread_only')} shows every paper, "
                f"{key('paper.next_unread')} goes to the next unread"
            )
        return self.why_no_papers(name)

    def why_no_papers(self, name: str) -> str:
        """Why a topic has no papers: the demo has none for it, it was never
        fetched, or it was and nothing in the window matched."""
        engine, key = self.engine, self.screen._key
        if engine.demo:
            return "The demo data has no papers for this topic"
        following = engine.is_following(name)
        if following and self.screen.refresher.fetching(name):
            return "No papers yet — fetching this topic now"
        fetched = engine.topic_fetched_at(name)
        entry = engine.topic_entry(name)
        if fetched is None and entry is not None and entry.topic.definition.feeds and following:
            # A topic of feeds only: its answers are kept by feed, so the last refresh tells.
            fetched = self.screen.refresher.last_refresh()
        if fetched is not None:
            return (
                f"Nothing in the last {engine.settings.window_weeks} weeks\n"
                f"Fetched {fetched.astimezone():%b %-d %H:%M}, nothing matched — {key('topic.edit')} edits the topic"
            )
        if following:
            return f"Never refreshed — press {key('topic.refresh')} to fetch this topic"
        return f"Not followed, so never fetched\npress {key('topic.follow')} to follow this topic and fetch it"

    # -- whole abstracts ---------------------------------------------------------------

    def load_full_abstract(self, paper_id: str, expanded: bool = True) -> None:
        """Read the whole abstract of a card off the keys' thread: at once for
        a card expanded; for an Ask's card whose match is past its head, once
        no key has come for SNIPPET_WAIT_S (reading a week file holds the
        interpreter for tens of milliseconds, which scrolling would wait out
        every few cards), the cards on screen first, each week file once."""
        if expanded:
            self._snippets_wanted.pop(paper_id, None)
            if paper_id not in self._loading_abstracts:
                self._loading_abstracts.add(paper_id)
                self.screen.call_after_refresh(self.fetch_abstracts, [paper_id])
            return
        if paper_id in self._loading_abstracts or paper_id in self._snippets_wanted:
            return
        self._snippets_wanted[paper_id] = None
        if len(self._snippets_wanted) > SNIPPETS_KEPT:
            # Scrolled past long ago: forgotten, and asked for again if drawn again.
            oldest = next(iter(self._snippets_wanted))
            del self._snippets_wanted[oldest]
            if self.cards is not None and (index := self.cards.index_of(oldest)) is not None:
                self.screen.query_one(PaperList).invalidate([index])
        if self._snippet_timer is None:
            self._snippet_timer = self.screen.set_timer(SNIPPET_WAIT_S, self._fetch_snippets_when_still)

    def _fetch_snippets_when_still(self) -> None:
        screen = self.screen
        quiet = screen.app.idle_collector.quiet_for()
        if quiet < SNIPPET_WAIT_S:
            self._snippet_timer = screen.set_timer(SNIPPET_WAIT_S - quiet, self._fetch_snippets_when_still)
            return
        self._snippet_timer = None
        cards = self.cards
        if cards is None:
            self._snippets_wanted.clear()
            return
        shown = {cards.paper_id(index) for index in screen.query_one(PaperList).visible_range()}
        latest_first = [pid for pid in reversed(self._snippets_wanted) if cards.index_of(pid) is not None]
        batch = sorted(latest_first, key=lambda pid: pid not in shown)[:SNIPPETS_READ]
        self._snippets_wanted = {pid: None for pid in self._snippets_wanted if pid in latest_first and pid not in batch}
        self._loading_abstracts.update(batch)
        self.fetch_abstracts(batch)
        if self._snippets_wanted:
            self._snippet_timer = screen.set_timer(SNIPPET_WAIT_S, self._fetch_snippets_when_still)

    def fetch_abstracts(self, paper_ids: list[str]) -> None:
        self.screen.run_worker(partial(self._fetch_abstracts, paper_ids), group="abstracts")

    async def _fetch_abstracts(self, paper_ids: list[str]) -> None:
        try:
            papers = await asyncio.to_thread(self.engine.papers_by_id, paper_ids)
        finally:
            self._loading_abstracts.difference_update(paper_ids)
        for paper_id, paper in papers.items():
            self.full_abstracts[paper_id] = paper.readable_abstract
        if self.cards is not None:
            found = (self.cards.index_of(paper_id) for paper_id in papers)
            if indices := [index for index in found if index is not None]:
                self.screen.query_one(PaperList).invalidate(indices)

    # -- the cursor ----------------------------------------------------------------------

    def cursor_id(self) -> str | None:
        card = self.screen.query_one(PaperList).cursor_card
        return card.paper_id if card else None

    def acted_on_id(self) -> str | None:
        """The paper under the cursor, for a key that acts on one; on an empty
        list, a word that there is none (the key would otherwise do nothing)."""
        paper_id = self.cursor_id()
        if paper_id is None:
            self.screen.notify(NO_PAPER_HERE, markup=False)
        return paper_id

    def invalidate_ids(self, ids: list[str]) -> None:
        if self.cards is None:
            return
        indices = [index for index in map(self.cards.index_of, ids) if index is not None]
        self.screen.query_one(PaperList).invalidate(indices)

    def next_unread(self) -> None:
        """The next unread paper below the cursor; else the first in the next
        topic down the sidebar (as drawn, filtered or not) with any; else,
        rounding, the first in this topic. The reading list is a list of its
        own: n rounds within it."""
        screen = self.screen
        library = self.engine.library
        cursor = screen.query_one(PaperList).cursor
        if self._go_to_unread(range(cursor + 1, self.card_count())):
            return
        if screen.current not in VIRTUAL_VIEWS:
            names = [r.name for r in screen.query_one(TopicList).rows if not r.virtual]
            start = names.index(screen.current) + 1 if screen.current in names else 0
            for name in names[start:] + names[:start]:
                if name != screen.current and library.unread_count(name) > 0:
                    screen.go_to_topic(name)
                    self._go_to_unread(range(self.card_count()))
                    return
        if not self._go_to_unread(range(min(cursor, self.card_count()))):
            screen.notify(self._nothing_unread_next(cursor), markup=False)

    def _nothing_unread_next(self, cursor: int) -> str:
        """What `n` says when it has nowhere to go: the paper under the cursor
        may be the last unread one, and a sidebar filter may hide topics with more."""
        count = self.card_count()
        on_unread = 0 <= cursor < count and not self.engine.library.is_read(self.cards.positions[cursor])  # type: ignore[union-attr]
        if self.screen.current == STARRED_VIEW:
            where = " in the reading list"
        elif self.screen.current in VIRTUAL_VIEWS:
            where = " in this list"
        elif self.screen.query_one("#topic-filter", Input).value.strip():
            where = " in the topics the sidebar filter shows"
        else:
            where = ""
        return f"This is the last unread paper{where}" if on_unread else f"No unread papers left{where}"

    def card_count(self) -> int:
        return len(self.cards) if self.cards is not None else 0

    def _go_to_unread(self, indexes: range) -> bool:
        """Put the cursor on the first unread card among `indexes`, if any."""
        library, paper_list = self.engine.library, self.screen.query_one(PaperList)
        for index in indexes:
            if not library.is_read(self.cards.positions[index]):  # type: ignore[union-attr]
                paper_list.go_to(index)
                self.screen.focus_now(paper_list)
                return True
        return False
