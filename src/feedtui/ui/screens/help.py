"""`?`: every key, grouped, as the keymap currently has it."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

GROUPS = {
    "app": "General",
    "topics": "Topic sidebar",
    "topic": "The topic",
    "paper": "The paper under the cursor",
    "paper_list": "Moving in the list",
    "detail": "Paper detail",
}


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close help", id="help.close")]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings_shown = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self._table(), id="help-body")

    def _table(self) -> Table:
        table = Table(title="feedtui keys", expand=True, show_edge=False, pad_edge=False)
        table.add_column("Keys", no_wrap=True, style="bold")
        table.add_column("Does")
        table.add_column("Id (for [keymap])", style="dim", no_wrap=True)
        grouped: dict[str, list[Binding]] = {}
        for binding in self.bindings_shown:
            group = (binding.id or "app").split(".")[0]
            grouped.setdefault(group, []).append(binding)
        for group, title in GROUPS.items():
            rows = grouped.pop(group, [])
            if not rows:
                continue
            table.add_row(Text(title, style="bold underline"), "", "")
            for binding in rows:
                table.add_row(Text(self.app.get_key_display(binding)), Text(binding.description), Text(binding.id or ""))
        for group, rows in grouped.items():
            table.add_row(Text(group, style="bold underline"), "", "")
            for binding in rows:
                table.add_row(Text(self.app.get_key_display(binding)), Text(binding.description), Text(binding.id or ""))
        table.caption = "ctrl+p opens the command palette: every action, themes, and more"
        return table

    def action_dismiss(self) -> None:
        self.dismiss(None)
