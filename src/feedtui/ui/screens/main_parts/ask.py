"""Ask: a question about the topic shown, answered from its search index."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input, Static

from feedtui.memory import gc_paused
from feedtui.search import SearchIndex, has_words, highlight_words, query_terms
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, STARRED_VIEW, TopicCards
from feedtui.ui.widgets.paper_list import PaperList, one_line_safe
from feedtui.ui.widgets.topic_list import TopicList

if TYPE_CHECKING:
    from textual.screen import Screen

# Cells of a question shown in the list's title.
ASK_SHOWN = 40
# Cells of the question kept, when it is cut, before the Ask title's count is shortened.
ASK_CUT_TO = 12


@dataclass
class _AskIndex:
    """A topic's search index, built or being built, and the papers it is built from."""

    library: object
    members: list[int]
    # The members' card rows when it was asked for: a store replaces the row
    # of every paper it adds or changes, and only theirs.
    rows: list[list]
    index: asyncio.Future[SearchIndex]

    def holds(self, library, members: list[int]) -> bool:
        """Whether it answers for these papers: not if the topic was edited or
        retagged since (here or in another process), nor if one of its papers
        changed, nor if the build failed. A refresh storing other topics'
        papers leaves it be."""
        built = self.index
        failed = built.done() and (built.cancelled() or built.exception() is not None)
        if failed or self.library is not library or self.members != members:
            return False
        rows = library.rows
        return all(rows[i] is row for i, row in zip(members, self.rows))


