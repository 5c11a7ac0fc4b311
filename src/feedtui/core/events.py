"""What the engine tells its subscribers (see Engine.subscribe).

Each event is a small frozen dataclass, so a front end dispatches on its
type rather than on a string: the reader turns them into Textual messages,
the CLI prints them. Events about the state file come from the state
store's own thread; a subscriber must hand them on without waiting (the
store may hold the data directory's lock, which another thread may be
waiting for). Posting a Textual message is such a hand-over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from feedtui.core.fetch import Activity


class EngineEvent:
    """The base of every event the engine publishes."""

    __slots__ = ()


@dataclass(slots=True)
class RefreshProgress(EngineEvent):
    """`done` of `total` sources have ended, the last one `label`. Told to
    `on_activity`, `activity` says what the refresh is at now (None: nothing
    worth saying), and `label` is empty."""

    done: int
    total: int
    label: str
    ok: bool
    error: str = ""
    activity: Activity = None


@dataclass(frozen=True, slots=True)
class SourceFailed(EngineEvent):
    """A source of a refresh under way failed (published as it ends)."""

    label: str
    error: str


@dataclass(frozen=True, slots=True)
class PapersStored(EngineEvent):
    """A step of a refresh stored papers: the library holds them now."""

    new: int
    updated: int


@dataclass(frozen=True, slots=True)
class MarksSaved(EngineEvent):
    """Follows, marks and topics are on disk up to this change (`sequence`);
    `after_failure`: saving had failed before (see MarksNotSaved), and works again."""

    sequence: int
    after_failure: bool


@dataclass(frozen=True, slots=True)
class MarksNotSaved(EngineEvent):
    """A save of follows, marks or topics failed (a read-only or full disk):
    the changes are kept in memory and the save is retried."""

    message: str


@dataclass(frozen=True, slots=True)
class StateRecovered(EngineEvent):
    """state.json was found damaged and was replaced with what this process holds."""

    message: str


@dataclass(frozen=True, slots=True)
class StateChangedElsewhere(EngineEvent):
    """Another process wrote state.json: follows, marks or topics changed.
    The engine's answers (is_following, read_view…) already hold the change;
    the topics (reload_topics) and the library's counts are the caller's to
    bring up to date, on its own thread (see Engine.take_state_change)."""


@dataclass(frozen=True, slots=True)
class CacheChangedElsewhere(EngineEvent):
    """Another process stored papers since the library was loaded (found by
    Engine.check_elsewhere): load_library shows them."""


@dataclass(frozen=True, slots=True)
class TasteChanged(EngineEvent):
    """A "more / less like this" mark changed: For you ranks differently now."""


@dataclass(frozen=True, slots=True)
class VectorsUpdated(EngineEvent):
    """`count` papers got their vectors: semantic ranking covers them now."""

    count: int
