"""Discovery in the reader: For you, Ask everything, an author's papers,
"more / less like this", and the vectors computed after a refresh.

For you and Ask everything are rows of the sidebar that are no topic, as the
reading list is (presenter.FOR_YOU_VIEW, EVERYTHING_VIEW): their cards are
read, marked and starred like a topic's. Everything slow the engine does for
them (ask, for_you, papers_by_author, compute_vectors) runs in a worker
thread that posts a message of ui/messages.py; the screen hands those here.
For you is computed only when shown, never at start (see
docs/discovery-reader.md).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from feedtui.memory import gc_paused
from feedtui.model import TopicDefinition, shown_title
from feedtui.search import highlight_words
from feedtui.ui.messages import (
    AnswerReady,
    AuthorPapersReady,
    DiscoveryFailed,
    ForYouReady,
    VectorsComputed,
)
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, TopicCards
from feedtui.ui.screens.main_parts.ask import AskTitle, ask_empty_message, in_daemon_thread
from feedtui.ui.widgets.answer_panel import QuoteLine
from feedtui.ui.widgets.paper_list import PaperList, one_line_safe
from feedtui.ui.widgets.topic_header import HeaderData, TopicHeader

if TYPE_CHECKING:
    from textual.message import Message
    from textual.screen import Screen

# Papers an Ask everything lists, an Ask about a topic, and For you.
ASK_LIMIT = 100
TOPIC_ASK_LIMIT = 500
FOR_YOU_LIMIT = 50
# What a view says while its worker runs.
FINDING_FOR_YOU = "Finding papers for you…"
ASKING_EVERYTHING = "Asking every paper in the cache…"
ASKED_ABOUT = "Every paper in the cache, ranked for the question; the sentences that best answer it come first."


class AuthorList:
    """The papers of one author, newest first, as Ask everything shows them.
    (A plain class: this module is imported on the way to the first paint.)"""

    __slots__ = ("author", "paper_ids")

    def __init__(self, author: str, paper_ids: list[str] | None = None) -> None:
        self.author = author
        self.paper_ids = [] if paper_ids is None else paper_ids


class Discover:
    """Owns the discovery views' data: the last For you (and whether the
    taste changed since), the author listed, and the workers that fill them."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.for_you = None  # the last ForYou, None until For you is first shown
        self.for_you_stale = True
        self._for_you_running = False
        self.author: AuthorList | None = None
        # Ask, Related or For you was used: the model may stay in memory.
        self.used = False

    def owns(self, name: str | None) -> bool:
        return name in (FOR_YOU_VIEW, EVERYTHING_VIEW)

    # -- the workers -------------------------------------------------------------------

    def _in_thread(self, group: str, what: str, work: Callable[[], Message]) -> None:
        """`work()` in a worker thread; the message it returns is posted to
        the screen, or DiscoveryFailed when it raised (nothing is lost: the
        view says so in one line)."""
        screen = self.screen

        async def run() -> None:
            try:
                message = await asyncio.to_thread(work)
            except Exception as error:  # the model or the vectors could not be read, say
                message = DiscoveryFailed(what, str(error) or type(error).__name__)
            screen.post_message(message)

        screen.run_worker(run, group=group, exclusive=True)

    def received(self, message: Message) -> None:
        """A discovery worker's message, handed on by the screen."""
        match message:
            case AnswerReady():
                self._answered(message)
            case ForYouReady():
                self._for_you_ready(message)
            case AuthorPapersReady():
                self.author = AuthorList(message.author, message.paper_ids)
                self.screen.asking.close()
                self.screen.go_to_topic(EVERYTHING_VIEW)
            case VectorsComputed():
                self._vectors_computed(message.count)
            case DiscoveryFailed():
                self._failed(message)
            case _:  # TasteChanged
                self.taste_changed()

    def _failed(self, message: DiscoveryFailed) -> None:
        screen = self.screen
        screen.notify(f"Could not {message.what}: {message.error}", severity="error", markup=False)
        if message.topic is not None:  # an Ask about a topic: back to its papers, if still asked
            if screen.current == message.topic and screen.asking.question == message.question:
                screen.action_back()
            return
        self._for_you_running = False
        if self.screen.current == FOR_YOU_VIEW and self.for_you is None:
            self.screen.query_one(PaperList).empty_message = f"Could not {message.what}"
            self._title(Text(f"For you — could not {message.what}", style="dim"))

    # -- showing the views -------------------------------------------------------------

    def show(self, name: str, *, keep: str | None = None, focus_list: bool = False) -> None:
        """Show For you or Ask everything (TopicView.show hands them here)."""
        if name == FOR_YOU_VIEW:
            self._show_for_you(keep, focus_list)
        else:
            self._show_everything(keep, focus_list)

    def _header(self, name: str, about: str) -> None:
        self.screen.query_one(TopicHeader).show_header(HeaderData(name.lstrip("\u200b"), False, "", about, virtual=True))
        self.screen.query_one("#chart").add_class("-hidden")
        self.screen.topic_view.header_momentum = None

    def _title(self, text: Text) -> None:
        self.screen.query_one("#list-title", Static).update(text)

    def _cards(self, name: str, ids: list[str], *, highlight: tuple[str, ...] = (), why: dict | None = None) -> TopicCards:
        screen, library = self.screen, self.engine.library
        positions = [library.pos[pid] for pid in ids if pid in library.pos]
        if screen.unread_only:
            positions = [i for i in positions if not library.is_read(i)]
        return screen.topic_view.cards_of(name, positions, highlight=highlight, why=why)

    def _show_cards(self, cards: TopicCards, empty: str, keep: str | None, focus_list: bool) -> None:
        screen = self.screen
        screen.topic_view.cards = cards
        screen.topic_view.list_total = len(cards)
        paper_list = screen.query_one(PaperList)
        paper_list.empty_message = empty
        paper_list.set_source(cards, keep=keep)
        if focus_list:
            screen.focus_now(paper_list)

    # -- For you -----------------------------------------------------------------------

    def _show_for_you(self, keep: str | None, focus_list: bool) -> None:
        screen, key = self.screen, self.screen._key
        self._header(
            FOR_YOU_VIEW,
            "Unread papers of the last weeks, ranked by your taste: learned from the papers you star"
            f" ({key('paper.star')}), more like this ({key('paper.more_like')}) and less like this"
            f" ({key('paper.less_like')}), and a little from those you open.",
        )
        if self.for_you_stale and not self._for_you_running:
            self._for_you_running = True
            self.used = True
            self._in_thread("for-you", "find papers for you", lambda: ForYouReady(self.engine.for_you(limit=FOR_YOU_LIMIT)))
        for_you = self.for_you
        panel = screen.asking.panel
        if for_you is None:
            panel.clear()
            self._title(Text(FINDING_FOR_YOU, style="dim"))
            self._show_cards(self._cards(FOR_YOU_VIEW, []), FINDING_FOR_YOU, keep, focus_list)
            return
        if for_you.note:
            panel.show_note(for_you.note)
        else:
            panel.clear()
        why = {hit.paper_id: hit.why for hit in for_you.hits}
        cards = self._cards(FOR_YOU_VIEW, [hit.paper_id for hit in for_you.hits], why=why)
        title = Text()
        title.append(f"For you ({len(cards):,})", style="bold")
        if self._for_you_running:
            title.append("  ·  updating…", style="dim")
        title.append(f"  ({key('paper.more_like')} more like this, {key('paper.less_like')} less)", style="dim")
        self._title(title)
        empty = "No unread paper of the last weeks to suggest — refresh, or star papers you like"
        self._show_cards(cards, empty, keep, focus_list)

    def _for_you_ready(self, message: ForYouReady) -> None:
        self._for_you_running = False
        self.for_you, self.for_you_stale = message.for_you, False
        screen = self.screen
        screen.sidebar.update_counts(set())  # For you's row counts its unread papers
        if screen.current == FOR_YOU_VIEW:
            screen.show_topic(FOR_YOU_VIEW, keep=screen.topic_view.cursor_id())

    def taste_changed(self) -> None:
        """Stars or `+`/`-` changed: For you is computed again, now if it is shown."""
        self.for_you_stale = True
        screen = self.screen
        if screen.current == FOR_YOU_VIEW and not self._for_you_running:
            screen.show_topic(FOR_YOU_VIEW, keep=screen.topic_view.cursor_id())

    def feedback(self, paper_id: str, value: int) -> None:
        """`+` or `-` on a paper: given again, taken back."""
        engine = self.engine
        now = 0 if engine.feedback_of(paper_id) == value else value
        engine.set_feedback(paper_id, now)
        self.screen.topic_view.invalidate_ids([paper_id])
        row = engine.card(paper_id)
        title = f"“{one_line_safe(shown_title(row.title))[:60]}”" if row is not None else paper_id
        said = {1: "More papers like", -1: "Fewer papers like", 0: "No preference kept for"}[now]
        self.screen.notify(f"{said} {title}", markup=False)

    # -- Ask everything ----------------------------------------------------------------

    def _show_everything(self, keep: str | None, focus_list: bool) -> None:
        screen, key = self.screen, self.screen._key
        author = self.author
        if screen.asking.question:
            screen.asking.ask(screen.asking.question, keep=keep)
            return
        screen.asking.clear_answer()
        if author is None:
            self._header(
                EVERYTHING_VIEW,
                f"Ask a question of every paper in the cache ({key('topic.ask')} here, {key('app.ask_everything')}"
                f" anywhere), or list an author's papers ({key('paper.author_papers')} on a paper).",
            )
            self._title(Text("Ask everything", style="bold"))
            empty = f"Press {key('topic.ask')} to ask a question of every paper"
            self._show_cards(self._cards(EVERYTHING_VIEW, []), empty, keep, focus_list)
            return
        self._header(
            EVERYTHING_VIEW,
            f"Papers by {one_line_safe(author.author)}, newest first — {key('paper.follow_author')} follows this author.",
        )
        cards = self._cards(EVERYTHING_VIEW, author.paper_ids, highlight=(author.author,))
        title = Text()
        title.append(f"Papers by {one_line_safe(author.author)} ({len(cards):,})", style="bold")
        self._title(title)
        self._show_cards(cards, "No paper of this author is in the cache", keep, focus_list)

    def ask_everything(self, question: str, keep: str | None) -> None:
        """Ask the whole cache, in a worker: AnswerReady comes back."""
        self._header(EVERYTHING_VIEW, ASKED_ABOUT)
        self._title(Text(ASKING_EVERYTHING, style="dim"))
        cards = self.screen.topic_view.cards
        if cards is None or cards.current_topic != EVERYTHING_VIEW:  # not a topic's cards under the question
            self._show_cards(self._cards(EVERYTHING_VIEW, []), ASKING_EVERYTHING, None, False)
        self.ask(question, keep)

    def ask(self, question: str, keep: str | None, *, topic: str | None = None) -> None:
        """Ask the engine about `topic` (None: every paper in the cache) in a
        worker: AnswerReady comes back, or DiscoveryFailed. A question asked
        again replaces the one running; the engine keeps what the first
        built (its index, the model, the vectors), so the second waits for
        it rather than building again. The thread is a daemon: a question
        left unanswered does not hold up quitting."""
        self.used = True
        screen, engine = self.screen, self.engine
        limit = ASK_LIMIT if topic is None else TOPIC_ASK_LIMIT
        what = "ask every paper" if topic is None else f"search {topic}"

        def work() -> AnswerReady:
            # The first question builds an index of hundreds of thousands of
            # small objects: built with the collector paused, then frozen,
            # as the card rows are, or the collections after the pause walk
            # them again and again, each a stall of the keys.
            with gc_paused():
                answer = engine.ask(question, topic=topic, limit=limit)
                gc.freeze()
            return AnswerReady(question, answer, keep, topic=topic)

        async def run() -> None:
            try:
                message = await in_daemon_thread(work)
            except Exception as error:  # the papers, the model or the vectors could not be read, say
                message = DiscoveryFailed(what, str(error) or type(error).__name__, topic=topic, question=question)
            screen.post_message(message)

        screen.run_worker(run, group="ask", exclusive=True)

    def _answered(self, message: AnswerReady) -> None:
        screen = self.screen
        question, answer, topic = message.question, message.answer, message.topic
        view = EVERYTHING_VIEW if topic is None else topic
        if topic is not None:
            screen.asking.answered(topic, question, answer)
        if screen.current != view or screen.asking.question != question:
            return  # closed, or another question or view meanwhile
        engine = self.engine
        words = tuple(dict.fromkeys((*highlight_words(question), *answer.terms)))
        quotes = []
        for quote in answer.quotes:
            row = engine.card(quote.paper_id)
            quotes.append(QuoteLine(quote.paper_id, quote.sentence, shown_title(row.title) if row else quote.paper_id))
        screen.asking.panel.show_answer(quotes, words, "" if answer.semantic else answer.note)
        ids = [hit.paper_id for hit in answer.hits]
        cards = self._cards(view, ids, highlight=words)
        matched = sum(1 for pid in ids if pid in engine.library.pos)
        show_all_key = screen._key("topic.unread_only")
        title = AskTitle(
            question, len(cards), matched if screen.unread_only else None, show_all_key, screen._key("app.back")
        )
        self._title(title)
        where = "the cache" if topic is None else "this topic"
        empty = ask_empty_message(question, matched - len(cards), show_all_key, where)
        self._show_cards(cards, empty, message.keep, True)

    def open_quoted(self, paper_id: str) -> None:
        """A click on a quote: its paper, in the detail view."""
        if self.engine.card(paper_id) is not None:
            self.screen.open_detail(paper_id)

    # -- authors -----------------------------------------------------------------------

    def author_papers(self, name: str) -> None:
        """List `name`'s papers in Ask everything (AuthorPapersReady comes back)."""
        engine = self.engine
        self._in_thread(
            "discover-author", "list the author's papers", lambda: AuthorPapersReady(name, engine.papers_by_author(name))
        )

    def choose_author(self, paper_id: str, then: Callable[[str], None]) -> None:
        """One of the paper's authors, chosen when it has several, for `then`."""
        screen = self.screen

        async def read() -> None:
            paper = await asyncio.to_thread(self.engine.paper, paper_id)
            names = list(dict.fromkeys(author.name for author in paper.authors)) if paper else []
            if not names:
                screen.notify("This paper names no author", markup=False)
            elif len(names) == 1:
                then(names[0])
            else:
                from feedtui.ui.screens.pick_topic import PickTopicScreen

                screen.app.push_screen(PickTopicScreen(names, "Which author?"), lambda name: name and then(name))

        screen.run_worker(read, group="discover-authors", exclusive=True)

    def listed_author(self) -> str | None:
        """The author whose papers Ask everything shows, if it shows them."""
        screen = self.screen
        if screen.current == EVERYTHING_VIEW and self.author is not None and not screen.asking.question:
            return self.author.author
        return None

    def follow_author(self, name: str) -> None:
        """A topic of the author's papers (an `au:` query), followed and shown."""
        screen, engine = self.screen, self.engine
        query = engine.author_query(name)
        topic = engine.topic_name(name)
        taken = engine.name_taken(topic)
        if taken and (entry := engine.topic_entry(taken)) is not None and entry.topic.definition.query == query:
            topic = entry.name  # followed again
        elif taken:
            screen.notify(f"There is a topic called {taken} already: {screen._key('topic.edit')} edits it", markup=False)
            return
        else:
            try:
                engine.add_topic(topic, TopicDefinition(query=query), f"Papers by {topic}")
            except ValueError as error:  # TopicRefused, QueryError
                screen.notify(f"Could not follow {topic}: {error}", severity="warning", markup=False)
                return
        engine.follow(topic)
        screen.dialogs._show_saved(topic, said=f"Following {topic}")
        if not engine.demo:
            screen.refresh_soon([topic])

    # -- vectors -----------------------------------------------------------------------

    def compute_vectors(self) -> None:
        """After a refresh: the new papers' vectors, in a worker."""
        engine = self.engine

        def work() -> VectorsComputed:
            count = engine.compute_vectors()
            if not self.used:
                engine.release_discovery()  # not held in memory until Ask, Related or For you is used
            return VectorsComputed(count)

        self._in_thread("vectors", "compute the papers' vectors", work)

    def _vectors_computed(self, count: int) -> None:
        if count:
            self.taste_changed()
