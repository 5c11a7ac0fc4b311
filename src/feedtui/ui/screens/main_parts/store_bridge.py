"""The state store's reports, from its own thread, turned into the reader's messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from feedtui.ui.messages import StateChangedElsewhere, StateNotSaved, StateRecovered, StateSavedAgain
from feedtui.ui.presenter import STARRED_VIEW

if TYPE_CHECKING:
    from textual.screen import Screen


class StoreBridge:
    """Wires the state store's callbacks to messages posted to the screen, and
    catches the reader up when the topics changed under it."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self._save_failed = False  # a save failed and none has succeeded since (the store's threads)

    def attach(self) -> None:
        state = self.engine.state
        state.on_external_change = self._state_changed_elsewhere
        state.on_error = self._state_not_saved
        state.on_recovered = self._state_recovered
        state.on_durable = self._state_saved

    def detach(self) -> None:
        # The store outlives the app (it is flushed once more on the way out):
        # its thread must not call into an app that has stopped.
        state = self.engine.state
        state.on_external_change = state.on_error = state.on_recovered = state.on_durable = None

    def _state_changed_elsewhere(self) -> None:
        self.screen.post_message(StateChangedElsewhere())

    def _state_not_saved(self, message: str) -> None:
        self._save_failed = True  # on the store's thread, before the retry can succeed
        self.screen.post_message(StateNotSaved(message))

    def _state_recovered(self, message: str) -> None:
        self.screen.post_message(StateRecovered(message))

    def _state_saved(self, _sequence: int) -> None:
        if self._save_failed:
            self._save_failed = False
            self.screen.post_message(StateSavedAgain())

    def reload_topics(self) -> None:
        """The registry as the state now holds it (changed elsewhere, or a
        topic saved or removed here), retagged where needed, and shown."""
        screen, engine = self.screen, self.engine
        before = set(engine.registry.names())
        stale = engine.reload_topics()
        engine.library.recount()
        if stale:
            screen.refresher.retag(stale)
        if screen.current and screen.current != STARRED_VIEW and screen.current not in engine.registry:
            # Renamed or removed by another feedtui (one changed here is no
            # longer current): said, so that the next key is not taken as
            # meant for another topic; a renamed one stays in view.
            renamed = next(
                (name for name in engine.registry.names() if name not in before and engine.state.renamed_from(name) == screen.current),
                "",
            )
            if renamed:
                screen.notify(f"{screen.current} was renamed {renamed} by another feedtui", markup=False)
                screen.current = renamed
            else:
                screen.notify(f"{screen.current} was removed by another feedtui", severity="warning", markup=False)
        screen.rebuild_sidebar()
        if screen.current:
            if screen.current != STARRED_VIEW and screen.current not in engine.registry:
                screen.current = None
                screen.rebuild_sidebar()
            else:
                screen.show_topic(screen.current, keep=screen.topic_view.cursor_id())
