"""Triage at speed: d (done) marks the paper read and moves on; the detail view
steps to the next or previous paper of the list without going back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from feedtui.ui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.screen import Screen


class Triage:
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine

    def read_and_next(self) -> None:
        """Mark the card under the cursor read (never unread: one already
        read stays so) and move to the next card; ctrl+z takes the mark back."""
        screen = self.screen
        paper_id = screen.topic_view.acted_on_id()
        if paper_id is None:
            return
        if not self.engine.is_read(paper_id):
            screen.marks.toggle_read(paper_id)
        paper_list = screen.query_one(PaperList)
        if paper_list.cursor + 1 < paper_list.card_count:
            paper_list.move_cursor(1)
        else:
            screen.notify("That was the last paper here", markup=False)

    def step(self, delta: int) -> str | None:
        """Move the list's cursor by `delta` for the detail view: the paper
        now under it, None at either end of the list (the cursor stays)."""
        paper_list = self.screen.query_one(PaperList)
        target = paper_list.cursor + delta
        if not 0 <= target < paper_list.card_count:
            return None
        paper_list.go_to(target)
        card = paper_list.cursor_card
        if card is None:
            return None
        if self.engine.settings.open_marks_read and not self.engine.is_read(card.paper_id):
            self.screen.marks.toggle_read(card.paper_id)  # as opening it does
        return card.paper_id
