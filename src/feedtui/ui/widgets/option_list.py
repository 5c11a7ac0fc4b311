"""Textual's OptionList, paged only when it has lines to page through.

In Textual 8.2.8, `OptionList._move_page` looks the highlighted option up in
the list's line cache, which is empty while the list has no room to lay its
options out (before its first layout, or just after a resize cleared the
cache): page up or page down then raised KeyError. Only the paging is
guarded; everything else is Textual's.
"""

from __future__ import annotations

from textual.widgets import OptionList, SelectionList


def can_page(options: OptionList) -> bool:
    """Whether the list's lines exist: it has options and room to show them."""
    return bool(options.option_count and options.scrollable_content_region)


class PagedOnlyWithLines:
    """Mixed into an OptionList (or a subclass such as SelectionList) before it."""

    def action_page_up(self) -> None:
        if can_page(self):  # type: ignore[arg-type]
            super().action_page_up()  # type: ignore[misc]

    def action_page_down(self) -> None:
        if can_page(self):  # type: ignore[arg-type]
            super().action_page_down()  # type: ignore[misc]


class PagedOptionList(PagedOnlyWithLines, OptionList):
    """The topic picker's list."""


class PagedSelectionList(PagedOnlyWithLines, SelectionList):
    """The welcome screen's list of topics to follow."""
