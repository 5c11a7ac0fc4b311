"""The reader: topic sidebar on the left, the topic's page on the right."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from itertools import chain
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from feedtui.config import check_command, in_file_order
from feedtui.engine import Engine, RefreshProgress
from feedtui.memory import gc_paused
from feedtui.model import shown_title
from feedtui.search import SearchIndex, has_words, highlight_words, query_terms
from feedtui.sources.parse_text import cut
from feedtui.store.codec import C_SHARD, C_TITLE
from feedtui.topics.momentum import Momentum, sort_trending
from feedtui.topics.names import is_reading_list_name
from feedtui.ui.presenter import STARRED_VIEW, TopicCards, TopicRow, not_cached_note, starred_not_cached, starred_positions
from feedtui.ui import paper_actions
from feedtui.ui.crash import Guarded
from feedtui.ui.widgets.momentum_chart import ChartData, MomentumChart
from feedtui.ui.widgets.paper_list import PaperList, one_line_safe
from feedtui.ui.widgets.status_line import StatusLine
from feedtui.ui.widgets.text_input import TextInput
from feedtui.ui.widgets.topic_header import HeaderData, TopicHeader
from feedtui.ui.widgets.topic_list import TopicList, as_drawn

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widget import Widget

    from feedtui.refresh import Activity
    from feedtui.ui.screens.topic_form import TopicDraft, TopicProblem

SORTS = ("followed", "name", "unread", "trending")
# A query's name in the status line's "refreshing… Name: 300 of ~1,200 papers", cut to fit 80 columns.
ACTIVITY_LABEL_WIDTH = 18
# How long quitting waits for a refresh to store what it has fetched.
STOP_REFRESH_S = 10.0
REFRESH_RUNNING = "A refresh is running; what it fetches shows as it is stored"
READING_LIST_IS_NO_TOPIC = "The reading list holds the papers you starred (s); it is not a topic to edit or remove"
# What only a topic has: on the reading list these keys are shown dimmed.
TOPIC_ONLY = frozenset({"refresh_topic", "ask"})
# Tag jumps that escape can go back through.
JUMP_HISTORY = 50
# Cells of a question shown in the list's title.
ASK_SHOWN = 40
# Cells of the question kept, when it is cut, before the Ask title's count is shortened.
ASK_CUT_TO = 12
# An Ask's cards read the abstracts their matches are in once no key has come
# for this long (s), this many at a time (the cards on screen first); the
# latest SNIPPETS_KEPT cards that asked are remembered.
SNIPPET_WAIT_S = 0.3
SNIPPETS_READ = 12
SNIPPETS_KEPT = 48
# Said when a key that acts on the paper under the cursor finds none.
NO_PAPER_HERE = "No paper here"
# The preference that remembers a welcome screen left with escape.
WELCOME_SKIPPED = "welcome_skipped"
# Notifications for a config file's problems at start: this many problems,
# one each; with more, the first ones and a count, this many in all (a tall
# stack of notifications runs off the top of the screen).
CONFIG_PROBLEMS_SHOWN = 2
# Changes ctrl+z can take back, the latest first.
UNDO_DEPTH = 100


@dataclass
class Undo:
    """One change ctrl+z takes back: the `attribute` ("read" or "starred") of
    these papers goes back to what it was, `before`."""

    description: str
    paper_ids: list[str]
    attribute: str = "read"
    before: bool = False


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


class MainScreen(Guarded, Screen):
    AUTO_FOCUS = "#topics"
    # How often an open app looks whether the followed topics are due, and
    # how long it waits after an automatic refresh that reached no source.
    AUTO_REFRESH_CHECK_S = 300.0
    AUTO_REFRESH_RETRY_S = 1800.0
    BINDINGS = [
        # One key, two bindings: check_action lets through the one that applies,
        # so the footer says Follow or Unfollow; one id, so [keymap] moves both.
        Binding("f", "follow", "Follow", id="topic.follow"),
        Binding("f", "unfollow", "Unfollow", id="topic.follow"),
        Binding("m", "toggle_read", "Read", id="paper.toggle_read"),
        Binding("M", "mark_all_read", "Mark all read", show=False, id="topic.mark_all_read"),
        Binding("n", "next_unread", "Next unread", id="paper.next_unread"),
        Binding("u", "unread_only", "Unread only", id="topic.unread_only"),
        Binding("s", "star", "Star", id="paper.star"),
        Binding("o", "open_abstract", "Open", id="paper.open"),
        Binding("O", "open_pdf", "PDF", show=False, id="paper.open_pdf"),
        Binding("c", "copy_link", "Copy link", show=False, id="paper.copy_link"),
        Binding("b", "copy_bibtex", "Copy BibTeX", show=False, id="paper.copy_bibtex"),
        Binding("t", "tag_jump", "Go to tag", show=False, id="paper.tag_jump"),
        Binding("slash", "ask", "Ask", id="topic.ask"),
        Binding("a", "add_topic", "Add topic", show=False, id="topic.add"),
        Binding("E", "edit_topic", "Edit topic", show=False, id="topic.edit"),
        Binding("D", "remove_topic", "Remove topic", show=False, id="topic.remove"),
        Binding("r", "refresh_topic", "Refresh", id="topic.refresh"),
        Binding("R", "refresh_all", "Refresh all", show=False, id="app.refresh_all"),
        Binding("S", "cycle_sort", "Sort topics", show=False, id="topics.sort"),
        Binding("tab", "switch_focus", "Sidebar ⇄ list", show=False, id="app.switch_focus"),
        Binding("J", "focus_list", "Focus the list", show=False, id="app.focus_list"),
        Binding("K", "focus_sidebar", "Focus the sidebar", show=False, id="app.focus_sidebar"),
        Binding("ctrl+f", "filter_topics", "Filter topics", show=False, id="topics.filter"),
        Binding("escape", "back", "Back", show=False, id="app.back"),
    ]

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.current: str | None = None
        self.unread_only = False
        self.sort = engine.state.pref("sort", engine.settings.default_sort)
        if self.sort not in SORTS:
            self.sort = "followed"
        self.undo_stack: list[Undo] = []
        self.ask_question = ""
        # `/` was pressed in the sidebar: escape in the Ask box goes back there.
        self._asked_from_sidebar = False
        self._key_hints: dict[str, str] = {}
        self.refreshing = False
        # The topics the refresh under way fetches (None: every one due).
        self._refresh_names: list[str] | None = None
        # What the refresh under way is at, as the status line says it.
        self._refresh_activity: Activity = None
        self._auto_refreshed_at = float("-inf")
        self._list_total = 0
        self.refresh_failed = ""
        # When the refresh that failed ended: a refresh another feedtui made
        # since then (cron's) is the last word, and the badge goes.
        self._refresh_failed_at: datetime | None = None
        self._weeks: dict[str, tuple[int, ...]] = {}
        # The momentum the header and chart show (None: the reading list, or nothing yet).
        self._header_momentum: Momentum | None = None
        self._search_cache: dict[str, _AskIndex] = {}
        # The index build running, or the last one, by topic.
        self._index_builds: dict[str, asyncio.Future[SearchIndex]] = {}
        self._full_abstracts: dict[str, str] = {}
        self._loading_abstracts: set[str] = set()
        # Ask cards waiting to read the abstracts their matches are in, oldest first.
        self._snippets_wanted: dict[str, None] = {}
        self._snippet_timer: Timer | None = None
        self._cards: TopicCards | None = None
        # What the footer shows: whether the topic is followed (f says Follow or
        # Unfollow; None: no topic), and whether it is the reading list.
        self._footer_shows: tuple[bool | None, bool] = (None, False)
        # Topics followed while a refresh ran, refreshed once it has ended.
        self._queued_refresh: dict[str, None] = {}
        self._refresh_job: Worker | None = None
        self._save_failed = False  # a save failed and none has succeeded since (the store's threads)
        # Where tag jumps started (topic, card, question asked there or ""),
        # for escape to come back to.
        self._jumped_from: list[tuple[str, str | None, str]] = []
        self._following_trail = False
        self.ready = False

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield TextInput(placeholder=f"Filter topics…  ({self._key('topics.filter')})", id="topic-filter")
                yield TopicList(id="topics")
            with Vertical(id="main"):
                # What sits above the list, and the bars below everything, in
                # containers of their own: Textual repaints every widget whose
                # container overlaps a change, so the list scrolling then
                # leaves them alone (about 1 ms of each frame).
                with Vertical(id="list-head"):
                    yield TopicHeader(id="topic-header")
                    yield MomentumChart(id="chart")
                    yield TextInput(
                        placeholder=f"Ask about this topic…  (enter to search, {self._key('app.back')} to return)", id="ask"
                    )
                    yield Static(id="list-title")
                yield PaperList(id="papers")
        with Vertical(id="bars"):
            yield StatusLine(id="status")
            yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#ask", Input).display = False
        if self.engine.library_loaded:
            # The usual start: the library was read before Textual started, so
            # the first frame already shows the topics and papers.
            self.populate()
        else:
            self.query_one("#list-title", Static).update(Text("Loading the cache…", style="dim"))
            self.query_one(PaperList).empty_message = "Loading…"
            self.load()

    @work(exclusive=True, group="load")
    async def load(self) -> None:
        await asyncio.to_thread(self.engine.load_library)
        self.populate()

    def populate(self) -> None:
        # Tens of thousands of card rows live as long as the app: keep the cyclic
        # GC from walking them again and again (pauses of 100 ms+ otherwise).
        gc.freeze()
        self.ready = True
        self.tell_problems()
        self.rebuild_sidebar()
        self.show_status()
        self.call_after_refresh(self.after_first_paint)

    def tell_problems(self) -> None:
        """What start-up found wrong, a notification each; but Textual stacks
        them and those pushed off the top are never seen, so a config file's
        problems beyond the first few are one notification that counts them
        and names the command that lists them all."""
        engine = self.engine
        in_config = in_file_order(engine.config.problems)
        shown = in_config if len(in_config) <= CONFIG_PROBLEMS_SHOWN else in_config[: CONFIG_PROBLEMS_SHOWN - 1]
        for problem in shown:
            self.notify(str(problem), severity="warning", timeout=12, markup=False)
        if more := len(in_config) - len(shown):
            self.notify(
                f"…and {more} more problems in the config: {check_command(engine.config.path)} lists them all",
                severity="warning", timeout=12, markup=False,
            )
        said = {str(problem) for problem in in_config}
        for message in engine.problems.messages:
            if message not in said:
                self.notify(message, severity="warning", timeout=12, markup=False)

    def after_first_paint(self) -> None:
        """Work that can wait until the reader sees the screen."""
        engine = self.engine
        engine.state.on_external_change = self._state_changed_elsewhere
        engine.state.on_error = self._state_not_saved
        engine.state.on_recovered = self._state_recovered
        engine.state.on_durable = self._state_saved
        self.set_interval(2.0, self.check_cache_elsewhere)
        if engine.stale_topics:
            self.retag(engine.stale_topics)
        first_run = not engine.state.follows() and not len(engine.library) and not engine.demo
        if first_run and not engine.state.pref(WELCOME_SKIPPED):
            self.app.action_welcome()
        else:
            self.refresh_when_stale()
        self.set_interval(self.AUTO_REFRESH_CHECK_S, self.every_few_minutes)

    def every_few_minutes(self) -> None:
        self.follow_the_clock()
        self.refresh_when_stale()

    def follow_the_clock(self) -> None:
        """Momentum is as of now: as time passes, papers leave its windows, a
        paper dated ahead comes in, and on Monday 00:00 UTC a new week starts.
        The sparklines, the trending order and the topic's sentence and chart
        follow (with no work on a key press, and none redrawn when all is as
        drawn)."""
        topic_list = self.query_one(TopicList)
        rows = self.topic_rows()
        shown = topic_list.rows
        following, others = as_drawn(rows)
        if self.sort == "trending" and [r.name for r in following + others] != [r.name for r in shown]:
            topic_list.show_rows(rows, keep=self.current)
        else:
            weeks = {row.name: row.weeks for row in rows}
            for row in shown:
                if row.name in weeks and weeks[row.name] != row.weeks:
                    topic_list.update_row(replace(row, weeks=weeks[row.name]))
        name = self.current
        if self._header_momentum is not None and name in self.engine.registry:
            momentum = self.engine.momentum(name)
            if momentum != self._header_momentum:
                self._show_momentum(name, momentum)

    def refresh_when_stale(self) -> None:
        """At start and every AUTO_REFRESH_CHECK_S after: the followed topics
        not refreshed within refresh_age_hours (each topic on its own: one
        followed since the last refresh, never fetched, is due) are refreshed.
        After an attempt that changed nothing (every source failed: offline,
        say) the next one waits AUTO_REFRESH_RETRY_S rather than failing again
        at every check: the wait starts with each attempt, and a refresh that
        reaches a source (this one, or r) lifts it."""
        engine = self.engine
        if not engine.settings.auto_refresh or engine.demo or self.refresh_busy:
            return
        due = engine.stale_followed()
        if not due:
            return
        if time.monotonic() - self._auto_refreshed_at < self.AUTO_REFRESH_RETRY_S:
            return
        self._auto_refreshed_at = time.monotonic()
        self.refresh_topics(due)

    # -- another feedtui process at work ---------------------------------------------

    def on_unmount(self) -> None:
        # The store outlives the app (it is flushed once more on the way out):
        # its thread must not call into an app that has stopped.
        state = self.engine.state
        state.on_external_change = state.on_error = state.on_recovered = state.on_durable = None

    class StateStoreSaid(Message):
        """What the state store reported, from its own thread: posting is
        thread-safe and never waits (it may report while holding the data
        directory's lock, which the app's thread may be waiting for)."""

        def __init__(self, kind: str, text: str = "") -> None:
            super().__init__()
            self.kind = kind  # "changed elsewhere", "not saved", "recovered" or "saved"
            self.text = text

    def _state_changed_elsewhere(self) -> None:
        """Another process wrote state.json: follows, marks or topics changed."""
        self.post_message(self.StateStoreSaid("changed elsewhere"))

    def _state_not_saved(self, message: str) -> None:
        """A save failed (read-only or full disk, say): the store keeps the
        changes and retries."""
        self._save_failed = True  # on the store's thread, before the retry can succeed
        self.post_message(self.StateStoreSaid("not saved", message))

    def _state_recovered(self, message: str) -> None:
        """The store replaced a state.json damaged under it, with what it holds."""
        self.post_message(self.StateStoreSaid("recovered", message))

    def _state_saved(self, _sequence: int) -> None:
        if self._save_failed:
            self._save_failed = False
            self.post_message(self.StateStoreSaid("saved"))

    @on(StateStoreSaid)
    def on_state_store_said(self, event: StateStoreSaid) -> None:
        if event.kind == "changed elsewhere":
            self.on_state_changed()
        elif event.kind == "not saved":
            self.notify(event.text, title="Not saved", severity="error", timeout=20, markup=False)
        elif event.kind == "recovered":
            self.notify(event.text, severity="warning", timeout=20, markup=False)
        else:
            self.notify("Your follows and marks are saved again.", markup=False)

    def on_state_changed(self) -> None:
        engine = self.engine
        before = set(engine.registry.names())
        stale = engine.reload_topics()
        engine.library.recount()
        if stale:
            self.retag(stale)
        if self.current and self.current != STARRED_VIEW and self.current not in engine.registry:
            # Renamed or removed by another feedtui (one changed here is no
            # longer current): said, so that the next key is not taken as
            # meant for another topic; a renamed one stays in view.
            renamed = next(
                (name for name in engine.registry.names() if name not in before and engine.state.renamed_from(name) == self.current),
                "",
            )
            if renamed:
                self.notify(f"{self.current} was renamed {renamed} by another feedtui", markup=False)
                self.current = renamed
            else:
                self.notify(f"{self.current} was removed by another feedtui", severity="warning", markup=False)
        self.rebuild_sidebar()
        if self.current:
            if self.current != STARRED_VIEW and self.current not in engine.registry:
                self.current = None
                self.rebuild_sidebar()
            else:
                self.show_topic(self.current, keep=self._cursor_id())

    def check_cache_elsewhere(self) -> None:
        if not self.refreshing and self.engine.cache_changed_elsewhere():
            self.reload_library()

    @work(exclusive=True, group="reload")
    async def reload_library(self) -> None:
        await asyncio.to_thread(self.engine.load_library)
        # Another feedtui may have stored new versions of papers read whole here.
        self._full_abstracts.clear()
        if self.engine.stale_topics:
            self.retag(self.engine.stale_topics)
        self.catch_up()
        self.show_status("new papers from another feedtui")

    def on_resize(self, event) -> None:
        """Small terminals (down to 60×20) keep room for the cards: a shorter chart,
        then none; a narrower sidebar; below that, a header of two lines at most."""
        width, height = event.size.width, event.size.height
        self.set_class(height < 34, "-short")
        self.set_class(height < 26, "-tiny")
        self.set_class(height < 16, "-cramped")
        self.set_class(width < 90, "-narrow")

    # -- the sidebar -----------------------------------------------------------

    def topic_rows(self) -> list[TopicRow]:
        engine = self.engine
        library = engine.library
        following = engine.state.is_following
        filter_text = self.query_one("#topic-filter", Input).value.casefold().strip()
        rows: list[TopicRow] = []
        entries = [e for e in engine.topics() if not filter_text or filter_text in e.name.casefold()]
        momenta = engine.momenta([e.name for e in entries])
        for entry in entries:
            momentum = momenta[entry.name]
            weeks = tuple(w.count for w in momentum.weeks)
            self._weeks[entry.name] = weeks
            rows.append(
                TopicRow(
                    name=entry.name,
                    following=following(entry.name),
                    unread=library.unread_count(entry.name),
                    papers=len(library.topic_positions(entry.name)),
                    weeks=weeks,
                    error=entry.error,
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
        if not filter_text or filter_text in STARRED_VIEW.casefold():
            rows.insert(0, self._starred_row())
        return rows

    def _starred_row(self) -> TopicRow:
        """The reading list's row counts its unread papers, as the topics' rows do."""
        library = self.engine.library
        positions = starred_positions(library, self.engine.state.starred_view())
        unread = sum(1 for position in positions if not library.is_read(position))
        return TopicRow(STARRED_VIEW, False, unread, len(positions), virtual=True)

    def rebuild_sidebar(self, keep: str | None = None) -> None:
        """The sidebar's rows anew, its cursor on `keep`, else on the row it is
        on: a key may have moved it to a topic not shown yet (its Shown message
        on its way), and putting it back on the topic shown lost that key."""
        topic_list = self.query_one(TopicList)
        topic_list.show_rows(self.topic_rows(), keep=keep or topic_list.current or self.current)
        filter_input = self.query_one("#topic-filter", Input)
        if self.current is None and not topic_list.rows and filter_input.value:
            # The topic shown is gone (removed here or elsewhere) and the filter
            # matched only it: the filter goes too, so that another topic is shown.
            filter_input.value = ""
            topic_list.show_rows(self.topic_rows())
        if self.current is None or self.current not in [r.name for r in topic_list.rows]:
            chosen = topic_list.current
            if chosen:
                self.show_topic(chosen)

    def _show_list_title(self) -> None:
        """`Latest papers (N)`; with unread only, how many of those shown are
        still unread (a card marked read stays until the topic is shown again)."""
        title = Text()
        title.append("Latest papers ", style="bold")
        title.append(f"({self._list_total:,})", style="bold")
        if self.unread_only and self._cards is not None:
            library = self.engine.library
            left = sum(1 for position in self._cards.positions if not library.is_read(position))
            title.append(f"  ·  unread only: {left:,} left ({self._key('topic.unread_only')} shows all)", style="dim")
        self.query_one("#list-title", Static).update(title)

    def update_counts(self, topics: set[str]) -> None:
        """Unread counts changed for these topics: redraw their rows only (and
        the reading list's, which may hold the papers)."""
        if self.unread_only and not self.ask_question:
            self._show_list_title()
        library = self.engine.library
        topic_list = self.query_one(TopicList)
        following = self.engine.state.is_following
        for row in topic_list.rows:
            if row.name in topics:
                topic_list.update_row(
                    TopicRow(
                        row.name, following(row.name), library.unread_count(row.name), row.papers, row.weeks, row.error
                    )
                )
        topic_list.update_row(self._starred_row())

    @on(TopicList.Shown)
    def on_topic_shown(self, event: TopicList.Shown) -> None:
        if event.name != self.current:
            self._close_ask()  # the question was about the topic left
            self.show_topic(event.name)

    @on(Input.Changed, "#topic-filter")
    def on_filter_changed(self, event: Input.Changed) -> None:
        topic_list = self.query_one(TopicList)
        typed = one_line_safe(event.value.strip())
        topic_list.empty_message = f"No topic matches “{typed}” ({self._key('app.back')} clears)" if typed else ""
        topic_list.show_rows(self.topic_rows(), keep=self.current)

    @on(Input.Submitted, "#topic-filter")
    def on_filter_submitted(self) -> None:
        topic_list = self.query_one(TopicList)
        self._focus(topic_list)
        if topic_list.current:
            self.show_topic(topic_list.current)

    # -- the topic view -----------------------------------------------------------

    def show_topic(self, name: str, *, keep: str | None = None, focus_list: bool = False) -> None:
        engine = self.engine
        if name != self.current and not self._following_trail:
            self._jumped_from.clear()  # gone elsewhere: escape no longer leads back
        self.current = name
        library = engine.library
        if name == STARRED_VIEW:
            positions = starred_positions(library, engine.state.starred_view())
            about = f"Your reading list: papers you starred with {self._key('paper.star')}."
            missing = starred_not_cached(library, engine.state.starred_view())
            if missing:
                about += f" {not_cached_note(missing, self._key('app.refresh_all'))}."
            self.query_one(TopicHeader).show_header(HeaderData(STARRED_VIEW, False, "", about, virtual=True))
            self.query_one(MomentumChart).add_class("-hidden")
            self._header_momentum = None
        else:
            positions = library.topic_positions(name)
            self._show_momentum(name, engine.momentum(name))
        self._show_follow_key()
        total = len(positions)
        if self.unread_only:
            positions = [i for i in positions if not library.is_read(i)]
        if self.ask_question:
            self.ask(self.ask_question, keep=keep)
            return
        self._cards = TopicCards(
            library,
            positions,
            head=engine.cache.head,
            current_topic=name,
            read=engine.state.read_view(),
            starred=engine.state.starred_view(),
            date_format=engine.settings.date_format,
            full_abstracts=self._full_abstracts,
            expanded=self.query_one(PaperList).expanded,
            want_full=self.load_full_abstract,
        )
        self._list_total = total
        self._show_list_title()
        paper_list = self.query_one(PaperList)
        paper_list.empty_message = self._empty_message(name, total)
        paper_list.set_source(self._cards, keep=keep)
        if focus_list:
            self._focus(paper_list)

    def _show_momentum(self, name: str, momentum: Momentum) -> None:
        """The topic's header, its sentence, and its chart."""
        entry = self.engine.topic(name)
        self.query_one(TopicHeader).show_header(
            HeaderData(
                name=name,
                following=self.engine.state.is_following(name),
                definition=entry.topic.definition.describe(),
                description=entry.topic.description,
                sentence=momentum.sentence,
                error=entry.error,
                follow_key=self._key("topic.follow"),
            )
        )
        chart = self.query_one(MomentumChart)
        chart.remove_class("-hidden")
        chart.update_chart(ChartData.from_momentum(momentum))
        self._header_momentum = momentum

    def _key(self, binding_id: str) -> str:
        """The key that does a binding here, keymap included, for hints in sentences."""
        from feedtui.ui.screens.help import key_hint

        hint = self._key_hints.get(binding_id)
        if hint is None:
            bindings = chain(self.app.BINDINGS, self.BINDINGS, PaperList.BINDINGS, TopicList.BINDINGS)
            hint = self._key_hints[binding_id] = key_hint(binding_id, self.engine.settings.keymap, bindings)
        return hint

    def _empty_message(self, name: str, total: int) -> str:
        if name == STARRED_VIEW and not total and self.engine.state.starred_view():
            return "None of your starred papers is in the cache (see above)"
        if name == STARRED_VIEW:
            return f"No starred papers yet — press {self._key('paper.star')} on a paper to star it"
        if total and self.unread_only:
            return (
                f"All read here — {self._key('topic.unread_only')} shows every paper, "
                f"{self._key('paper.next_unread')} goes to the next unread"
            )
        if self.engine.demo:
            return "No papers in this topic in the demo data"
        if self.engine.state.is_following(name):
            if self.refreshing and (self._refresh_names is None or name in self._refresh_names):
                return "No papers yet — fetching this topic now"
            return f"No papers yet — press {self._key('topic.refresh')} to fetch this topic"
        return f"No papers yet — press {self._key('topic.follow')} to follow this topic and fetch it"

    def show_status(self, note: str = "") -> None:
        last = self._last_refresh()
        failed_at = self._refresh_failed_at
        # Saved to the second: one within the failed refresh's second came after it.
        if self.refresh_failed and last and failed_at and last >= failed_at.replace(microsecond=0):
            self.refresh_failed = ""
        self.query_one(StatusLine).show(
            last_refresh=last, failed=self.refresh_failed, note=note, papers=len(self.engine.library)
        )

    def _last_refresh(self) -> datetime | None:
        """The last refresh that fetched something, this reader's or another
        feedtui's on the same data (saved with the state)."""
        own = self.engine.last_refresh
        try:
            saved = datetime.fromisoformat(self.engine.state.pref("last_refresh") or "")
        except ValueError:
            saved = None
        if saved is not None and saved.tzinfo is None:
            saved = None
        return max((t for t in (own, saved) if t is not None), default=None)

    # -- paper list events ---------------------------------------------------------

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
                self.call_after_refresh(self._fetch_abstracts, [paper_id])
            return
        if paper_id in self._loading_abstracts or paper_id in self._snippets_wanted:
            return
        self._snippets_wanted[paper_id] = None
        if len(self._snippets_wanted) > SNIPPETS_KEPT:
            # Scrolled past long ago: forgotten, and asked for again if drawn again.
            oldest = next(iter(self._snippets_wanted))
            del self._snippets_wanted[oldest]
            if self._cards is not None and (index := self._cards.index_of(oldest)) is not None:
                self.query_one(PaperList).invalidate([index])
        if self._snippet_timer is None:
            self._snippet_timer = self.set_timer(SNIPPET_WAIT_S, self._fetch_snippets_when_still)

    def _fetch_snippets_when_still(self) -> None:
        quiet = self.app.idle_collector.quiet_for()
        if quiet < SNIPPET_WAIT_S:
            self._snippet_timer = self.set_timer(SNIPPET_WAIT_S - quiet, self._fetch_snippets_when_still)
            return
        self._snippet_timer = None
        cards = self._cards
        if cards is None:
            self._snippets_wanted.clear()
            return
        shown = {cards.paper_id(index) for index in self.query_one(PaperList).visible_range()}
        latest_first = [pid for pid in reversed(self._snippets_wanted) if cards.index_of(pid) is not None]
        batch = sorted(latest_first, key=lambda pid: pid not in shown)[:SNIPPETS_READ]
        self._snippets_wanted = {pid: None for pid in self._snippets_wanted if pid in latest_first and pid not in batch}
        self._loading_abstracts.update(batch)
        self._fetch_abstracts(batch)
        if self._snippets_wanted:
            self._snippet_timer = self.set_timer(SNIPPET_WAIT_S, self._fetch_snippets_when_still)

    @work(group="abstracts")
    async def _fetch_abstracts(self, paper_ids: list[str]) -> None:
        # Where each paper is, looked up here: a reload may replace the library meanwhile.
        library = self.engine.library
        locations = {pid: library.rows[library.pos[pid]][C_SHARD] for pid in paper_ids if pid in library.pos}
        try:
            papers = await asyncio.to_thread(self.engine.cache.get_papers, locations) if locations else {}
        finally:
            self._loading_abstracts.difference_update(paper_ids)
        for paper_id, paper in papers.items():
            self._full_abstracts[paper_id] = paper.readable_abstract
        if self._cards is not None:
            found = (self._cards.index_of(paper_id) for paper_id in papers)
            if indices := [index for index in found if index is not None]:
                self.query_one(PaperList).invalidate(indices)

    @on(PaperList.Opened)
    def on_paper_opened(self, event: PaperList.Opened) -> None:
        self.open_detail(event.paper_id)

    @on(PaperList.TagSelected)
    def on_tag_selected(self, event: PaperList.TagSelected) -> None:
        self.jump_to_topic(event.topic)

    def jump_to_topic(self, name: str) -> None:
        """Follow a paper's tag to its topic; escape comes back to this topic and
        card, and to the Ask's answer if the card was one."""
        if name not in self.engine.registry or name == self.current:
            return
        trail = self._jumped_from
        if self.current:
            trail.append((self.current, self._cursor_id(), self.ask_question))
            del trail[:-JUMP_HISTORY]
        self._along_trail(name)

    def _jump_back(self) -> bool:
        """Back to where the last tag jump started (going to a topic by any other
        way ends the trail: see show_topic)."""
        while self._jumped_from:
            name, paper_id, question = self._jumped_from.pop()
            if name == STARRED_VIEW or name in self.engine.registry:
                self._along_trail(name, keep=paper_id, question=question)
                return True
        return False

    def _along_trail(self, name: str, keep: str | None = None, question: str = "") -> None:
        self._following_trail = True
        try:
            self.go_to_topic(name, keep=keep, question=question)
        finally:
            self._following_trail = False

    def open_detail(self, paper_id: str) -> None:
        from feedtui.ui.screens.detail import DetailScreen

        if self.engine.settings.open_marks_read and not self.engine.state.is_read(paper_id):
            self.toggle_read(paper_id)  # as m does: ctrl+z takes it back
        self.app.push_screen(DetailScreen(self.engine, paper_id))

    def go_to_topic(self, name: str, *, keep: str | None = None, question: str = "") -> None:
        """Show a topic, its papers or the answer to `question` about them; the
        question asked about the topic left goes."""
        if name not in self.engine.registry and name != STARRED_VIEW:
            return
        filter_input = self.query_one("#topic-filter", Input)
        if filter_input.value:
            filter_input.value = ""
            self.query_one(TopicList).show_rows(self.topic_rows(), keep=name)
        self.query_one(TopicList).select_topic(name)
        self._close_ask()
        if question:
            self._open_ask(question)
        self.show_topic(name, keep=keep, focus_list=True)

    # -- adding, editing, removing topics ----------------------------------------

    def action_add_topic(self) -> None:
        from feedtui.ui.screens.topic_form import TopicFormScreen

        self.app.push_screen(TopicFormScreen("New topic", self._save_new_topic))

    def _changeable_topic(self) -> str | None:
        """The topic shown, for E and D; on the reading list, a word on why not."""
        if self.current == STARRED_VIEW:
            self.notify(READING_LIST_IS_NO_TOPIC, markup=False)
            return None
        return self.current

    def action_edit_topic(self) -> None:
        from feedtui.ui.screens.topic_form import TopicDraft, TopicFormScreen

        name = self._changeable_topic()
        if not name:
            return
        topic = self.engine.topic(name).topic
        draft = TopicDraft(topic.name, topic.definition, topic.description)
        form = TopicFormScreen(
            f"Edit {topic.name}",
            lambda typed: self._save_edited_topic(topic.name, typed),
            draft,
            name_fixed=self._why_name_is_fixed(topic.name),
        )
        self.app.push_screen(form)

    def _why_name_is_fixed(self, name: str) -> str:
        """By the name in E's form: why it cannot be changed there ("" when it can)."""
        if not self.engine.rename_refused(name):
            return ""
        if where := self.engine.config_file_defining(name):
            return f"rename its [[topic]] table in {where}"
        return "a catalogue topic keeps its name"

    def action_remove_topic(self) -> None:
        from feedtui.ui.screens.topic_form import ConfirmScreen

        name = self._changeable_topic()
        if not name:
            return
        refused = self.engine.removal_refused(name)
        if refused:  # said before asking, not after
            self.notify(refused, markup=False)
            return
        if copy_of := self.engine.config_copy_of(name):
            self._drop_config_copy(name, copy_of)
            return
        catalogue = name in self.engine.registry.catalogue_names
        question = f"{'Hide the catalogue topic' if catalogue else 'Remove the topic'} {name}?"
        detail = "Its papers stay in the cache, with their read marks and stars."
        followed = self.engine.state.is_following(name)
        if catalogue:
            detail += " You follow it." if followed else ""
            detail += f" The command feedtui topic restore '{name}' brings it back{', followed' if followed else ''}."
        elif followed:
            detail += " You follow it: removing it unfollows it."

        def answered(yes: bool | None) -> None:
            if yes:
                self.engine.remove_topic(name)
                self.current = None
                self._close_ask()
                self.on_state_changed()
                self.notify(f"Removed {name}", markup=False)

        self.app.push_screen(ConfirmScreen(question, detail), answered)

    def _drop_config_copy(self, name: str, copy_of: str) -> None:
        from feedtui.ui.screens.topic_form import ConfirmScreen

        question = f"Drop your edited copy of {name}?"
        detail = f"It overrides the topic's [[topic]] table in {copy_of}, which then defines it again."

        def answered(yes: bool | None) -> None:
            if yes:
                self.engine.remove_topic(name)
                self.on_state_changed()
                self.notify(f"{name} is as {copy_of} defines it again", markup=False)

        self.app.push_screen(ConfirmScreen(question, detail), answered)

    def _save_new_topic(self, draft: TopicDraft) -> TopicProblem | None:
        from feedtui.ui.screens.topic_form import TopicProblem

        name = self.engine.topic_name(draft.name)
        taken = self.engine.name_taken(name)
        if taken and not is_reading_list_name(taken):  # the reading list's name: add_topic says why
            return TopicProblem(f"There is a topic called {taken} already: {self._key('topic.edit')} edits it.", "name")
        return self._topic_problem(draft, lambda: self.engine.add_topic(name, draft.definition, draft.description))

    def _save_edited_topic(self, name: str, draft: TopicDraft) -> TopicProblem | None:
        """Save topic `name` as typed, renamed if the name was changed (its
        follow goes with it), and keep it the topic shown."""
        definition = draft.definition

        def save() -> None:
            entry = self.engine.edit_topic(
                name,
                query=definition.query,
                categories=definition.categories,
                feeds=definition.feeds,
                description=draft.description,
                new_name=draft.name,
            )
            if self.current == name:
                self.current = entry.name

        return self._topic_problem(draft, save)

    def _topic_problem(self, draft: TopicDraft, save: Callable[[], object]) -> TopicProblem | None:
        """What is wrong with a topic as typed (None once saved, and shown), with
        the field to mend it in, as the engine names it (see TopicRefused).

        The saved topic is shown here, while the form's enter is handled, rather
        than in a callback of the form's dismissal: that ran after keys typed
        right after enter (K j to move on), and took the sidebar back to it."""
        from feedtui.engine import TopicRefused
        from feedtui.topics.query import QueryError
        from feedtui.ui.screens.topic_form import TopicProblem

        try:
            save()
        except QueryError as error:
            return TopicProblem(f"The query: {error}\n{error.caret_line()}", "query")
        except ValueError as error:
            message = str(error)
            field = error.field if isinstance(error, TopicRefused) else ""
            return TopicProblem(message[:1].upper() + message[1:], field)
        self._show_saved(draft.name)
        return None

    def _show_saved(self, typed: str) -> None:
        name = self.engine.topic_name(typed)
        self.on_state_changed()  # the registry, the retag of the topic, the sidebar
        self._close_ask()
        self.go_to_topic(name)
        following = self.engine.state.is_following(name)
        self.notify(f"Saved {name}" + ("" if following else f" — {self._key('topic.follow')} follows it"), markup=False)
        if note := self.engine.override_note(name):
            self.notify(note, severity="warning", markup=False)

    def _close_ask(self) -> None:
        self.query_one("#ask", Input).display = False
        self.ask_question = ""

    def _open_ask(self, question: str) -> None:
        """The box holding a question asked, as after enter: show_topic shows its answer."""
        ask = self.query_one("#ask", Input)
        ask.value = question
        ask.display = True
        self.ask_question = question

    # -- marks ---------------------------------------------------------------------

    def _cursor_id(self) -> str | None:
        card = self.query_one(PaperList).cursor_card
        return card.paper_id if card else None

    def _acted_on_id(self) -> str | None:
        """The paper under the cursor, for a key that acts on one; on an empty
        list, a word that there is none (the key would otherwise do nothing)."""
        paper_id = self._cursor_id()
        if paper_id is None:
            self.notify(NO_PAPER_HERE, markup=False)
        return paper_id

    def _set_read(self, ids: list[str], read: bool) -> list[str]:
        engine = self.engine
        changed = engine.mark_read(ids) if read else engine.mark_unread(ids)
        if changed:
            library = engine.library
            topics = {t for pid in changed if pid in library.pos for t in library.tags[library.pos[pid]]}
            self.update_counts(topics)
            self._invalidate_ids(changed)
        return changed

    def _invalidate_ids(self, ids: list[str]) -> None:
        if self._cards is None:
            return
        indices = [index for index in map(self._cards.index_of, ids) if index is not None]
        self.query_one(PaperList).invalidate(indices)

    def _set_starred(self, ids: list[str], starred: bool) -> None:
        if starred:
            self.engine.star(ids)
        else:
            self.engine.unstar(ids)
        self._invalidate_ids(ids)
        self.update_counts(set())

    def _remember(self, undo: Undo) -> None:
        self.undo_stack.append(undo)
        del self.undo_stack[:-UNDO_DEPTH]

    def _titled(self, paper_id: str) -> str:
        """“A paper's title”, cut to fit a notification."""
        library = self.engine.library
        position = library.pos.get(paper_id)
        title = one_line_safe(shown_title(library.rows[position][C_TITLE])) if position is not None else paper_id
        return f"“{cut(title, 60)}”"

    def action_toggle_read(self) -> None:
        paper_id = self._acted_on_id()
        if paper_id is not None:
            self.toggle_read(paper_id)

    def toggle_read(self, paper_id: str) -> None:
        """Mark a paper read or unread, here or from the detail view."""
        was = self.engine.state.is_read(paper_id)
        if self._set_read([paper_id], not was):
            now = "unread" if was else "read"
            self._remember(Undo(f"marked {self._titled(paper_id)} {now}", [paper_id], "read", was))

    def action_mark_all_read(self) -> None:
        if self._cards is None or not len(self._cards):
            self.notify(NO_PAPER_HERE, markup=False)
            return
        ids = [self.engine.library.ids[p] for p in self._cards.positions]
        changed = self._set_read(ids, True)
        if changed:
            papers = f"{len(changed):,} paper{'s' if len(changed) != 1 else ''}"
            where = "the reading list" if self.current == STARRED_VIEW else self.current
            self._remember(Undo(f"marked {papers} read in {where}", changed))
            self.notify(f"Marked {papers} read — {self._key('app.undo')} to undo", markup=False)
        else:
            self.notify("Every paper here is read already", markup=False)

    def action_undo(self) -> None:
        if not self.undo_stack:
            self.notify("Nothing to undo", markup=False)
            return
        undo = self.undo_stack.pop()
        if undo.attribute == "starred":
            self._set_starred(undo.paper_ids, undo.before)
        else:
            self._set_read(undo.paper_ids, undo.before)
        self.notify(f"Undone: {undo.description}", markup=False)

    def action_star(self) -> None:
        paper_id = self._acted_on_id()
        if paper_id is not None:
            self.toggle_star(paper_id)

    def toggle_star(self, paper_id: str) -> None:
        """Star or unstar a paper, here or from the detail view: its card and
        the reading list's row follow."""
        was = self.engine.state.is_starred(paper_id)
        self._set_starred([paper_id], not was)
        done = "unstarred" if was else "starred"
        self._remember(Undo(f"{done} {self._titled(paper_id)}", [paper_id], "starred", was))

    def action_unread_only(self) -> None:
        self.unread_only = not self.unread_only
        if self.current:
            self.show_topic(self.current, keep=self._cursor_id())
        self.notify("Showing unread papers only" if self.unread_only else "Showing every paper", markup=False)

    def action_next_unread(self) -> None:
        """The next unread paper below the cursor; else the first in the next
        topic down the sidebar (as drawn, filtered or not) with any; else,
        rounding, the first in this topic. The reading list is a list of its
        own: n rounds within it."""
        library = self.engine.library
        cursor = self.query_one(PaperList).cursor
        if self._go_to_unread(range(cursor + 1, self._card_count())):
            return
        if self.current != STARRED_VIEW:
            names = [r.name for r in self.query_one(TopicList).rows if not r.virtual]
            start = names.index(self.current) + 1 if self.current in names else 0
            for name in names[start:] + names[:start]:
                if name != self.current and library.unread_count(name) > 0:
                    self.go_to_topic(name)
                    self._go_to_unread(range(self._card_count()))
                    return
        if not self._go_to_unread(range(min(cursor, self._card_count()))):
            self.notify(self._nothing_unread_next(cursor), markup=False)

    def _nothing_unread_next(self, cursor: int) -> str:
        """What `n` says when it has nowhere to go: the paper under the cursor
        may be the last unread one, and a sidebar filter may hide topics with more."""
        count = self._card_count()
        on_unread = 0 <= cursor < count and not self.engine.library.is_read(self._cards.positions[cursor])  # type: ignore[union-attr]
        if self.current == STARRED_VIEW:
            where = " in the reading list"
        elif self.query_one("#topic-filter", Input).value.strip():
            where = " in the topics the sidebar filter shows"
        else:
            where = ""
        return f"This is the last unread paper{where}" if on_unread else f"No unread papers left{where}"

    def _card_count(self) -> int:
        return len(self._cards) if self._cards is not None else 0

    def _go_to_unread(self, indexes: range) -> bool:
        """Put the cursor on the first unread card among `indexes`, if any."""
        library, paper_list = self.engine.library, self.query_one(PaperList)
        for index in indexes:
            if not library.is_read(self._cards.positions[index]):  # type: ignore[union-attr]
                paper_list.go_to(index)
                self._focus(paper_list)
                return True
        return False

    # -- topics ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TOPIC_ONLY and self.current == STARRED_VIEW:
            return None  # shown dimmed: the reading list is no topic to refresh or ask about
        if action not in ("follow", "unfollow"):
            return True
        following = self._footer_shows[0]
        if following is None:  # no topic, or the reading list
            return None if action == "follow" else False  # Follow, dimmed
        return (action == "unfollow") == following

    def _show_follow_key(self) -> None:
        """Have the footer say Follow or Unfollow, as the topic shown is, and
        dim what only a topic has on the reading list."""
        name = self.current
        following = None if not name or name == STARRED_VIEW else self.engine.state.is_following(name)
        shown = (following, name == STARRED_VIEW)
        if shown != self._footer_shows:
            self._footer_shows = shown
            if self.query_one(Footer).children:
                # Drawn already; a footer not yet drawn asks check_action when it is
                # (at start that saves the footer one more compose).
                self.refresh_bindings()

    def action_follow(self) -> None:
        self._set_following(True)

    def action_unfollow(self) -> None:
        self._set_following(False)

    def _set_following(self, follow: bool) -> None:
        name = self.current
        if not name or name == STARRED_VIEW:
            return
        engine = self.engine
        if not follow:
            engine.unfollow(name)
            self.notify(f"No longer following {name}", markup=False)
        else:
            engine.follow(name)
            self.notify(f"Following {name}", markup=False)
            if not engine.demo:
                self.refresh_soon([name])
        self.rebuild_sidebar(keep=name)
        self.show_topic(name, keep=self._cursor_id())

    def action_cycle_sort(self) -> None:
        # Followed topics stay on top in every order (SPEC §2), so "name" draws
        # the sidebar as "followed" does: S skips it.
        shown = [order for order in SORTS if order != "name"]
        current = "followed" if self.sort == "name" else self.sort
        self.sort = shown[(shown.index(current) + 1) % len(shown)]
        self.engine.state.set_pref("sort", self.sort)
        self.rebuild_sidebar()
        self.notify(f"Topics sorted by {self.sort}", markup=False)

    def action_tag_jump(self) -> None:
        card = self.query_one(PaperList).cursor_card
        if card is None:
            self.notify(NO_PAPER_HERE, markup=False)
            return
        others = [t for t in card.tags if t != self.current]
        if not others:
            self.notify("This paper has no other topics", markup=False)
            return
        if len(others) == 1:
            self.jump_to_topic(others[0])
            return
        from feedtui.ui.screens.pick_topic import PickTopicScreen

        def chosen(name: str | None) -> None:
            if name:
                self.jump_to_topic(name)

        self.app.push_screen(PickTopicScreen(others), chosen)

    # -- ask about this topic ---------------------------------------------------------

    def action_ask(self) -> None:
        if not self.current or self.current == STARRED_VIEW:
            return
        ask = self.query_one("#ask", Input)
        self._asked_from_sidebar = self.query_one(TopicList).has_focus
        ask.display = True
        ask.value = self.ask_question
        self._focus(ask)

    @on(Input.Submitted, "#ask")
    def on_ask_submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            self.action_back()
            return
        self.ask_question = question
        self.ask(question)
        # Keys typed while the answer is looked for move in the list, not into the question.
        self._focus(self.query_one(PaperList))

    @work(exclusive=True, group="ask")
    async def ask(self, question: str, keep: str | None = None) -> None:
        name = self.current
        if not name:
            return
        self.query_one("#list-title", Static).update(Text(f"Asking about {name}…", style="dim"))
        # Shielded: a question asked again meanwhile cancels this worker, not
        # the build it shares.
        try:
            index = await asyncio.shield(self._topic_index(name))
        except Exception as error:  # the papers could not be read: the next question builds again
            if self.current == name and self.ask_question == question:
                self.notify(f"Could not search {name}: {error}", severity="error", markup=False)
                self.action_back()
            return
        # Ranking 10,000 papers takes a few hundred milliseconds: not on the keys' thread.
        ranked = await asyncio.to_thread(index.rank, question)
        if self.current != name or self.ask_question != question:
            # Closed, or another topic shown, meanwhile: the index is kept for
            # the next question, and the list now shown stays.
            return
        library = self.engine.library  # a refresh may have replaced it meanwhile
        matched = [library.pos[pid] for pid, _ in ranked if pid in library.pos]
        positions = [i for i in matched if not library.is_read(i)] if self.unread_only else matched
        self._cards = TopicCards(
            library,
            positions,
            head=self.engine.cache.head,
            current_topic=name,
            read=self.engine.state.read_view(),
            starred=self.engine.state.starred_view(),
            date_format=self.engine.settings.date_format,
            highlight=highlight_words(question),
            full_abstracts=self._full_abstracts,
            expanded=self.query_one(PaperList).expanded,
            want_full=self.load_full_abstract,
        )
        show_all_key = self._key("topic.unread_only")
        title = AskTitle(
            question, len(positions), len(matched) if self.unread_only else None, show_all_key, self._key("app.back")
        )
        self.query_one("#list-title", Static).update(title)
        paper_list = self.query_one(PaperList)
        paper_list.empty_message = _ask_empty_message(question, len(matched) - len(positions), show_all_key)
        paper_list.set_source(self._cards, keep=keep)
        self._focus(paper_list)

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
        again, each a 120–170 ms stall of the keys (measured at 10,000 papers)."""
        with gc_paused():
            index = self.engine.search_index(members)
            gc.freeze()
        return index

    def action_back(self) -> None:
        ask = self.query_one("#ask", Input)
        if ask.display or self.ask_question:
            # Escape in the box goes back to where / was pressed; among the
            # answers, it stays in the list.
            to_sidebar = ask.has_focus and self._asked_from_sidebar
            self._close_ask()
            if self.current:
                self.show_topic(self.current, keep=self._cursor_id(), focus_list=not to_sidebar)
            if to_sidebar:
                self._focus(self.query_one(TopicList))
            return
        filter_input = self.query_one("#topic-filter", Input)
        topic_list = self.query_one(TopicList)
        if filter_input.has_focus or (filter_input.value and topic_list.has_focus):
            # Clears the filter (as its empty message says), or leaves an empty one.
            filter_input.value = ""
            self._focus(topic_list)
            return
        self._jump_back()

    # -- links -----------------------------------------------------------------------

    def _cursor_paper(self):
        paper_id = self._acted_on_id()
        return self.engine.paper(paper_id) if paper_id is not None else None

    def action_open_abstract(self) -> None:
        if paper := self._cursor_paper():
            paper_actions.open_abstract(self.app, paper)

    def action_open_pdf(self) -> None:
        if paper := self._cursor_paper():
            paper_actions.open_pdf(self.app, paper)

    def action_copy_link(self) -> None:
        if paper := self._cursor_paper():
            paper_actions.copy_link(self.app, paper)

    def action_copy_bibtex(self) -> None:
        if paper := self._cursor_paper():
            paper_actions.copy_bibtex(self.app, paper)

    # -- focus -------------------------------------------------------------------------

    def action_switch_focus(self) -> None:
        if self.query_one(PaperList).has_focus:
            self.action_focus_sidebar()
        else:
            self.action_focus_list()

    def action_focus_list(self) -> None:
        self._focus(self.query_one(PaperList))

    def _focus(self, widget: Widget) -> None:
        """Give `widget` the focus now. Widget.focus() waits for the app's next
        turn, so the key queued behind the one that moved the focus (K j typed
        fast, or held up while a topic was saved) went to the widget focused
        before: j moved the list, not the sidebar."""
        self.set_focus(widget)

    def action_focus_sidebar(self) -> None:
        self._focus(self.query_one(TopicList))

    def action_filter_topics(self) -> None:
        self._focus(self.query_one("#topic-filter", Input))

    # -- refresh -------------------------------------------------------------------------

    def action_refresh_topic(self) -> None:
        if self.refresh_busy:
            # Starting another would cancel the one running (all followed
            # topics, perhaps), which would then count as done.
            self.notify(REFRESH_RUNNING, markup=False)
        elif self.current and self.current != STARRED_VIEW:
            self.refresh_topics([self.current], force=True)

    def action_refresh_all(self) -> None:
        if not self.engine.followed() and not self.engine.starred_arxiv_not_cached():
            self.notify("Follow a topic first (f), then R refreshes everything you follow", markup=False)
            return
        if self.refresh_busy:
            self.notify(REFRESH_RUNNING, markup=False)
            return
        self.refresh_topics(None)

    def refresh_soon(self, names: list[str]) -> None:
        """Refresh these topics now, or once the refresh under way has ended:
        starting one would cancel that (all followed topics, perhaps), and what
        it had not fetched yet would wait for the next automatic refresh."""
        if self.refresh_busy:
            self._queued_refresh.update(dict.fromkeys(names))
        else:
            self.refresh_topics(names)

    def _refresh_queued(self) -> None:
        """The topics followed during the last refresh, those still followed."""
        if not self._queued_refresh:
            return
        if self.refresh_busy:
            self.set_timer(0.1, self._refresh_queued)
            return
        state, registry = self.engine.state, self.engine.registry
        names = [name for name in self._queued_refresh if name in registry and state.is_following(name)]
        self._queued_refresh.clear()
        if names:
            self.refresh_topics(names)

    @property
    def refresh_busy(self) -> bool:
        """A refresh started and not ended: `refreshing` is set only once its
        worker runs, and starting another before then would cancel it."""
        return self.refreshing or (self._refresh_job is not None and not self._refresh_job.is_finished)

    async def stop_refresh(self, timeout: float = STOP_REFRESH_S) -> None:
        """End a refresh under way, once what it has fetched is stored (the
        engine stores it when stopped), waiting at most `timeout` seconds."""
        job = self._refresh_job
        if job is None or job.is_finished:
            return
        job.cancel()
        try:
            await asyncio.wait_for(job.wait(), timeout)
        except (WorkerCancelled, WorkerFailed, TimeoutError):
            pass

    def refresh_topics(self, names: list[str] | None, force: bool = False) -> None:
        """Start a refresh; one not ended is cancelled (callers ask refresh_busy)."""
        self._refresh_job = self._refresh_topics(names, force)

    @work(exclusive=True, group="refresh")
    async def _refresh_topics(self, names: list[str] | None, force: bool) -> None:
        if self.engine.demo:
            self.notify("Demo mode: the bundled papers are all there is; nothing is fetched", markup=False)
            return
        try:
            await self._refresh(names, force)
        finally:
            # The topics queued meanwhile start once this worker has ended
            # (starting them before would cancel it): _refresh_queued waits.
            self.call_later(self._refresh_queued)

    async def _refresh(self, names: list[str] | None, force: bool) -> None:
        engine = self.engine
        status = self.query_one(StatusLine)
        self.refreshing = True
        self._refresh_names = names
        status.start_progress(1)
        self._refresh_activity = None
        self.show_refreshing()
        # A wait told in the status line counts down.
        countdown = self.set_interval(1.0, self._count_down_wait)
        if self.current and not self.ask_question:
            # An empty topic being fetched says so, not "press r to fetch".
            self.query_one(PaperList).empty_message = self._empty_message(self.current, self._list_total)

        # Sources failing the same way (a server down takes all its feeds with
        # it): the first is told at once, the others in one notification at the
        # end that names two of them and counts the rest.
        failed_alike: dict[str, list[str]] = {}

        def tell_failure(label: str, error: str) -> None:
            if error not in failed_alike:
                self.notify(f"{label}: {error}", severity="error", timeout=10, markup=False)
            failed_alike.setdefault(error, []).append(label)

        def progress(p: RefreshProgress) -> None:
            status.advance(p.done, p.total)
            if not p.ok:
                tell_failure(p.label, p.error)

        def activity(p: RefreshProgress) -> None:
            self._refresh_activity = p.activity
            self.show_refreshing()

        try:
            report = await engine.refresh(
                names, force=force, on_progress=progress, on_landed=self._landed, on_activity=activity
            )
        finally:
            countdown.stop()
            self.refreshing = False
            status.stop_progress()
        # Sources fetched but whose papers could not be stored (a full disk) fail
        # after their progress said they were fetched: the failures it did not tell.
        untold = Counter(source.error for source in report.failed)
        untold.subtract({error: len(labels) for error, labels in failed_alike.items()})
        for source in report.failed:
            if untold[source.error] > 0:
                untold[source.error] -= 1
                tell_failure(source.label, source.error)
        for error, labels in failed_alike.items():
            if others := labels[1:]:
                named = ", ".join(f"“{cut(one_line_safe(label), 50)}”" for label in others[:2])
                rest = len(others) - 2
                who = f"{named} and {rest} more source{'s' if rest != 1 else ''}" if rest > 0 else named
                self.notify(f"{who} failed the same way: {error}", severity="error", timeout=10, markup=False)
        for note in report.notes:
            self.notify(note, severity="warning", timeout=12, markup=False)
        for source in report.sources:  # a result cap reached, say (how a feed was read is the CLI's)
            if source.ok and source.warning:
                self.notify(f"{source.label}: {source.warning}", severity="warning", timeout=12, markup=False)
        failed = report.failed
        failures = f"{len(failed)} source{'s' if len(failed) != 1 else ''} failed"
        # Not "offline": a 404 from a server that is up fails the same way.
        self.refresh_failed = failures if report.offline else ""
        self._refresh_failed_at = report.finished if report.offline else None
        if not report.offline:
            # A source answered: the next automatic refresh is due when the
            # topics are (refresh_when_stale), not after AUTO_REFRESH_RETRY_S.
            self._auto_refreshed_at = float("-inf")
        if engine.prune_candidates():
            pruned = await asyncio.to_thread(engine.prune)
            self.notify(f"Pruned the {pruned:,} oldest unstarred papers to stay within cache_limit", markup=False)
        self.catch_up()
        summary = f"{report.new_papers:,} new paper{'s' if report.new_papers != 1 else ''}"
        if report.updated_papers:
            summary += f", {report.updated_papers:,} updated"
        if failed:
            summary += f"; {failures}"
        # A refresh that fetched nothing says so once, in its badge.
        self.show_status("" if report.offline else summary)
        # Papers another feedtui stored while this refresh ran (not looked
        # for meanwhile) are loaded now.
        self.check_cache_elsewhere()

    def _landed(self) -> None:
        """A step of a long refresh is stored: the views, and the count of papers cached, show it."""
        self.catch_up()
        self.show_refreshing()

    def show_refreshing(self) -> None:
        activity = self._refresh_activity.text(ACTIVITY_LABEL_WIDTH) if self._refresh_activity else ""
        self.query_one(StatusLine).show_refreshing(activity, papers=len(self.engine.library))

    def _count_down_wait(self) -> None:
        from feedtui.refresh import Waiting  # loaded by the refresh under way; httpx stays out of the start

        if isinstance(self._refresh_activity, Waiting) and self.refreshing:
            self.show_refreshing()

    def catch_up(self) -> None:
        """The sidebar and the list show the library as it is now (after a
        refresh, or a step of one, a retag or a reload), the cursor staying on
        the paper it is on now: the user may have moved while the work ran."""
        self.rebuild_sidebar()
        if self.current:
            self.show_topic(self.current, keep=self._cursor_id())

    @work(exclusive=True, group="retag")
    async def retag(self, names: list[str]) -> None:
        self.show_status(f"tagging {len(names)} topic{'s' if len(names) != 1 else ''}…")
        found = await asyncio.to_thread(self.engine.compute_tags, names)
        self.engine.apply_tags(found)
        self.catch_up()
        self.show_status()
