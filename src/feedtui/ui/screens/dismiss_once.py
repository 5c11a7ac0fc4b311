"""Dismissing a screen once, and no keys for it after that.

Keys typed fast reach a screen while it is going away: a second escape, or
enter after escape, arrived after the first had dismissed it. A second
`Screen.dismiss` pops the screen underneath (or, with nothing under it,
raises ScreenStackError), and an action that looks up the screen's widgets
finds none once they are removed (NoMatches).
"""

from __future__ import annotations

from textual.await_complete import AwaitComplete


class DismissOnce:
    """Mixed into a Screen before it: `dismiss` is idempotent, and once it has
    been called, or while the screen is not the one on top, the screen's own
    bindings do nothing."""

    _dismissing = False

    @property
    def dismissing(self) -> bool:
        return self._dismissing

    def dismiss(self, result=None) -> AwaitComplete:  # type: ignore[override]
        if self._dismissing or not self.is_active:  # type: ignore[attr-defined]
            return AwaitComplete.nothing()
        self._dismissing = True
        return super().dismiss(result)  # type: ignore[misc]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self._dismissing or not self.is_active:  # type: ignore[attr-defined]
            return False
        return super().check_action(action, parameters)  # type: ignore[misc]
