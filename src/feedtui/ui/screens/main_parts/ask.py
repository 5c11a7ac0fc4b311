"""Ask: the question box, and a question about the topic shown (or, on Ask
everything, the whole cache) handed to Discover, which asks the engine in
a worker thread and shows its answer (main_parts/discover.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input, Static

from feedtui.search import has_words, query_terms
from feedtui.slot_record import SlotRecord
from feedtui.ui.messages import AnswerReady
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, STARRED_VIEW
from feedtui.ui.widgets.answer_panel import AnswerPanel
from feedtui.ui.widgets.paper_list import PaperList, one_line_safe
from feedtui.ui.widgets.text_input import TextInput
from feedtui.ui.widgets.topic_list import TopicList

if TYPE_CHECKING:
    from textual.screen import Screen

    from feedtui.discovery.records import Answer

# Cells of a question shown in the list's title.
ASK_SHOWN = 40
# Cells of the question kept, when it is cut, before the Ask title's count is shortened.
ASK_CUT_TO = 12


class _Asked:
    """A question about a topic, the topic's papers when it was asked, and
    (once it came) the engine's answer."""

    __slots__ = ("topic", "question", "library", "members", "rows", "answer")

    def __init__(self, topic: str, question: str, library: object, members: list[int], rows: list) -> None:
        self.topic = topic
        self.question = question
        self.library = library
        self.members = members
        # The members' card rows when it was asked: a store replaces the row of
        # every paper it adds or changes, and only theirs.
        self.rows = rows
        self.answer: Answer | None = None

    def holds(self, topic: str, question: str, library, members: list[int]) -> bool:
        """Whether its answer still answers: not if the topic was edited or
        retagged since (here or in another process), nor if one of its papers
        changed. A refresh storing other topics' papers leaves it be."""
        if (topic, question) != (self.topic, self.question) or self.library is not library or self.members != members:
            return False
        rows = library.rows
        return all(rows[i] is row for i, row in zip(members, self.rows))


def in_daemon_thread(function: Callable[..., object], *args) -> asyncio.Future:
    """`function(*args)` in a thread the process does not wait for at exit.

    An Ask only reads, and its first question builds the papers' index
    (seconds at 10,000 papers): a question left unanswered must not hold up
    quitting, as a thread of asyncio's executor would. A result nobody waits
    for (another question asked meanwhile) is dropped quietly, a failure too."""
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

    threading.Thread(target=run, name="feedtui-ask", daemon=True).start()
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


def ask_empty_message(question: str, read_matches: int = 0, show_all_key: str = "u", where: str = "this topic") -> str:
    """Why an Ask shows no paper; `read_matches`: the papers that match but
    are hidden as read (unread only); `where`: what was asked."""
    if query_terms(question):
        if read_matches == 1:
            return f"The paper that matches those words is read — {show_all_key} shows it"
        if read_matches:
            return f"The {read_matches:,} papers that match those words are read — {show_all_key} shows them"
        return f"No paper in {where} matches those words"
    if has_words(question):
        return "Only common words (the, of, papers…) were asked: ask with others"
    return "The question has no words to search for: ask with words"


def _papers(count: int) -> str:
    return f"{count:,} paper{'s' if count != 1 else ''}"


class AskTitle(SlotRecord):
    """The list's title for an Ask, fitted to the width it is drawn at: the
    count and the way back stay in view; "best match first" goes first, then
    the question is cut shorter (it is at most `ASK_SHOWN` cells anyway); with
    unread only, the key that shows every match and then the count's long form
    go before the question is cut below `ASK_CUT_TO` cells. (A plain slotted
    class: this module is imported on the way to the first paint.)"""

    __slots__ = ("question", "found", "matched", "show_all_key", "back_key")

    def __init__(
        self,
        question: str,
        found: int,
        # Unread only: the papers that match, read or not (None: every match is shown).
        matched: int | None = None,
        show_all_key: str = "u",
        back_key: str = "esc",
    ) -> None:
        self.question = question
        self.found = found
        self.matched = matched
        self.show_all_key = show_all_key
        self.back_key = back_key

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
    """Owns the Ask box and the question asked (the engine keeps what it
    builds to answer: its indexes, the model, the vectors)."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.question = ""
        # `/` was pressed in the sidebar: escape in the Ask box goes back there.
        self._asked_from_sidebar = False
        # The question open about a topic: shown again (a refresh stored
        # other topics' papers, say) without asking again.
        self._asked: _Asked | None = None

    @property
    def box(self) -> Input:
        return self.parts()[0]

    @property
    def panel(self) -> AnswerPanel:
        return self.parts()[1]

    def parts(self) -> tuple[Input, AnswerPanel]:
        """The Ask box and the answer above the list, both hidden until used:
        the screen mounts them after its first paint (the first frame has no
        use for them), or here, if something needs them before."""
        screen = self.screen
        boxes = screen.query("#ask")
        if boxes:
            return boxes.first(Input), screen.query_one(AnswerPanel)
        back = screen._key("app.back")
        box = TextInput(placeholder=f"Ask about this topic…  (enter to search, {back} to return)", id="ask")
        box.display = False
        panel = AnswerPanel(id="answer")
        screen.query_one("#list-head").mount(box, panel, before="#list-title")
        return box, panel

    def clear_answer(self) -> None:
        """No answer above the list (nothing to do before the panel is mounted)."""
        for panel in self.screen.query(AnswerPanel):
            panel.clear()

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
        for box in self.screen.query("#ask"):
            box.display = False
        self.question = ""
        self._asked = None  # nor the library it was asked of, once replaced

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
        """Ask the topic shown (or the whole cache on Ask everything): the
        answer comes back as AnswerReady, the list shown until then stays."""
        screen = self.screen
        name = screen.current
        if not name:
            return
        if name == EVERYTHING_VIEW:
            screen.discover.ask_everything(question, keep)
            return
        self.clear_answer()
        screen.query_one("#list-title", Static).update(Text(f"Asking about {name}…", style="dim"))
        if not query_terms(question):  # nothing to search for: said at once, nothing ranked
            from feedtui.discovery.records import Answer

            nothing = Answer(question, [], [], (), True)
            screen.post_message(AnswerReady(question, nothing, keep, topic=name))
            return
        library = self.engine.library
        members = list(library.topic_positions(name))
        asked = self._asked
        if asked is not None and asked.answer is not None and asked.holds(name, question, library, members):
            screen.post_message(AnswerReady(question, asked.answer, keep, topic=name))
            return
        self._asked = _Asked(name, question, library, members, [library.rows[i] for i in members])
        screen.discover.ask(question, keep, topic=name)

    def answered(self, topic: str, question: str, answer: Answer) -> None:
        """The engine's answer came: kept for showing it again."""
        asked = self._asked
        if asked is not None and (asked.topic, asked.question) == (topic, question):
            asked.answer = answer
