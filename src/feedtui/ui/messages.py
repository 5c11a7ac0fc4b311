"""The reader's messages between its parts: one class per thing that happened.

Posting a message is thread-safe and never waits, so the state store's own
thread reports through these (it may report while holding the data
directory's lock, which the app's thread may be waiting for)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from feedtui.core.events import RefreshActivity, RefreshProgress


class StateChangedElsewhere(Message):
    """Another process wrote state.json: follows, marks or topics changed."""


class StateNotSaved(Message):
    """A save failed (read-only or full disk, say): the store keeps the
    changes and retries."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class StateRecovered(Message):
    """The store replaced a state.json damaged under it, with what it holds."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class StateSavedAgain(Message):
    """A save succeeded after one had failed."""


class RefreshAdvanced(Message):
    """A source of the refresh under way ended (the engine's RefreshProgress);
    `tell`: it failed, and first of the sources failing the same way."""

    def __init__(self, progress: RefreshProgress, tell: bool) -> None:
        super().__init__()
        self.progress = progress
        self.tell = tell


class RefreshActivityChanged(Message):
    """What the refresh under way is at changed (the engine's RefreshActivity)."""

    def __init__(self, event: RefreshActivity) -> None:
        super().__init__()
        self.event = event
