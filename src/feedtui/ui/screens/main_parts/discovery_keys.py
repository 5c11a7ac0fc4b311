"""The reader's discovery keys and the messages of its discovery workers,
a base class of MainScreen (which keeps the rest of its keys): Textual
gathers the BINDINGS of every Screen class a screen is made of, and finds
an `on_…` handler on any.
What they do is Discover's (main_parts/discover.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from feedtui.ui.presenter import EVERYTHING_VIEW

if TYPE_CHECKING:
    from feedtui.ui import messages
    from feedtui.ui.screens.main_parts.ask import Ask
    from feedtui.ui.screens.main_parts.discover import Discover
    from feedtui.ui.screens.main_parts.topic_view import TopicView
    from feedtui.ui.widgets.paper_list import PaperList


class DiscoveryKeys(Screen):
    """Ask everything, an author's papers or following them, more or less like this."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("A", "ask_everything", "Ask everything", show=False, id="app.ask_everything"),
        Binding("w", "author_papers", "Author's papers", show=False, id="paper.author_papers"),
        Binding("W", "follow_author", "Follow an author", show=False, id="paper.follow_author"),
        Binding("plus", "more_like", "More like this", show=False, id="paper.more_like"),
        Binding("minus", "less_like", "Less like this", show=False, id="paper.less_like"),
    ]

    if TYPE_CHECKING:  # what MainScreen has
        asking: Ask
        discover: Discover
        topic_view: TopicView

        def go_to_topic(self, name: str) -> None: ...

    def action_ask_everything(self) -> None:
        self.asking.close()
        self.go_to_topic(EVERYTHING_VIEW)
        self.asking.start()

    def action_author_papers(self) -> None:
        paper_id = self.topic_view.acted_on_id()
        if paper_id is not None:
            self.discover.choose_author(paper_id, self.discover.author_papers)

    def action_follow_author(self) -> None:
        discover = self.discover
        if listed := discover.listed_author():  # the author whose papers are shown
            discover.follow_author(listed)
        elif (paper_id := self.topic_view.acted_on_id()) is not None:
            discover.choose_author(paper_id, discover.follow_author)

    def action_more_like(self) -> None:
        self._feedback(1)

    def action_less_like(self) -> None:
        self._feedback(-1)

    def _feedback(self, value: int) -> None:
        paper_id = self.topic_view.acted_on_id()
        if paper_id is not None:
            self.discover.feedback(paper_id, value)

    def on_paper_list_authors_selected(self, message: PaperList.AuthorsSelected) -> None:
        """A click on a card's authors: an author's papers (which one, asked when several)."""
        self.discover.choose_author(message.paper_id, self.discover.author_papers)

    def action_open_quoted(self, paper_id: str) -> None:
        self.discover.open_quoted(paper_id)

    # The discovery workers' messages (ui/messages.py), each handed to Discover.

    def on_answer_ready(self, message: messages.AnswerReady) -> None:
        self.discover.received(message)

    def on_author_papers_ready(self, message: messages.AuthorPapersReady) -> None:
        self.discover.received(message)

    def on_for_you_ready(self, message: messages.ForYouReady) -> None:
        self.discover.received(message)

    def on_vectors_computed(self, message: messages.VectorsComputed) -> None:
        self.discover.received(message)

    def on_discovery_failed(self, message: messages.DiscoveryFailed) -> None:
        self.discover.received(message)

    def on_taste_changed(self, message: messages.TasteChanged) -> None:
        self.discover.received(message)
