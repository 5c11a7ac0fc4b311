"""The reader: topic sidebar on the left, the topic's page on the right.

MainScreen composes the widgets and the parts that each own one job
(main_parts/): the sidebar's rows, the topic view, Ask, the refresh
lifecycle, marks and undo, the topic dialogs, and the bridge from the state
store's thread. The screen keeps the bindings, what is shown (`current`),
the focus, and the trail of tag jumps that escape goes back along."""

from __future__ import annotations

import asyncio
import gc
from itertools import chain
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import Reactive
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from feedtui.config import check_command, in_file_order
from feedtui.core.engine import Engine
from feedtui.ui.cards import card_shape
from feedtui.ui.crash import Guarded
from feedtui.ui.messages import (
    RefreshActivityChanged, RefreshAdvanced, StateChangedElsewhere, StateNotSaved, StateRecovered, StateSavedAgain,
)
from feedtui.ui.presenter import EVERYTHING_VIEW, VIRTUAL_VIEWS
from feedtui.ui.screens.main_parts.ask import Ask
from feedtui.ui.screens.main_parts.discover import Discover
from feedtui.ui.screens.main_parts.discovery_keys import DiscoveryKeys
from feedtui.ui.screens.main_parts.paper_actions import PaperActions
from feedtui.ui.screens.main_parts.marks import Marks
from feedtui.ui.screens.main_parts.refresh import STOP_REFRESH_S, Refresher
from feedtui.ui.screens.main_parts.sidebar import Sidebar
from feedtui.ui.screens.main_parts.store_bridge import StoreBridge
from feedtui.ui.screens.main_parts.topic_dialogs import TopicDialogs
from feedtui.ui.screens.main_parts.resume import Resume
from feedtui.ui.screens.main_parts.triage import Triage
from feedtui.ui.screens.main_parts.visit import Visit
from feedtui.ui.screens.main_parts.topic_view import NO_PAPER_HERE, TopicView
from feedtui.ui.widgets.momentum_chart import MomentumChart
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.reader_footer import ReaderFooter
from feedtui.ui.widgets.status_line import StatusLine
from feedtui.ui.widgets.text_input import TextInput
from feedtui.ui.widgets.topic_header import TopicHeader
from feedtui.ui.widgets.topic_list import TopicList

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = ["STOP_REFRESH_S", "WELCOME_SKIPPED", "MainScreen"]

# What only a topic has: on the reading list these keys are shown dimmed.
TOPIC_ONLY = frozenset({"refresh_topic", "ask"})
# Tag jumps that escape can go back through.
JUMP_HISTORY = 50
# The preference that remembers a welcome screen left with escape.
WELCOME_SKIPPED = "welcome_skipped"
# Notifications for a config file's problems at start: this many problems,
# one each; with more, the first ones and a count, this many in all (a tall
# stack of notifications runs off the top of the screen).
CONFIG_PROBLEMS_SHOWN = 2


