"""Lists whose focus shows in the colours they pick, not in their CSS.

On a focus change Textual restyles the widget (its component classes and
scrollbars too), so that `:focus` and `:blur` rules apply, and repaints all
of it. For the reader's two lists that was most of what Tab cost: each has
a dozen component classes, every one matched against the whole stylesheet
again, and every line on screen was drawn and sent to the terminal again
where only the cursor's colours change. Neither list is styled by its focus
in CSS: each picks its focused or blurred cursor colours (`*--cursor`,
`*--cursor-blurred`) as it draws.

`FocusColours` restyles nothing and repaints only the cursor
(`refresh_cursor`) on a focus change, unless a stylesheet names `:focus`,
`:blur` or `:focus-within` for the widget: then Textual's own handling
applies, so such a rule still works.
"""

from __future__ import annotations

from textual import events

FOCUS_PSEUDO_CLASSES = frozenset({"focus", "blur", "focus-within"})


class FocusColours:
    """Mixin for a Widget, before Widget in its bases, whose subclass
    defines `refresh_cursor()`: the lines that change with the focus."""

    def refresh_cursor(self) -> None:
        raise NotImplementedError

    def watch_has_focus(self, has_focus: bool) -> None:
        if styled_by_focus(self):
            super().watch_has_focus(has_focus)  # type: ignore[misc]

    def _on_focus(self, event: events.Focus) -> None:
        self._focus_changed(event, True)

    def _on_blur(self, event: events.Blur) -> None:
        self._focus_changed(event, False)

    def _focus_changed(self, event: events.Focus | events.Blur, has_focus: bool) -> None:
        if styled_by_focus(self):
            return  # Widget's handler follows: restyle, repaint all
        # What Widget's handler does, but for its repaint of the whole widget.
        event.prevent_default()
        self.has_focus = has_focus
        self.refresh_cursor()
        if self.parent is not None:
            message = events.DescendantFocus(self) if has_focus else events.DescendantBlur(self)
            self.parent.post_message(message)


def styled_by_focus(widget) -> bool:
    """Whether a stylesheet rule that could match `widget` (or its component
    classes) names a focus pseudo-class."""
    rules_map = widget.app.stylesheet.rules_map
    names = set(widget._selector_names)
    names.update(f".{name}" for name in widget._get_component_classes())
    return any(
        not FOCUS_PSEUDO_CLASSES.isdisjoint(rule.pseudo_classes)
        for name in rules_map.keys() & names
        for rule in rules_map[name]
    )
