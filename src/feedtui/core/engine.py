"""The headless engine: everything between the network and the screen.

The CLI and the reader both talk to an `Engine`. It owns the data directory
(state, cache, tags, fetch state), the topic registry and the in-memory
library, and it runs refreshes. Front ends never touch the network or the
stores: they call these methods, read the library, and subscribe to the
engine's events (core/events.py), among them what the state store's thread
reports.

The methods come by job from core/topics.py (topic rules), core/reading.py
(the library and marks), core/refresh.py (refresh and commit),
core/upkeep.py (prune, save, close), core/discovery.py (Ask over the
whole cache, related papers, For you) and core/discovery_store.py (the
vectors and word index it computes and stores); this module holds the state
they share and the event hub.

Threading: methods that only change memory (marks, follows) return at once,
and the state store writes them in the background. `refresh()` is a coroutine
that does its disk work in threads; `load_library()` and `retag()` read the
disk and are meant to run in a worker thread in the reader.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from feedtui.config import Config
from feedtui.core.cache_outline import CacheOutline
from feedtui.core.discovery import Discovery, PaperNotFound
from feedtui.core.events import (
    CacheChangedElsewhere,
    EngineEvent,
    MarksNotSaved,
    MarksSaved,
    RefreshProgress,
    StateChangedElsewhere,
    StateRecovered,
)
from feedtui.core.library import Library
from feedtui.core.reading import Reading
from feedtui.core.refresh import Refreshing
from feedtui.core.topics import QueryError, TopicNameTaken, TopicNotFound, TopicRefused, TopicRules
from feedtui.core.upkeep import Upkeep
from feedtui.model import RefreshReport, utcnow
from feedtui.store.cache import PaperCache
from feedtui.store.fetch_state import FetchState
from feedtui.store.lock import DataDirLock
from feedtui.store.state import StateStore
from feedtui.store.tags import TagStore
from feedtui.topics.tagging import MatchRows

Subscriber = Callable[[EngineEvent], None]


class Problems:
    """Things the user must be told about at start-up (damage found, bad config)."""

    __slots__ = ("messages",)

    def __init__(self) -> None:
        self.messages: list[str] = []


class Engine(TopicRules, Reading, Refreshing, Upkeep, Discovery):
    def __init__(
        self,
        config: Config,
        data_dir: Path,
        *,
        demo: bool = False,
        background_writes: bool = True,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.config = config
        # "Now" for momentum, staleness and refresh windows; tests pin it.
        self.clock = clock
        self.settings = config.settings
        self.data_dir = data_dir
        self.demo = demo
        # (callback, event types) pairs, replaced whole (never changed in
        # place) so that the store's thread reads them without a lock.
        self._subscribers: tuple[tuple[Subscriber, tuple[type[EngineEvent], ...]], ...] = ()
        self._subscribing = threading.Lock()
        # A save failed, and none has worked since (set on the store's thread).
        self._save_failed = False
        data_dir.mkdir(parents=True, exist_ok=True)
        self.lock = DataDirLock(data_dir)
        self.state = StateStore(data_dir / "state.json", self.lock, background=background_writes)
        self.cache = PaperCache(data_dir / "cache", self.lock, MatchRows())
        self.tags = TagStore(data_dir / "cache" / "tags.json", self.lock)
        self.fetch_state = FetchState(data_dir / "http.json", self.lock)
        self.problems = Problems()
        for message in (self.state.recovery_message, self.fetch_state.problem):
            if message:
                self.problems.messages.append(message)
        self._listen_to_state()
        self.problems.messages.extend(str(p) for p in config.problems)
        self.registry = self._build_registry()
        self.problems.messages.extend(self.registry.problems())
        self.problems.messages.extend(self._release_orphaned_copies())
        self.problems.messages.extend(
            self.orphaned_follow_problem(name) for name in (self.orphaned_follows() if self.config.topics_known else ())
        )
        # Topics added within adding_topics(), not yet in state.json (None outside it).
        self._topic_batch: dict[str, dict] | None = None
        self._library: Library | None = None
        self._stale_topics: list[str] = []
        # What the last refresh stored into without the library (core/cache_outline.py).
        self._stored_outline: CacheOutline | None = None
        # The definition (signature) each topic's papers in the library were
        # found for, so that a topic tagged by another process is taken as is.
        self._member_signatures: dict[str, str] = {}
        self.last_refresh: datetime | None = None
        # What a refresh stopped midway had stored (its `refresh` raised).
        self.stopped_refresh: RefreshReport | None = None
        self._cache_total_memo: tuple[tuple, int] = ((), 0)
        # The cache generation this process has seen (its own writes included):
        # a newer one on disk means another process changed the cache.
        self.known_generation = 0
        # The last record written to STARS_CHECKED_FILE by this process.
        self._stars_checked: dict | None = None
        # What discovery keeps between questions (core/discovery_store.py), built when first asked.
        self._held_discovery = None
        # Vectors and words a refresh's parsers computed for the papers it
        # stored, until compute_vectors writes them (core/discovery_store.py).
        self._kept_vectors = None
        self._kept_vectors_lock = threading.Lock()

    # -- events ----------------------------------------------------------------

    def subscribe(self, callback: Subscriber, *kinds: type[EngineEvent]) -> Callable[[], None]:
        """Call `callback` with every event of these types (every event, with
        none given); returns what unsubscribes it. Events about the state
        file come on the store's thread: the callback must not wait there."""
        with self._subscribing:
            self._subscribers = (*self._subscribers, (callback, kinds or (EngineEvent,)))
        return lambda: self.unsubscribe(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        """Stop calling `callback` (a front end going away: the store outlives it)."""
        with self._subscribing:
            self._subscribers = tuple(pair for pair in self._subscribers if pair[0] != callback)

    def publish(self, event: EngineEvent) -> int:
        """Tell the subscribers to this event's type; returns how many were told."""
        told = 0
        for callback, kinds in self._subscribers:
            if isinstance(event, kinds):
                callback(event)
                told += 1
        return told

    def _listen_to_state(self) -> None:
        """The state store reports from its own thread; its reports become events."""
        state = self.state
        state.on_external_change = lambda: self.publish(StateChangedElsewhere())
        state.on_error = self._state_not_saved
        state.on_recovered = self._state_recovered
        state.on_durable = self._state_saved

    def _state_not_saved(self, message: str) -> None:
        self._save_failed = True  # on the store's thread, before the retry can succeed
        self.publish(MarksNotSaved(message))

    def _state_saved(self, sequence: int) -> None:
        after_failure, self._save_failed = self._save_failed, False
        self.publish(MarksSaved(sequence, after_failure))

    def _state_recovered(self, message: str) -> None:
        """state.json found damaged later (while a command runs, or by the save
        that ends it) is told like damage found at start, unless a subscriber
        (the reader) tells it its own way."""
        if not self.publish(StateRecovered(message)):
            self.problems.messages.append(message)

    def take_state_change(self) -> list[str]:
        """After StateChangedElsewhere (or an import): the topics rebuilt and
        the library's unread counts recounted; returns the topics needing a
        retag. To be called on the thread that reads the library."""
        stale = self.reload_topics()
        self.library.recount()
        return stale

    def check_elsewhere(self) -> bool:
        """Has another process stored papers since the library was loaded?
        Publishes CacheChangedElsewhere when it has."""
        if self.cache_changed_elsewhere():
            self.publish(CacheChangedElsewhere())
            return True
        return False

    # -- preferences and the user's state ---------------------------------------

    def pref(self, key: str, default: Any = None) -> Any:
        return self.state.pref(key, default)

    def set_pref(self, key: str, value: Any) -> None:
        self.state.set_pref(key, value)

    def has_unsaved_changes(self) -> bool:
        """Are there changes the state store has not written yet?"""
        return self.state.dirty

    def user_state(self) -> dict[str, dict[str, dict]]:
        """The state file's tables (follows, marks, topics, prefs), as copies."""
        return self.state.export()

    def add_user_state(self, additions: Mapping[str, Mapping[str, dict]]) -> None:
        """Add these documents to the state file's tables (an import), as one
        change; `take_state_change` brings the topics and library up to date."""
        self.state.replace_all({table: dict(docs) for table, docs in additions.items()})

    def flush(self) -> None:
        """Write what is pending now, waiting for it; raises StoreError."""
        self.state.flush()


def open_engine(
    config: Config,
    data_dir: Path,
    *,
    demo: bool = False,
    background_writes: bool = True,
    clock: Callable[[], datetime] = utcnow,
) -> Engine:
    engine = Engine(config, data_dir, demo=demo, background_writes=background_writes, clock=clock)
    if demo:
        from feedtui.demo.seed import ensure_demo_seeded

        ensure_demo_seeded(engine, now=clock())
    return engine


__all__ = [
    "Engine",
    "open_engine",
    "PaperNotFound",
    "Problems",
    "TopicNotFound",
    "TopicNameTaken",
    "TopicRefused",
    "QueryError",
    "RefreshProgress",
]
