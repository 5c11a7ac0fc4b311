"""The engine's reports about the user's state, turned into the reader's messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from feedtui.core import events
from feedtui.ui.messages import StateChangedElsewhere, StateNotSaved, StateRecovered, StateSavedAgain, TasteChanged
from feedtui.ui.presenter import VIRTUAL_VIEWS

if TYPE_CHECKING:
    from textual.message import Message
    from textual.screen import Screen

_STATE_EVENTS = (
    events.StateChangedElsewhere, events.MarksNotSaved, events.StateRecovered, events.MarksSaved, events.TasteChanged
)


class StoreBridge:
    """Subscribes the screen to the engine's state events, posting one message
    per event, and catches the reader up when the topics changed under it.

    The events come on the store's own thread, which may hold the data
    directory's lock: posting a message is thread-safe and never waits."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self._unsubscribe = None

    def attach(self) -> None:
        self._unsubscribe = self.engine.subscribe(self._engine_said, *_STATE_EVENTS)

    def detach(self) -> None:
        # The engine outlives the app (the store is flushed once more on the
        # way out): its thread must not call into an app that has stopped.
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _engine_said(self, event: events.EngineEvent) -> None:
        message = as_message(event)
        if message is not None:
            self.screen.post_message(message)

    def reload_topics(self) -> None:
        """The registry as the state now holds it (changed elsewhere, or a
        topic saved or removed here), retagged where needed, and shown."""
        screen, engine = self.screen, self.engine
        before = set(engine.topic_names())
        stale = engine.take_state_change()
        if stale:
            screen.refresher.retag(stale)
        if screen.current and screen.current not in VIRTUAL_VIEWS and not engine.has_topic(screen.current):
            # Renamed or removed by another feedtui (one changed here is no
            # longer current): said, so that the next key is not taken as
            # meant for another topic; a renamed one stays in view.
            renamed = next(
                (name for name in engine.topic_names() if name not in before and engine.renamed_from(name) == screen.current),
                "",
            )
            if renamed:
                screen.notify(f"{screen.current} was renamed {renamed} by another feedtui", markup=False)
                screen.current = renamed
            else:
                screen.notify(f"{screen.current} was removed by another feedtui", severity="warning", markup=False)
        screen.rebuild_sidebar()
        if screen.current:
            if screen.current not in VIRTUAL_VIEWS and not engine.has_topic(screen.current):
                screen.current = None
                screen.rebuild_sidebar()
            else:
                screen.show_topic(screen.current, keep=screen.topic_view.cursor_id())


def as_message(event: events.EngineEvent) -> Message | None:
    """The reader's message for an engine event about the user's state; None
    for a save that merely succeeded, as most do."""
    match event:
        case events.StateChangedElsewhere():
            return StateChangedElsewhere()
        case events.MarksNotSaved(message=text):
            return StateNotSaved(text)
        case events.StateRecovered(message=text):
            return StateRecovered(text)
        case events.MarksSaved(after_failure=True):
            return StateSavedAgain()
        case events.TasteChanged():
            return TasteChanged()
    return None
