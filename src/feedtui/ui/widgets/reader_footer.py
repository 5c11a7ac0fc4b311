"""The footer, with the keys a newcomer needs first, composed only when its keys change.

Textual's Footer lists the focused widget's keys first and the app's last,
so on a terminal of 80 columns Quit and Help were the keys cut off the right
edge. `ReaderFooter` draws the same keys with those of `FIRST_ACTIONS` moved
to the front: whatever else the width cuts, `q` and `?` stay on screen.

Textual's Footer also composes itself anew (removing and mounting a widget
per key, then laying them out: three more frames) each time the screen's
bindings are said to have changed, twice for one focus change (the blur,
then the focus): most of what Tab cost, as the list's keys come and go
with its focus. `ReaderFooter` looks once per such burst, and when every
key to show has a widget already, dims, shows and hides those widgets instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.screen import Screen

# Actions whose keys the footer always shows first, in this order.
FIRST_ACTIONS = ("quit", "help")

# What the footer shows of one key: (key, description, action, enabled).
Shown = tuple[tuple[str, str, str, bool], ...]


class ReaderFooter(Footer):
    """A compact Footer whose first keys are Quit and Help."""

    _drawn: Shown | None = None
    _recompose_pending = False

    def shown(self) -> Shown:
        """The keys the footer would show now, in the screen's order."""
        return tuple(
            (binding.key, binding.description, binding.action, enabled)
            for (_, binding, enabled, _) in self.screen.active_bindings.values()
            if binding.show
        )

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = self.shown()
        # Footer.compose is iterated here, inside Textual's compose of this
        # widget, so that its `with KeyGroup()` blocks still nest as they should.
        widgets = list(super().compose())
        first = sorted(
            (w for w in widgets if isinstance(w, FooterKey) and w.action in FIRST_ACTIONS),
            key=lambda w: FIRST_ACTIONS.index(w.action),
        )
        yield from first
        yield from (w for w in widgets if w not in first)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if not self.is_attached or screen is not self.screen:
            return
        # Shown and hidden at once, the footer changes in the frame that shows
        # the focus moved; composing waits for the burst to end.
        if self._drawn is not None and not self._recompose_pending:
            shown = self.shown()
            if shown == self._drawn or self._show_in_place(shown):
                return
        if not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    def show_now(self) -> None:
        """Show the keys as they are now, if the widgets there are can (the
        screen calls this as it moves the focus: Textual tells the footer
        once idle, a frame later)."""
        if self._drawn is not None and self.is_attached and self.app.app_focus:
            shown = self.shown()
            if shown != self._drawn and self._show_in_place(shown):
                for key in self.query_children(FooterKey):
                    key._check_refresh()

    async def _recompose_if_changed(self) -> None:
        self._recompose_pending = False
        if not self.is_attached:
            return
        shown = self.shown()
        if shown != self._drawn and not self._show_in_place(shown):
            await self.recompose()

    def _show_in_place(self, shown: Shown) -> bool:
        """Show the keys of `shown` with the widgets there are, the others
        hidden; False (nothing changed) when a key to show has none."""
        keys = [w for w in self.query_children(FooterKey) if not w.has_class("-command-palette")]
        wanted = {(key, description, action): enabled for key, description, action, enabled in shown}
        have = {(w.key, w.description, w.action) for w in keys}
        if not wanted.keys() <= have or any(w.has_class("-grouped") for w in keys):
            return False
        used = {key for key, _, _ in wanted}
        for widget in keys:
            enabled = wanted.get((widget.key, widget.description, widget.action))
            # A key that does not apply now is dimmed where it is (the list's
            # keys while the sidebar has the focus): hiding it would move the
            # others, a layout and a frame more. Hidden only when its key now
            # does something else (f: Follow, Unfollow).
            display = enabled is not None or widget.key not in used
            if widget.display != display:  # set even unchanged, it lays the footer out again
                widget.display = display
            widget._disabled = not enabled  # read when the key is clicked
            widget.set_class(not enabled, "-disabled")
        self._drawn = shown
        return True
