"""Textual's command palette, guarded against keys it cannot take.

In Textual 8.2.8 the palette passes page up / page down on to its CommandList
(an OptionList) even while that list has no lines (KeyError in
`OptionList._move_page`, see ui/widgets/option_list.py), and its actions look
the list up by type, which fails once the palette is being dismissed
(NoMatches: 'CommandList'). Here its bindings are refused then, through the
public `check_action`; and the two watchers that its command search sets off
when it ends (which can be after the palette's widgets are removed) are
skipped when there is no list to show (Textual has no public way to this).
"""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.widgets import LoadingIndicator

from feedtui.ui.crash import Guarded
from feedtui.ui.screens.dismiss_once import DismissOnce
from feedtui.ui.widgets.option_list import can_page


class GuardedPalette(Guarded, DismissOnce, CommandPalette):
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        lists = self.query(CommandList)
        if not lists:  # not composed yet, or removed
            return False
        if action == "command_list" and parameters and parameters[0] in ("page_up", "page_down"):
            if not can_page(lists.first(CommandList)):
                return False
        return super().check_action(action, parameters)

    def _composed(self) -> bool:
        return bool(self.query(CommandList)) and bool(self.query(LoadingIndicator))

    def _watch__list_visible(self) -> None:
        if self._composed():
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._composed():
            await super()._watch__show_busy()

    def _gather_commands(self, search_value: str):
        # A worker that starts by looking the list up: not started once it is gone.
        if self._composed():
            return super()._gather_commands(search_value)
        return None
