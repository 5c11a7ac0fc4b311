"""What the engine tells its subscribers (see Engine.subscribe).

Each event is a small record of its own type, so a front end dispatches on
its type rather than on a string: the reader turns them into Textual messages,
the CLI prints them. Events about the state file come from the state
store's own thread; a subscriber must hand them on without waiting (the
store may hold the data directory's lock, which another thread may be
waiting for). Posting a Textual message is such a hand-over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from feedtui.slot_record import SlotRecord

if TYPE_CHECKING:
    from feedtui.core.fetch import Activity


class EngineEvent(SlotRecord):
    """The base of every event the engine publishes: a record of the fields
    in its `__slots__` (see slot_record.py)."""

    __slots__ = ()


class RefreshProgress(EngineEvent):
    """`done` of `total` sources have ended, the last one `label`."""

    __slots__ = ("done", "total", "label", "ok", "error")

    def __init__(self, done: int, total: int, label: str, ok: bool, error: str = "") -> None:
        self.done = done
        self.total = total
        self.label = label
        self.ok = ok
        self.error = error


class RefreshActivity(EngineEvent):
    """What a refresh is at now, beyond the sources ended (`done` of
    `total`): an arXiv query paging, a wait worth telling; None: nothing
    worth saying."""

    __slots__ = ("done", "total", "activity")

    def __init__(self, done: int, total: int, activity: Activity = None) -> None:
        self.done = done
        self.total = total
        self.activity = activity


class SourceFailed(EngineEvent):
    """A source of a refresh under way failed (published as it ends)."""

    __slots__ = ("label", "error")

    def __init__(self, label: str, error: str) -> None:
        self.label = label
        self.error = error


class PapersStored(EngineEvent):
    """A step of a refresh stored papers: the library holds them now."""

    __slots__ = ("new", "updated")

    def __init__(self, new: int, updated: int) -> None:
        self.new = new
        self.updated = updated


class MarksSaved(EngineEvent):
    """Follows, marks and topics are on disk up to this change (`sequence`);
    `after_failure`: saving had failed before (see MarksNotSaved), and works again."""

    __slots__ = ("sequence", "after_failure")

    def __init__(self, sequence: int, after_failure: bool) -> None:
        self.sequence = sequence
        self.after_failure = after_failure


class MarksNotSaved(EngineEvent):
    """A save of follows, marks or topics failed (a read-only or full disk):
    the changes are kept in memory and the save is retried."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


class StateRecovered(EngineEvent):
    """state.json was found damaged and was replaced with what this process holds."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


class StateChangedElsewhere(EngineEvent):
    """Another process wrote state.json: follows, marks or topics changed.
    The engine's answers (is_following, read_view…) already hold the change;
    the topics (reload_topics) and the library's counts are the caller's to
    bring up to date, on its own thread (see Engine.take_state_change)."""

    __slots__ = ()


class CacheChangedElsewhere(EngineEvent):
    """Another process stored papers since the library was loaded (found by
    Engine.check_elsewhere): load_library shows them."""

    __slots__ = ()


class TasteChanged(EngineEvent):
    """A "more / less like this" mark changed: For you ranks differently now."""

    __slots__ = ()


class VectorsUpdated(EngineEvent):
    """`count` papers got their vectors: semantic ranking covers them now."""

    __slots__ = ("count",)

    def __init__(self, count: int) -> None:
        self.count = count
