"""A small chooser: which of a paper's topics to go to (or of its authors)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from feedtui.ui.crash import Guarded
from feedtui.ui.screens.dismiss_once import DismissOnce
from feedtui.ui.widgets.option_list import PagedOptionList


class PickTopicScreen(Guarded, DismissOnce, ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="pick.cancel")]

    def __init__(self, topics: list[str], question: str = "Go to which topic?") -> None:
        super().__init__()
        self.topics = topics
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-topic"):
            yield Static(Text(self.question, style="bold"))
            yield PagedOptionList(*(Option(Text(name), id=name) for name in self.topics))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # None when q came as the screen was pushed: the app removed its widgets.
        for options in self.query(PagedOptionList):
            options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
