"""Read and starred marks set from the reader, removed topics, and ctrl+z
that takes them back, latest first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from feedtui.model import shown_title
from feedtui.ui.presenter import EVERYTHING_VIEW, FOR_YOU_VIEW, STARRED_VIEW
from feedtui.ui.screens.main_parts.topic_view import NO_PAPER_HERE
from feedtui.ui.widgets.paper_list import one_line_safe

if TYPE_CHECKING:
    from textual.screen import Screen

# Changes ctrl+z can take back, the latest first.
UNDO_DEPTH = 100


class Undo:
    """One change ctrl+z takes back: the `attribute` ("read" or "starred") of
    these papers goes back to what it was, `before`; or, for a change that is
    not a mark (a topic removed), `take_back` undoes it and says what it could
    not do ("" when all went well)."""

    __slots__ = ("description", "paper_ids", "attribute", "before", "take_back")

    def __init__(
        self,
        description: str,
        paper_ids: list[str],
        attribute: str = "read",
        before: bool = False,
        *,
        take_back: Callable[[], str] | None = None,
    ) -> None:
        self.description = description
        self.paper_ids = paper_ids
        self.attribute = attribute
        self.before = before
        self.take_back = take_back


class Marks:
    """Owns the undo stack: every mark set here (m, M, s, and opening a paper
    that marks it read) is remembered, and the views redraw what changed."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.undo_stack: list[Undo] = []

    def _set_read(self, ids: list[str], read: bool) -> list[str]:
        engine = self.engine
        changed = engine.mark_read(ids) if read else engine.mark_unread(ids)
        if changed:
            library = engine.library
            topics = {t for pid in changed if pid in library.pos for t in library.tags[library.pos[pid]]}
            self.screen.sidebar.update_counts(topics)
            self.screen.topic_view.invalidate_ids(changed)
        return changed

    def _set_starred(self, ids: list[str], starred: bool) -> None:
        if starred:
            self.engine.star(ids)
        else:
            self.engine.unstar(ids)
        self.screen.topic_view.invalidate_ids(ids)
        self.screen.sidebar.update_counts(set())
        self.screen.discover.taste_changed()  # stars teach For you

    def remember(self, undo: Undo) -> None:
        self.undo_stack.append(undo)
        del self.undo_stack[:-UNDO_DEPTH]

    def _titled(self, paper_id: str) -> str:
        """“A paper's title”, cut to fit a notification."""
        from feedtui.sources.parse.text import cut  # the parse path's LaTeX tables: not needed to start

        row = self.engine.card(paper_id)
        title = one_line_safe(shown_title(row.title)) if row is not None else paper_id
        return f"“{cut(title, 60)}”"

    def toggle_read(self, paper_id: str) -> None:
        """Mark a paper read or unread, here or from the detail view."""
        was = self.engine.is_read(paper_id)
        if self._set_read([paper_id], not was):
            now = "unread" if was else "read"
            self.remember(Undo(f"marked {self._titled(paper_id)} {now}", [paper_id], "read", was))

    def mark_all_read(self) -> None:
        screen = self.screen
        cards = screen.topic_view.cards
        if cards is None or not len(cards):
            screen.notify(NO_PAPER_HERE, markup=False)
            return
        ids = [self.engine.library.ids[p] for p in cards.positions]
        changed = self._set_read(ids, True)
        if changed:
            papers = f"{len(changed):,} paper{'s' if len(changed) != 1 else ''}"
            where = {STARRED_VIEW: "the reading list", FOR_YOU_VIEW: "For you", EVERYTHING_VIEW: "this list"}.get(
                screen.current, screen.current
            )
            self.remember(Undo(f"marked {papers} read in {where}", changed))
            screen.notify(f"Marked {papers} read — {screen._key('app.undo')} to undo", markup=False)
        else:
            screen.notify("Every paper here is read already", markup=False)

    def undo(self) -> None:
        if not self.undo_stack:
            self.screen.notify("Nothing to undo", markup=False)
            return
        undo = self.undo_stack.pop()
        if undo.take_back is not None:
            if refused := undo.take_back():
                self.screen.notify(f"Could not undo ({undo.description}): {refused}", severity="warning", markup=False)
                return
        elif undo.attribute == "starred":
            self._set_starred(undo.paper_ids, undo.before)
        else:
            self._set_read(undo.paper_ids, undo.before)
        self.screen.notify(f"Undone: {undo.description}", markup=False)

    def toggle_star(self, paper_id: str) -> None:
        """Star or unstar a paper, here or from the detail view: its card and
        the reading list's row follow."""
        was = self.engine.is_starred(paper_id)
        self._set_starred([paper_id], not was)
        done = "unstarred" if was else "starred"
        self.remember(Undo(f"{done} {self._titled(paper_id)}", [paper_id], "starred", was))
