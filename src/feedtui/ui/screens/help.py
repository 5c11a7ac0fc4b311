"""`?`: every key, grouped, as the keymap currently has it.

The screen is given the bindings to show (`ui.bindings.all_bindings`): it
cannot look them up itself, as that list reads the help's own bindings too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from feedtui.ui.crash import Guarded
from feedtui.ui.screens.dismiss_once import DismissOnce
from textual.widgets import Footer, Static

from feedtui.ui.keymap import mapped

# Help groups, by the first part of a binding id, in the order shown.
GROUPS = {
    "app": "General",
    "topics": "Topic sidebar",
    "topic": "The topic",
    "paper": "The paper under the cursor",
    "paper_list": "Moving in the list",
    "detail": "Paper detail (enter on a card)",
    "command": "Your commands ([commands] in the config), on the paper",
    "help": "This help",
    "welcome": "Welcome screen (first run)",
    "pick": "Choosing a topic (t with several tags)",
    "topic_form": "Adding or editing a topic (a, E)",
    "confirm": "Questions (D asks before removing)",
}


def grouped(bindings: list[Binding]) -> list[tuple[str, list[Binding]]]:
    """The bindings under their group titles, groups in `GROUPS` order."""
    by_group: dict[str, list[Binding]] = {}
    for binding in bindings:
        by_group.setdefault((binding.id or "app").split(".")[0], []).append(binding)
    ordered = [(GROUPS[g], by_group.pop(g)) for g in GROUPS if g in by_group]
    return ordered + [(g, rows) for g, rows in by_group.items()]


class HelpTables:
    """One table per group, their columns lined up: the keys as wide as the
    widest, then the descriptions, wrapping in the width left, then the ids as
    wide as the widest. When that would leave the descriptions fewer than
    `DOES_MIN` cells (a narrow terminal), each id goes on a line of its own
    under its description instead. Group titles sit above their tables, so a
    long one never widens a column. Laid out when drawn, at the width there is."""

    DOES_MIN = 20

    def __init__(self, groups: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
        self.groups = groups

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows = [row for _, group_rows in self.groups for row in group_rows]
        keys_width = max((len(keys) for keys, _, _ in rows), default=4)
        ids_width = max((len(ident) for _, _, ident in rows), default=2)
        stacked = options.max_width - keys_width - ids_width - 6 < self.DOES_MIN  # 6: two column gaps
        yield Text("feedtui keys", style="bold", justify="center")
        for number, (title, group_rows) in enumerate(self.groups):
            table = Table(
                title=Text(title, style="bold underline"), title_justify="left",
                expand=True, show_edge=False, pad_edge=False, show_header=number == 0,
            )
            table.add_column(Text("Keys"), width=keys_width, no_wrap=True, style="bold")
            if stacked:
                table.add_column(Text("Does · id for [keymap]"), ratio=1, overflow="fold")
                for keys, does, ident in group_rows:
                    table.add_row(Text(keys), Text.assemble(does, "\n", (ident, "dim")))
            else:
                table.add_column(Text("Does"), ratio=1, overflow="fold")
                table.add_column(Text("Id, for [keymap]"), width=ids_width, style="dim", no_wrap=True)
                for keys, does, ident in group_rows:
                    table.add_row(Text(keys), Text(does), Text(ident))
            yield table
        yield Text(
            "ctrl+p opens the command palette: every action, and Theme to change the look. "
            "Remap keys in the [keymap] section of the config file (feedtui config --path).",
            style="dim",
        )


class HelpScreen(Guarded, DismissOnce, ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close help", id="help.close"),
        Binding("j,down", "scroll_down", "Scroll down", show=False, id="help.down"),
        Binding("k,up", "scroll_up", "Scroll up", show=False, id="help.up"),
        Binding("g,home", "scroll_to_top", "Go to the top", show=False, id="help.top"),
        Binding("G,end", "scroll_to_bottom", "Go to the end", show=False, id="help.bottom"),
    ]

    def __init__(self, bindings: Iterable[Binding], keymap: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.bindings = list(bindings)
        self.keymap = dict(keymap or {})

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self._table(), id="help-body")
        yield Footer(compact=True)

    def shown_bindings(self) -> list[Binding]:
        return [mapped(binding, self.keymap) for binding in self.bindings]

    def keys_text(self, binding: Binding) -> str:
        """The binding's keys, each as the footer shows it."""
        return "  ".join(
            self.app.get_key_display(binding.with_key(key.strip(), None)) for key in binding.key.split(",") if key.strip()
        )

    def _table(self) -> HelpTables:
        groups = [
            (title, [(self.keys_text(b), self._does(b), b.id or "") for b in bindings])
            for title, bindings in grouped(self.shown_bindings())
        ]
        return HelpTables(groups)

    def _does(self, binding: Binding) -> str:
        remapped = " (remapped)" if binding.id in self.keymap else ""
        return (binding.tooltip or binding.description) + remapped

    def action_dismiss(self) -> None:
        self.dismiss(None)

    def _scrolled(self) -> list[VerticalScroll]:
        """The help's scrolled view: none before it is mounted or once it is removed."""
        return list(self.query("#help").results(VerticalScroll))

    def action_scroll_down(self) -> None:
        for view in self._scrolled():
            view.scroll_down()

    def action_scroll_up(self) -> None:
        for view in self._scrolled():
            view.scroll_up()

    def action_scroll_to_top(self) -> None:
        for view in self._scrolled():
            view.scroll_home(animate=False)

    def action_scroll_to_bottom(self) -> None:
        for view in self._scrolled():
            view.scroll_end(animate=False)
