"""The first run: what feedtui is, its keys, and topics to follow."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, SelectionList, Static

from feedtui.ui.crash import Guarded
from feedtui.ui.keymap import key_hint
from feedtui.ui.screens.dismiss_once import DismissOnce
from feedtui.ui.widgets.option_list import PagedSelectionList

# Kept short: on an 80x24 terminal the topics below must still show ten rows
# or so. Every key is on `?` and in the footer once the reader is open.
INTRO = (
    "Papers from arXiv and any RSS/Atom feed, grouped into topics with their momentum. "
    "Pick topics to follow ({down}/{up} move, space toggles), then press Follow: they are fetched "
    "in the background. {help} lists every key."
)


class WelcomeScreen(Guarded, DismissOnce, ModalScreen[list[str]]):
    BINDINGS = [
        Binding("escape", "skip", "Skip", id="welcome.skip"),
        Binding("j", "topics('cursor_down')", "Next topic", show=False, id="welcome.down"),
        Binding("k", "topics('cursor_up')", "Previous topic", show=False, id="welcome.up"),
        # Textual drops the App's bindings on a modal screen: help (which the
        # intro names) and quit are bound here again, under the App's ids so
        # that a [keymap] moves them here too.
        Binding("question_mark", "app.help", "Help", id="app.help"),
        Binding("q", "app.quit", "Quit", id="app.quit"),
    ]

    def __init__(self, catalogue: list[tuple[str, str]]) -> None:
        super().__init__()
        self.catalogue = catalogue

    def compose(self) -> ComposeResult:
        with Vertical(id="welcome"):
            yield Static(Text("Welcome to feedtui", style="bold"), id="welcome-title")
            keymap, bindings = self.app.engine.settings.keymap, [*self.BINDINGS, *self.app.BINDINGS]
            intro = INTRO.format(
                down=key_hint("welcome.down", keymap, bindings),
                up=key_hint("welcome.up", keymap, bindings),
                help=key_hint("app.help", keymap, bindings),
            )
            yield Static(Text(intro), id="welcome-intro")
            yield PagedSelectionList(
                *((Text.assemble((name, "bold"), "  ", (description, "dim")), name) for name, description in self.catalogue),
                id="welcome-topics",
            )
            yield Button("Follow the selected topics", variant="primary", id="welcome-follow")
            skip = key_hint("welcome.skip", keymap, bindings)
            yield Static(Text(f"{skip}: browse without following anything", style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # None when q came as the screen was pushed: the app removed its widgets.
        for topics in self.query(SelectionList):
            topics.focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if self.dismissing:
            return
        selected = list(self.query_one(SelectionList).selected)
        if not selected:
            # Pressing Follow with nothing picked is not the same as escape: say how to pick.
            self.notify("No topic picked yet: space toggles the one under the cursor", markup=False)
            self.query_one(SelectionList).focus()
            return
        self.dismiss(selected)

    def action_topics(self, action: str) -> None:
        getattr(self.query_one(SelectionList), f"action_{action}")()

    def action_skip(self) -> None:
        self.dismiss([])
