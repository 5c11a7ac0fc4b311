"""The detail view's list of the papers most related to the one shown.

One option per paper (date, title, and why it is related when the engine
says), chosen with enter or a click: the detail view then shows that paper.
Titles are untrusted: each option is a `rich.text.Text` (never markup) made
from control-free text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from feedtui.ui.widgets.card_layout import one_line_safe
from feedtui.ui.widgets.option_list import PagedOptionList


class RelatedRow(NamedTuple):
    """A related paper as the list shows it."""

    paper_id: str
    date: str
    title: str
    why: str = ""


class RelatedPapers(PagedOptionList):
    """Related papers; choosing one posts `RelatedPapers.Chosen`."""

    DEFAULT_CSS = """
    RelatedPapers { height: auto; max-height: 14; }
    """

    class Chosen(Message):
        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    def show_rows(self, rows: Sequence[RelatedRow]) -> None:
        self.clear_options()
        self.add_options(Option(_prompt(row), id=row.paper_id) for row in rows)
        self.display = bool(rows)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))


def _prompt(row: RelatedRow) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(one_line_safe(row.date), style="dim")
    text.append("  ")
    text.append(one_line_safe(row.title))
    if row.why:
        text.append(f"  · {one_line_safe(row.why)}", style="dim")
    return text