def _in_daemon_thread(function: Callable[..., object], *args) -> asyncio.Future:
    """`function(*args)` in a thread the process does not wait for at exit.

    Building an Ask index only reads, and takes seconds at 10,000 papers: the
    box opened and closed unasked must not hold up quitting, as a thread of
    asyncio's executor would. A result nobody waits for (the box closed
    unasked) is dropped quietly, a failure too: the next question builds
    again, and is told."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future = loop.create_future()
    future.add_done_callback(lambda done: done.cancelled() or done.exception())

    def run() -> None:
        try:
            settle = partial(_settle, future, function(*args), None)
        except BaseException as error:  # whatever it is, or the future waits for ever
            settle = partial(_settle, future, None, _as_failure(error))
        with suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(settle)

    threading.Thread(target=run, name="feedtui-ask-index", daemon=True).start()
    return future


def _as_failure(error: BaseException) -> Exception:
    """The error to fail a future with: a BaseException (SystemExit…) raised
    on the loop would stop it, not just the question."""
    if isinstance(error, Exception):
        return error
    failure = RuntimeError(f"stopped by {error!r}")
    failure.__cause__ = error
    return failure


def _settle(future: asyncio.Future, result: object, error: Exception | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _ask_empty_message(question: str, read_matches: int = 0, show_all_key: str = "u") -> str:
    """Why an Ask shows no paper; `read_matches`: the papers that match but
    are hidden as read (unread only)."""
    if query_terms(question):
        if read_matches == 1:
            return f"The paper that matches those words is read — {show_all_key} shows it"
        if read_matches:
            return f"The {read_matches:,} papers that match those words are read — {show_all_key} shows them"
        return "No paper in this topic matches those words"
    if has_words(question):
        return "Only common words (the, of, papers…) were asked: ask with others"
    return "The question has no words to search for: ask with words"


def _papers(count: int) -> str:
    return f"{count:,} paper{'s' if count != 1 else ''}"


@dataclass(frozen=True)
class AskTitle:
    """The list's title for an Ask, fitted to the width it is drawn at: the
    count and the way back stay in view; "best match first" goes first, then
    the question is cut shorter (it is at most `ASK_SHOWN` cells anyway); with
    unread only, the key that shows every match and then the count's long form
    go before the question is cut below `ASK_CUT_TO` cells."""

    question: str
    found: int
    # Unread only: the papers that match, read or not (None: every match is shown).
    matched: int | None = None
    show_all_key: str = "u"
    back_key: str = "esc"

    def __rich_console__(self, console, options):
        yield self.fitted(options.max_width)

    def _counts(self) -> list[str]:
        """The count, its longest form first."""
        found, matched = self.found, self.matched
        if not matched:  # every match shown, or none at all
            return [f" — {_papers(found)}" if found else " — no paper matches"]
        if found:
            return [f" — {found:,} unread of {_papers(matched)}", f" — {found:,} unread"]
        return [f" — {_papers(matched)}, none unread", " — none unread"]

    def _tails(self) -> list[tuple[str, str, str]]:
        """(count, order, hint) from the whole title's to the shortest's."""
        counts = self._counts()
        order = ", best match first" if self.found else ""
        hidden = self.matched is not None and self.matched > self.found
        hint = f"  ({self.show_all_key} shows all)" if hidden else ""
        tails = [(counts[0], order, hint), (counts[0], "", hint), (counts[0], "", "")]
        tails += [(count, "", "") for count in counts[1:]]
        return list(dict.fromkeys(tails))

    def fitted(self, width: int) -> Text:
        back = f"  ({self.back_key}: back)"
        question = Text(one_line_safe(self.question))
        question.truncate(ASK_SHOWN, overflow="ellipsis")  # in cells
        tails = self._tails()
        room = [width - 5 - len("".join(tail)) - len(back) for tail in tails]
        whole = [i for i, cells in enumerate(room) if cells >= question.cell_len]
        cut = [i for i, cells in enumerate(room) if cells >= ASK_CUT_TO and not tails[i][1]]
        chosen = whole[0] if whole else cut[0] if cut else len(tails) - 1
        count, order, hint = tails[chosen]
        question.truncate(max(1, room[chosen]), overflow="ellipsis")
        title = Text(no_wrap=True, overflow="ellipsis", end="")
        title.append("Ask: ", style="bold")
        title.append_text(question)
        title.append(count + order, style="bold")
        title.append(hint + back, style="dim")
        return title


class Ask:
    """Owns the Ask box, the question asked, and the topics' search indexes
    (built in daemon threads, kept for the session)."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.question = ""
        # `/` was pressed in the sidebar: escape in the Ask box goes back there.
        self._asked_from_sidebar = False
        self._search_cache: dict[str, _AskIndex] = {}
        # The index build running, or the last one, by topic.
        self._index_builds: dict[str, asyncio.Future[SearchIndex]] = {}

    @property
    def box(self) -> Input:
        return self.screen.query_one("#ask", Input)

    def start(self) -> None:
        """`/`: the box, holding the question asked, if any, focused."""
        screen = self.screen
        if not screen.current or screen.current in (STARRED_VIEW, FOR_YOU_VIEW):
            return
        ask = self.box
        everything = screen.current == EVERYTHING_VIEW
        back = screen._key("app.back")
        ask.placeholder = f"Ask {'every paper' if everything else 'about this topic'}…  (enter to search, {back} to return)"
        self._asked_from_sidebar = screen.query_one(TopicList).has_focus
        ask.display = True
        ask.value = self.question
        screen.focus_now(ask)

    def submitted(self, value: str) -> None:
        question = value.strip()
        if not question:
            self.screen.action_back()
            return
        self.question = question
        self.ask(question)
        # Keys typed while the answer is looked for move in the list, not into the question.
        self.screen.focus_now(self.screen.query_one(PaperList))

    def close(self) -> None:
        self.box.display = False
        self.question = ""

    def open(self, question: str) -> None:
        """The box holding a question asked, as after enter: show_topic shows its answer."""
        ask = self.box
        ask.value = question
        ask.display = True
        self.question = question

    def back(self) -> bool:
        """Escape with a question open: closed, back to where / was pressed
        (among the answers, it stays in the list). False if none was open."""
        screen, ask = self.screen, self.box
        if not (ask.display or self.question):
            return False
        to_sidebar = ask.has_focus and self._asked_from_sidebar
        self.close()
        if screen.current:
            screen.show_topic(screen.current, keep=screen.topic_view.cursor_id(), focus_list=not to_sidebar)
        if to_sidebar:
            screen.focus_now(screen.query_one(TopicList))
        return True

    def ask(self, question: str, keep: str | None = None) -> None:
        if self.screen.current == EVERYTHING_VIEW:  # the whole cache: the engine answers
            self.screen.discover.ask_everything(question, keep)
            return
        self.screen.run_worker(partial(self._ask, question, keep), group="ask", exclusive=True)

    async def _ask(self, question: str, keep: str | None) -> None:
        screen = self.screen
        name = screen.current
        if not name:
            return
        screen.query_one("#list-title", Static).update(Text(f"Asking about {name}…", style="dim"))
        # Shielded: a question asked again meanwhile cancels this worker, not
        # the build it shares.
        try:
            index = await asyncio.shield(self._topic_index(name))
        except Exception as error:  # the papers could not be read: the next question builds again
            if screen.current == name and self.question == question:
                screen.notify(f"Could not search {name}: {error}", severity="error", markup=False)
                screen.action_back()
            return
        # Ranking 10,000 papers takes a few hundred milliseconds: not on the keys' thread.
        ranked = await asyncio.to_thread(index.rank, question)
        if screen.current != name or self.question != question:
            # Closed, or another topic shown, meanwhile: the index is kept for
            # the next question, and the list now shown stays.
            return
        library = self.engine.library  # a refresh may have replaced it meanwhile
        matched = [library.pos[pid] for pid, _ in ranked if pid in library.pos]
        positions = [i for i in matched if not library.is_read(i)] if screen.unread_only else matched
        view = screen.topic_view
        view.cards = TopicCards(
            library,
            positions,
            head=self.engine.abstract_head,
            current_topic=name,
            read=self.engine.read_view(),
            starred=self.engine.starred_view(),
            date_format=self.engine.settings.date_format,
            highlight=highlight_words(question),
            full_abstracts=view.full_abstracts,
            expanded=screen.query_one(PaperList).expanded,
            want_full=view.load_full_abstract,
        )
        show_all_key = screen._key("topic.unread_only")
        title = AskTitle(
            question, len(positions), len(matched) if screen.unread_only else None, show_all_key, screen._key("app.back")
        )
        screen.query_one("#list-title", Static).update(title)
        paper_list = screen.query_one(PaperList)
        paper_list.empty_message = _ask_empty_message(question, len(matched) - len(positions), show_all_key)
        paper_list.set_source(view.cards, keep=keep)
        screen.focus_now(paper_list)

    def _topic_index(self, name: str) -> asyncio.Future[SearchIndex]:
        """The topic's search index: the one kept, or the one being built, or a
        new build. Each is kept for the session."""
        library = self.engine.library
        members = list(library.topic_positions(name))
        cached = self._search_cache.get(name)
        if cached is None or not cached.holds(library, members):
            rows = [library.rows[i] for i in members]
            cached = self._search_cache[name] = _AskIndex(library, members, rows, self._new_index(name, members))
        return cached.index

    def _new_index(self, name: str, members: list[int]) -> asyncio.Future[SearchIndex]:
        """A build of the topic's index in a thread, now, or when the build
        running for it ends: two would only compete for the keys' thread."""
        running = self._index_builds.get(name)
        if running is None or running.done():
            build = self._index_builds[name] = _in_daemon_thread(self._build_index, members)
            return build
        queued = asyncio.ensure_future(self._index_after(name, running))
        queued.add_done_callback(lambda done: done.cancelled() or done.exception())
        return queued

    async def _index_after(self, name: str, running: asyncio.Future) -> SearchIndex:
        await asyncio.wait([running])
        entry = self._search_cache[name]
        if entry.index is not asyncio.current_task():
            return await entry.index  # asked for again meanwhile: that build answers
        # Built from the topic's papers as they are now (a refresh may have
        # stored more, or replaced the library, while it waited).
        library = entry.library = self.engine.library
        entry.members = list(library.topic_positions(name))
        entry.rows = [library.rows[i] for i in entry.members]
        build = self._index_builds[name] = _in_daemon_thread(self._build_index, entry.members)
        return await build

    def _build_index(self, members: list[int]) -> SearchIndex:
        """A topic's search index, kept for the session: built with the collector
        paused and then frozen, as the card rows are. Otherwise the collections
        after the pause walk its hundreds of thousands of objects again and
        again, each a stall of the keys of over a hundred milliseconds."""
        with gc_paused():
            index = self.engine.search_index(members)
            gc.freeze()
        return index