class MainScreen(Guarded, PaperActions, DiscoveryKeys):
    """The reader's screen.

    Key ordering: keys typed fast (K j, or enter K j in the topic form) are
    queued behind the key being handled, and a key handled after work the
    user did not see yet goes where they did not mean. Three rules keep each
    key where it was meant, each stated where it is enforced: the focus moves
    at once (`focus_now`); a topic saved is shown while the form's enter is
    handled (`TopicDialogs._topic_problem`); a rebuilt sidebar keeps the row
    its cursor is on (`Sidebar.rebuild`).
    """

    AUTO_FOCUS = "#topics"
    # Textual's Screen repaints all of itself when the focus moves; the widgets
    # that gain and lose it repaint themselves already. That whole repaint was
    # most of what Tab cost (bench/bench_tab.py).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    BINDINGS = [
        # One key, two bindings: check_action lets through the one that applies,
        # so the footer says Follow or Unfollow; one id, so [keymap] moves both.
        Binding("f", "follow", "Follow", id="topic.follow"),
        Binding("f", "unfollow", "Unfollow", id="topic.follow"),
        Binding("m", "toggle_read", "Read", id="paper.toggle_read"),
        Binding("M", "mark_all_read", "Mark all read", show=False, id="topic.mark_all_read"),
        Binding("n", "next_unread", "Next unread", id="paper.next_unread"),
        Binding("N", "first_new", "First new paper", show=False, id="paper.first_new"),
        Binding("d", "read_and_next", "Read, next", show=False, id="paper.read_and_next"),
        Binding("u", "unread_only", "Unread only", id="topic.unread_only"),
        Binding("s", "star", "Star", id="paper.star"),
        Binding("o", "open_abstract", "Open", id="paper.open"),
        Binding("O", "open_pdf", "PDF", show=False, id="paper.open_pdf"),
        Binding("h", "open_html", "HTML version", show=False, id="paper.open_html"),
        Binding("c", "copy_link", "Copy link", show=False, id="paper.copy_link"),
        Binding("b", "copy_bibtex", "Copy BibTeX", show=False, id="paper.copy_bibtex"),
        Binding("z", "send_to_zotero", "Send to Zotero", show=False, id="paper.zotero"),
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
        self.ready = False
        self._key_hints: dict[str, str] = {}
        # What the footer shows: whether the topic is followed (f says Follow or
        # Unfollow; None: no topic), and whether it is the reading list.
        self._footer_shows: tuple[bool | None, bool] = (None, False)
        # Where tag jumps started (topic, card, question asked there or ""),
        # for escape to come back to.
        self._jumped_from: list[tuple[str, str | None, str]] = []
        self._following_trail = False
        self._resumed = False
        self.sidebar = Sidebar(self)
        self.topic_view = TopicView(self)
        self.asking = Ask(self)
        self.refresher = Refresher(self)
        self.marks = Marks(self)
        self.dialogs = TopicDialogs(self)
        self.bridge = StoreBridge(self)
        self.visit = Visit(self)
        self.triage = Triage(self)
        self.resume = Resume(self)
        self.discover = Discover(self)

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="sidebar"):
                yield Static(id="sidebar-title")
                yield TextInput(placeholder=f"Filter topics…  ({self._key('topics.filter')})", id="topic-filter")
                yield TopicList(id="topics")
            with Vertical(id="main"):
                # What sits above the list, and the bars below everything, in
                # containers of their own: Textual repaints every widget whose
                # container overlaps a change, so the list scrolling then
                # leaves them alone.
                with Vertical(id="list-head"):
                    yield TopicHeader(id="topic-header")
                    yield MomentumChart(id="chart")
                    # The Ask box and its answer go here (Ask.parts): mounted after the first paint.
                    yield Static(id="list-title")
                yield PaperList(id="papers")
        with Vertical(id="bars"):
            yield StatusLine(id="status")
            yield ReaderFooter(compact=True)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's handler. At its first resume the screen has
        # just been mounted, every widget styled as it was: Textual's styling
        # of them all again is work on the way to the first paint.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        if self.engine.library_loaded:
            # The usual start: the library was read before Textual started, so
            # the first frame already shows the topics and papers.
            self.populate()
        else:
            self.query_one("#list-title", Static).update(Text("Loading the cache…", style="dim"))
            self.query_one(PaperList).empty_message = "Loading…"
            self.run_worker(self._load, group="load", exclusive=True)

    async def _load(self) -> None:
        await asyncio.to_thread(self.engine.load_library)
        self.populate()

    def populate(self) -> None:
        # Tens of thousands of card rows live as long as the app: keep the cyclic
        # GC from walking them again and again (long pauses otherwise).
        gc.freeze()
        self.ready = True
        self.tell_problems()
        place = self.resume.place()  # where the last session was left
        self.current = place[0] if place else None
        self.sidebar.rebuild(self.current, sparklines=self.app.size.height)  # the rest after the first frame
        if place:
            self.show_topic(place[0], keep=place[1] or None)
        self.refresher.show_status()
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
        self.app.until_first_paint.close()
        self.asking.parts()
        self.sidebar.fill_sparklines()
        self.bridge.attach()
        self.set_interval(2.0, self.refresher.check_cache_elsewhere)
        if engine.stale_topics:
            self.refresher.retag(engine.stale_topics)
        first_run = not engine.follows() and not len(engine.library) and not engine.demo
        if first_run and not engine.pref(WELCOME_SKIPPED):
            self.app.action_welcome()
        else:
            self.refresher.when_stale()
        self.refresher.start_clock()

    def every_few_minutes(self) -> None:
        self.sidebar.follow_the_clock()
        self.refresher.when_stale()

    def on_unmount(self) -> None:
        self.bridge.detach()

    def on_resize(self, event) -> None:
        """Small terminals keep room for the cards: a shorter chart, then its
        compact form (80×24), then none; a narrower sidebar, narrower again
        under 70 columns; under 16 lines a header of two lines at most; and
        compact cards on short terminals (the `density` setting)."""
        width, height = event.size.width, event.size.height
        self.set_class(height < 34, "-short")
        self.set_class(height < 26, "-tiny")
        self.set_class(height < 16, "-cramped")
        self.set_class(width < 90, "-narrow")
        self.set_class(width < 70, "-slim")
        self.query_one(PaperList).set_shape(card_shape(self.engine.settings.density, height))

    # -- the state store's reports -------------------------------------------------

    @on(StateChangedElsewhere)
    def on_state_changed_elsewhere(self) -> None:
        self.bridge.reload_topics()

    @on(StateNotSaved)
    def on_state_not_saved(self, event: StateNotSaved) -> None:
        self.notify(event.text, title="Not saved", severity="error", timeout=20, markup=False)

    @on(StateRecovered)
    def on_state_recovered(self, event: StateRecovered) -> None:
        self.notify(event.text, severity="warning", timeout=20, markup=False)

    @on(StateSavedAgain)
    def on_state_saved_again(self) -> None:
        self.notify("Your follows and marks are saved again.", markup=False)

    @on(RefreshAdvanced)
    def on_refresh_advanced(self, event: RefreshAdvanced) -> None:
        self.refresher.advanced(event)

    @on(RefreshActivityChanged)
    def on_refresh_activity(self, event: RefreshActivityChanged) -> None:
        self.refresher.activity_changed(event)

    # -- what is shown ---------------------------------------------------------------

    def rebuild_sidebar(self, keep: str | None = None) -> None:
        self.sidebar.rebuild(keep)

    def show_topic(self, name: str, *, keep: str | None = None, focus_list: bool = False) -> None:
        if name != self.current and not self._following_trail:
            self._jumped_from.clear()  # gone elsewhere: escape no longer leads back
        self.current = name
        self.topic_view.show(name, keep=keep, focus_list=focus_list)

    def go_to_topic(self, name: str, *, keep: str | None = None, question: str = "") -> None:
        """Show a topic, its papers or the answer to `question` about them; the
        question asked about the topic left goes."""
        if not self.engine.has_topic(name) and name not in VIRTUAL_VIEWS:
            return
        filter_input = self.query_one("#topic-filter", Input)
        if filter_input.value:
            filter_input.value = ""
            self.query_one(TopicList).show_rows(self.sidebar.topic_rows(), keep=name)
        self.query_one(TopicList).select_topic(name)
        self.asking.close()
        if question:
            self.asking.open(question)
        self.show_topic(name, keep=keep, focus_list=True)

    def _key(self, binding_id: str) -> str:
        """The key that does a binding here, keymap included, for hints in sentences."""
        from feedtui.ui.keymap import key_hint

        hint = self._key_hints.get(binding_id)
        if hint is None:
            bindings = chain(self.app.BINDINGS, self.BINDINGS, DiscoveryKeys.BINDINGS, PaperList.BINDINGS, TopicList.BINDINGS)
            hint = self._key_hints[binding_id] = key_hint(binding_id, self.engine.settings.keymap, bindings)
        return hint

    @on(TopicList.Shown)
    def on_topic_shown(self, event: TopicList.Shown) -> None:
        if event.name != self.current:
            self.asking.close()  # the question was about the topic left
            self.show_topic(event.name)

    @on(Input.Changed, "#topic-filter")
    def on_filter_changed(self, event: Input.Changed) -> None:
        self.sidebar.filter_changed(event.value)

    @on(Input.Submitted, "#topic-filter")
    def on_filter_submitted(self) -> None:
        topic_list = self.query_one(TopicList)
        self.focus_now(topic_list)
        if topic_list.current:
            self.show_topic(topic_list.current)

    @on(Input.Submitted, "#ask")
    def on_ask_submitted(self, event: Input.Submitted) -> None:
        self.asking.submitted(event.value)

    @on(PaperList.Opened)
    def on_paper_opened(self, event: PaperList.Opened) -> None:
        self.open_detail(event.paper_id)

    @on(PaperList.TagSelected)
    def on_tag_selected(self, event: PaperList.TagSelected) -> None:
        self.jump_to_topic(event.topic)

    # -- tag jumps and the way back --------------------------------------------------

    def jump_to_topic(self, name: str) -> None:
        """Follow a paper's tag to its topic; escape comes back to this topic and
        card, and to the Ask's answer if the card was one."""
        if not self.engine.has_topic(name) or name == self.current:
            return
        trail = self._jumped_from
        if self.current:
            trail.append((self.current, self.topic_view.cursor_id(), self.asking.question))
            del trail[:-JUMP_HISTORY]
        self._along_trail(name)

    def _jump_back(self) -> bool:
        """Back to where the last tag jump started (going to a topic by any other
        way ends the trail: see show_topic)."""
        while self._jumped_from:
            name, paper_id, question = self._jumped_from.pop()
            if name in VIRTUAL_VIEWS or self.engine.has_topic(name):
                self._along_trail(name, keep=paper_id, question=question)
                return True
        return False

    def _along_trail(self, name: str, keep: str | None = None, question: str = "") -> None:
        self._following_trail = True
        try:
            self.go_to_topic(name, keep=keep, question=question)
        finally:
            self._following_trail = False

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

    def action_back(self) -> None:
        if self.asking.back():
            return
        filter_input = self.query_one("#topic-filter", Input)
        topic_list = self.query_one(TopicList)
        if filter_input.has_focus or (filter_input.value and topic_list.has_focus):
            # Clears the filter (as its empty message says), or leaves an empty one.
            filter_input.value = ""
            self.focus_now(topic_list)
            return
        self._jump_back()

    def open_detail(self, paper_id: str) -> None:
        from feedtui.ui.screens.detail import DetailScreen

        if self.engine.settings.open_marks_read and not self.engine.is_read(paper_id):
            self.toggle_read(paper_id)  # as m does: ctrl+z takes it back
        self.app.push_screen(DetailScreen(self.engine, paper_id))

    # -- following, and what the footer offers -----------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in TOPIC_ONLY and self.current in VIRTUAL_VIEWS and (action, self.current) != ("ask", EVERYTHING_VIEW):
            return None  # shown dimmed: the reading list is no topic to refresh or ask about
        if action not in ("follow", "unfollow"):
            return True
        following = self._footer_shows[0]
        if following is None:  # no topic, or the reading list
            return None if action == "follow" else False  # Follow, dimmed
        return (action == "unfollow") == following

    def show_follow_key(self) -> None:
        """Have the footer say Follow or Unfollow, as the topic shown is, and
        dim what only a topic has on the reading list."""
        name = self.current
        following = None if not name or name in VIRTUAL_VIEWS else self.engine.is_following(name)
        shown = (following, name in VIRTUAL_VIEWS)
        if shown != self._footer_shows:
            self._footer_shows = shown
            if self.query_one(ReaderFooter).children:
                # Drawn already; a footer not yet drawn asks check_action when it is
                # (at start that saves the footer one more compose).
                self.refresh_bindings()

    def action_follow(self) -> None:
        self._set_following(True)

    def action_unfollow(self) -> None:
        self._set_following(False)

    def _set_following(self, follow: bool) -> None:
        name = self.current
        if not name or name in VIRTUAL_VIEWS:
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
        self.show_topic(name, keep=self.topic_view.cursor_id())

    def action_unread_only(self) -> None:
        self.unread_only = not self.unread_only
        if self.current:
            self.show_topic(self.current, keep=self.topic_view.cursor_id())
        self.notify("Showing unread papers only" if self.unread_only else "Showing every paper", markup=False)

    # -- focus -------------------------------------------------------------------------

    def focus_now(self, widget: Widget) -> None:
        """Give `widget` the focus now, with Screen.set_focus. Widget.focus()
        waits for the app's next turn, so the key queued behind the one that
        moved the focus (K j typed fast, or held up while a topic was saved)
        went to the widget focused before: j moved the list, not the sidebar.
        Every focus change of the reader goes through here. The footer
        follows at once, in the same frame (Textual tells it once idle: a
        frame later, and another for its layout)."""
        self.set_focus(widget)
        self.query_one(ReaderFooter).show_now()

    def action_switch_focus(self) -> None:
        if self.query_one(PaperList).has_focus:
            self.action_focus_sidebar()
        else:
            self.action_focus_list()

    def action_focus_list(self) -> None:
        self.focus_now(self.query_one(PaperList))

    def action_focus_sidebar(self) -> None:
        self.focus_now(self.query_one(TopicList))

    def action_filter_topics(self) -> None:
        self.focus_now(self.query_one("#topic-filter", Input))

    def action_toggle_read(self) -> None:
        paper_id = self.topic_view.acted_on_id()
        if paper_id is not None:
            self.toggle_read(paper_id)

    def action_star(self) -> None:
        paper_id = self.topic_view.acted_on_id()
        if paper_id is not None:
            self.toggle_star(paper_id)

    # -- what the parts do, for the keys and for the app and the detail view --------------

    def toggle_read(self, paper_id: str) -> None:
        self.marks.toggle_read(paper_id)

    def toggle_star(self, paper_id: str) -> None:
        self.marks.toggle_star(paper_id)

    def action_mark_all_read(self) -> None:
        self.marks.mark_all_read()

    def remember_session(self) -> None:
        """What the next start reads (at quit): the place left and when this session began."""
        self.resume.remember()
        self.visit.remember()

    def action_first_new(self) -> None:
        self.visit.first_new()

    def action_read_and_next(self) -> None:
        self.triage.read_and_next()

    def action_undo(self) -> None:
        self.marks.undo()

    def action_next_unread(self) -> None:
        self.topic_view.next_unread()

    def action_cycle_sort(self) -> None:
        self.sidebar.cycle_sort()

    def action_ask(self) -> None:
        self.asking.start()

    def action_add_topic(self) -> None:
        self.dialogs.add()

    def action_edit_topic(self) -> None:
        self.dialogs.edit()

    def action_remove_topic(self) -> None:
        self.dialogs.remove()

    def action_refresh_topic(self) -> None:
        self.refresher.refresh_topic(self.current)

    def action_refresh_all(self) -> None:
        self.refresher.refresh_all()

    def refresh_soon(self, names: list[str]) -> None:
        self.refresher.soon(names)

    async def stop_refresh(self, timeout: float = STOP_REFRESH_S) -> None:
        await self.refresher.stop(timeout)
