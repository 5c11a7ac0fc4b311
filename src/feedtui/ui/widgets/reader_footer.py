"""The footer, with the keys a newcomer needs first.

Textual's Footer lists the focused widget's keys first and the app's last,
so on a terminal of 80 columns Quit and Help were the keys cut off the right
edge. `ReaderFooter` draws the same keys with those of `FIRST_ACTIONS` moved
to the front: whatever else the width cuts, `q` and `?` stay on screen.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Actions whose keys the footer always shows first, in this order.
FIRST_ACTIONS = ("quit", "help")


class ReaderFooter(Footer):
    """A compact Footer whose first keys are Quit and Help."""

    def compose(self) -> ComposeResult:
        # Footer.compose is iterated here, inside Textual's compose of this
        # widget, so that its `with KeyGroup()` blocks still nest as they should.
        widgets = list(super().compose())
        first = sorted(
            (w for w in widgets if isinstance(w, FooterKey) and w.action in FIRST_ACTIONS),
            key=lambda w: FIRST_ACTIONS.index(w.action),
        )
        yield from first
        yield from (w for w in widgets if w not in first)
