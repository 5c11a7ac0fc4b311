"""The headless engine: everything between the network and the screen.

The CLI and the TUI both talk to an `Engine`. It owns the data directory
(state, cache, tags, fetch state), the topic registry and the in-memory
library, and it runs refreshes. UI code never touches the network or
TinyDB; it calls these methods and reads the library.

Threading: methods that only change memory (marks, follows) return at once,
and the state store writes them in the background. `refresh()` is a coroutine
that does its disk work in threads; `load_library()` and `retag()` read the
disk and are meant to run in a worker thread in the TUI.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from feedtui.config import Config
from feedtui.library import Library
from feedtui.memory import gc_paused, give_back_freed_memory
from feedtui.model import Paper, RefreshReport, SourceReport, TopicDefinition, split_arxiv_id, utcnow
from feedtui.store.cache import PaperCache, StoreOutcome
from feedtui.store.codec import C_SHARD
from feedtui.store.fetch_state import FetchState
from feedtui.store.files import StoreError, atomic_write
from feedtui.store.lock import DataDirLock
from feedtui.store.state import FOLLOWS, HIDDEN_TOPICS, PREFS, READ, REFRESHED_PREFIX, STARRED, TOPICS, StateStore
from feedtui.store.tags import TagStore, TagUpdate
from feedtui.text.links import feed_url
from feedtui.text.sanitize import clean_line
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.momentum import WINDOW, Momentum, compute_momentum, counted_since
from feedtui.topics.names import READING_LIST, is_reading_list_name, name_key, name_problem, same_name
from feedtui.topics.query import QueryError, category_query, parse_query
from feedtui.topics.registry import TopicEntry, TopicRegistry, user_topic
from feedtui.topics.tagging import (
    MatchRows,
    Tagger,
    build_matchers,
    forget_topics,
    register_topics,
    tag_papers,
    tag_shard_files,
    topic_specs,
)

if TYPE_CHECKING:
    from feedtui.refresh import Activity
    from feedtui.search import SearchIndex

# Marks the app's copy of a config topic (stored by an edit) in state.json.
CONFIG_COPY = "config_copy"
# What Engine.starred_arxiv_not_cached last found, for the cache and stars it saw.
STARS_CHECKED_FILE = "stars-checked.json"

# A refresh that runs longer than this (arXiv paced at one request per 3 s)
# saves what it has so far every this many seconds.
PERIODIC_COMMIT_S = 10.0
# Ask indexes of topics this large are built by worker processes from the
# cache files, on every core; smaller ones in the caller's thread, for which
# forking the workers would cost more than it saves.
INDEX_POOL_MIN_PAPERS = 1_000

# Changes not saved, in words: the (table, key set) they count, one, several.
_UNSAVED_WORDS = (
    ({(READ, True)}, "read mark", "read marks"),
    ({(READ, False)}, "removed read mark", "removed read marks"),
    ({(STARRED, True)}, "star", "stars"),
    ({(STARRED, False)}, "removed star", "removed stars"),
    ({(FOLLOWS, True)}, "follow", "follows"),
    ({(FOLLOWS, False)}, "unfollow", "unfollows"),
    ({(TOPICS, True), (TOPICS, False), (HIDDEN_TOPICS, True), (HIDDEN_TOPICS, False)}, "topic change", "topic changes"),
    ({(PREFS, True), (PREFS, False)}, "preference", "preferences"),
)



class TopicNotFound(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


class TopicRefused(ValueError):
    """A topic that cannot be saved as given, and the part of it that is wrong:
    "name", "query" (also for a topic with nothing in it), "categories",
    "feeds", or "" when no one part is (so a form can put the keyboard there).
    A query that does not parse raises QueryError instead."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class TopicNameTaken(TopicRefused):
    """A new topic given the name of one there is (but for case)."""

    def __init__(self, taken: str) -> None:
        super().__init__(f"there is a topic called '{taken}' already", "name")
        self.taken = taken


@dataclass(slots=True)
class RefreshProgress:
    """`done` of `total` sources have ended, the last one `label`. Told to
    `on_activity`, `activity` says what the refresh is at now (None: nothing
    worth saying), and `label` is empty."""

    done: int
    total: int
    label: str
    ok: bool
    error: str = ""
    activity: Activity = None


@dataclass(slots=True)
class Problems:
    """Things the user must be told about at start-up (damage found, bad config)."""

    messages: list[str] = field(default_factory=list)


async def _to_its_end(work: Awaitable[None]) -> None:
    """Await `work` to its end even when cancelled meanwhile, then pass the
    cancellation on: a store cut short loses the batch it had taken."""
    task = asyncio.ensure_future(work)
    stop: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as error:
            stop = stop or error
    if stop is not None:
        raise stop
    task.result()


class Engine:
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
        # state.json found damaged later (while a command runs, or by the save
        # that ends it) is told like damage found at start; the reader sets
        # its own callback, a notification.
        self.state.on_recovered = self.problems.messages.append
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

    # -- topics --------------------------------------------------------------

    def _build_registry(self) -> TopicRegistry:
        return TopicRegistry(
            load_catalogue(), self.config.topics, self.state.user_topics(), self.state.hidden_topics()
        )

    def reload_topics(self) -> list[str]:
        """Rebuild the registry after a topic change; returns topics needing a retag."""
        self.registry = self._build_registry()
        library = self._library
        if library is None:
            return []
        stored = self.tags.load()
        for name in list(library.members):
            if name not in self.registry:
                library.drop_topic(name)
                self._member_signatures.pop(name, None)
        stale = []
        for entry in self.registry:
            if self._member_signatures.get(entry.name) == entry.signature:
                continue  # the library holds this definition's papers
            signature, ids = stored.get(entry.name, ("", []))
            if signature == entry.signature:
                # Added, restored or edited elsewhere (the CLI), and tagged there.
                library.set_members(entry.name, ids)
                self._member_signatures[entry.name] = signature
            else:
                stale.append(entry.name)
        return stale

    def topic(self, name: str) -> TopicEntry:
        """The topic called `name`, forgiving case and unambiguous prefixes;
        a name the config file gave a [[topic]] table it left out stands for
        no other topic (it would otherwise be the prefix of one)."""
        if not name.strip():  # the prefix of every topic
            raise TopicNotFound("a topic name is needed (feedtui topics lists them)")
        if is_reading_list_name(name.strip()):
            raise TopicNotFound(f"'{name.strip()}' is the reading list, not a topic (feedtui papers Starred lists it)")
        left_out = same_name(name.strip(), self.config.left_out)
        if left_out and not self.registry.same_name(name.strip()):
            raise TopicNotFound(f"no topic called '{name}': {self.config.left_out[left_out]}")
        try:
            return self.registry.resolve(name)
        except KeyError as error:
            raise TopicNotFound(error.args[0]) from None

    def topics(self) -> list[TopicEntry]:
        return list(self.registry)

    def followed(self) -> list[TopicEntry]:
        return [e for e in self.registry if self.state.is_following(e.name)]

    def note_refreshed(self, entries: Iterable[TopicEntry], at: datetime) -> None:
        """Remember that these topics' sources answered at `at`, for the topics
        as they are defined now (kept in state.json, so every process sees it)."""
        for entry in entries:
            current = self.registry.get(entry.name)
            if current is None or current.signature != entry.signature:
                continue  # removed or redefined while its refresh ran
            self.state.set_pref(
                REFRESHED_PREFIX + entry.name, {"at": at.isoformat(timespec="seconds"), "sig": entry.signature}
            )

    def stale_followed(self) -> list[str]:
        """The followed topics due for a refresh: not refreshed, as they are now
        defined, within `refresh_age_hours` (or refreshed "in the future": the
        clock went back), such as a topic followed since the last refresh. A
        topic whose definition has an error is never due."""
        now = self.clock()
        age = timedelta(hours=self.settings.refresh_age_hours)
        due = []
        for entry in self.followed():
            if entry.error:
                continue
            when = _refreshed_at(self.state.pref(REFRESHED_PREFIX + entry.name), entry.signature)
            if when is None or not timedelta(0) <= now - when <= age:
                due.append(entry.name)
        return due

    def follow(self, name: str) -> TopicEntry:
        entry = self.topic(name)
        self.state.follow(entry.name)
        return entry

    def unfollow(self, name: str) -> TopicEntry:
        entry = self.topic(name)
        self.state.unfollow(entry.name)
        return entry

    def orphaned_follows(self) -> list[str]:
        """The follows of names no topic has now (follows are kept by name:
        a topic renamed in the config file leaves its follow behind)."""
        return sorted(
            (
                name
                for name in self.state.follows()
                if not self.registry.same_name(name) and not same_name(name, self.config.left_out)
            ),
            key=str.casefold,
        )

    def hidden_catalogue_topic(self, name: str) -> str:
        """The hidden catalogue topic that is `name` but for case ("" when none is)."""
        return same_name(name, sorted(self.state.hidden_topics() & self.registry.catalogue_names))

    def orphaned_follow_problem(self, name: str) -> str:
        """Why the follow `name` shows no topic, and what to do about it."""
        hidden = self.hidden_catalogue_topic(name)
        if hidden:
            return (
                f"you follow '{name}', but the catalogue topic '{hidden}' is hidden (removed here or by an import): "
                f"feedtui topic restore '{hidden}' shows it again, feedtui unfollow '{name}' drops the follow"
            )
        return (
            f"you follow '{name}', but no topic is called that now (renamed or removed in the config file?): "
            f"feedtui unfollow '{name}' drops the follow"
        )

    def drop_orphaned_follow(self, name: str) -> str:
        """Unfollow the name no topic has now that is `name` but for case;
        returns it ("" when there is none: `name` is a topic's, or nothing)."""
        orphan = same_name(name.strip(), self.orphaned_follows())
        if orphan:
            self.state.unfollow(orphan)
        return orphan

    @staticmethod
    def topic_name(text: str) -> str:
        """A topic name as it is stored: plain text on one line (names are drawn
        in the sidebar and header)."""
        return clean_line(text, html_allowed=False)

    def name_taken(self, name: str) -> str:
        """The topic, or the reading list, that already has this name but for
        case ("" when none has): a new topic may not take it. The reading list
        has `Starred` too (see is_reading_list_name)."""
        if is_reading_list_name(name):
            return READING_LIST
        return self.registry.same_name(name)

    def check_topic_name(self, name: str, *, replace: bool = False) -> None:
        """The rule for every way of adding a topic (see topics/names.py), for a
        name as stored (see `topic_name`): raises TopicNameTaken when a topic
        has it but for case, TopicRefused for a name that is wrong in itself.
        With `replace`, the topic of exactly this name may be replaced (an
        import merging into it); another spelling of it may not."""
        problem = name_problem(name)
        if problem:
            raise TopicRefused(problem, "name")
        taken = self.name_taken(name)
        if taken and not (replace and taken == name):
            raise TopicNameTaken(taken)

    def topic_name_problem(self, name: str, *, replace: bool = False) -> str:
        """What `check_topic_name` refuses, in words ("" when nothing)."""
        try:
            self.check_topic_name(name, replace=replace)
        except ValueError as error:
            return str(error)
        return ""

    def add_topic(
        self, name: str, definition: TopicDefinition, description: str = "", *, replace: bool = False
    ) -> TopicEntry:
        """Add a topic, or with `replace` change the one of this name; raises
        TopicRefused (TopicNameTaken for a name taken) or QueryError for what
        cannot be used."""
        name = self.topic_name(name)
        description = clean_line(description, html_allowed=False)
        self.check_topic_name(name, replace=replace)
        if definition.is_empty:
            raise TopicRefused("a topic needs a query, a category or a feed", "query")
        definition = check_definition(definition)
        document = {**definition.to_dict(), "description": description}
        if replace and self.config_file_defining(name):
            document[CONFIG_COPY] = True  # so that the table's going is told (_release_orphaned_copies)
        if self._topic_batch is not None:
            self._topic_batch[name] = document
            self.registry.put(user_topic(name, document))
        else:
            self.state.put_topic(name, document)
            self.reload_topics()
        return self.registry.entries[name]

    @contextmanager
    def adding_topics(self) -> Iterator[None]:
        """Many add_topic calls (an import) as one change: each updates the
        registry in place, and state.json and the library take them all at the
        end. Rebuilding the registry for each topic made an import of N topics
        take N² time (5,200 feeds: nearly 2 minutes)."""
        self._topic_batch = {}
        try:
            yield
        finally:  # also on an error or Ctrl-C: the topics added before it are kept, as one by one
            batch, self._topic_batch = self._topic_batch, None
            if batch:
                self.state.put_topics(batch)
                self.reload_topics()

    def edit_topic(
        self,
        name: str,
        *,
        query: str | None = None,
        description: str | None = None,
        categories: Sequence[str] | None = None,
        feeds: Sequence[str] | None = None,
        new_name: str | None = None,
    ) -> TopicEntry:
        """Change what is given (None keeps it); the topic is the user's from
        then on. A new name is for a topic of the user's own, and its follow
        goes with it."""
        entry = self.topic(name)
        new = entry.name if new_name is None else self._new_name(entry, new_name)
        old = entry.topic.definition
        definition = TopicDefinition(
            query=old.query if query is None else query,
            categories=old.categories if categories is None else tuple(categories),
            feeds=old.feeds if feeds is None else tuple(feeds),
        )
        if definition.is_empty:
            raise TopicRefused("the topic would have no query, categories or feeds left", "query")
        definition = check_definition(definition)
        text = entry.topic.description if description is None else clean_line(description, html_allowed=False)
        document = {**definition.to_dict(), "description": text}
        if self.config_file_defining(entry.name):
            document[CONFIG_COPY] = True  # so that the table's going is told (_release_orphaned_copies)
        if new != entry.name:
            self.state.rename_topic(entry.name, new, document)
            self.tags.update([], removed=[entry.name])
        else:
            self.state.put_topic(new, document)
        self.reload_topics()
        return self.registry.entries[new]

    def _new_name(self, entry: TopicEntry, new_name: str) -> str:
        """The name a topic is to be given, as stored; raises TopicRefused for a
        topic whose name is not the app's to change, or a name that cannot be used."""
        old, new = entry.name, self.topic_name(new_name)
        if new == old:
            return new
        if refused := self.rename_refused(old):
            raise TopicRefused(refused, "name")
        if name_key(new) != name_key(old):
            self.check_topic_name(new)
        elif problem := name_problem(new):  # a change of case: the name is its own
            raise TopicRefused(problem, "name")
        return new

    def rename_refused(self, name: str) -> str:
        """Why this topic's name cannot be changed here ("" when it can): the
        config file or the catalogue gives it."""
        if where := self.config_file_defining(name):
            return f"{name} is defined in {where}: rename its [[topic]] table there"
        if name in self.registry.catalogue_names:
            return f"{name} is a catalogue topic: its name stays (feedtui topic add names a topic of your own)"
        return ""

    def config_file_defining(self, name: str) -> str:
        """The config file that defines this topic in a [[topic]] table ("" when none does)."""
        if not same_name(name, (topic.name for topic in self.config.topics)):
            return ""
        return str(self.config.path or "the config file")

    def _in_config_file(self, name: str) -> bool:
        """Has the config file a [[topic]] table of this name, used or left out for an error?"""
        return bool(self.config_file_defining(name) or same_name(name, self.config.left_out))

    def config_copy_of(self, name: str) -> str:
        """The config file whose [[topic]] table for this topic the app's copy
        (stored by an edit) overrides ("" when there is no such copy)."""
        return self.config_file_defining(name) if name in self.state.user_topics() else ""

    def removal_refused(self, name: str) -> str:
        """Why this topic cannot be removed here ("" when it can): the config
        file defines it, and the app holds no copy of it to drop."""
        where = self.config_file_defining(name)
        if not where or self.config_copy_of(name):
            return ""
        return f"{name} is defined in {where}: remove its [[topic]] table there"

    def _release_orphaned_copies(self) -> list[str]:
        """The app's copies of config topics whose [[topic]] table is gone:
        each stays as a topic of the user's own, said once."""
        if not self.config.topics_known or self.config.nameless_left_out:
            return []  # its table may be back once the file can be read, or be a nameless one
        released: dict[str, dict] = {}
        for name, document in self.state.user_topics().items():
            if document.get(CONFIG_COPY) and not self._in_config_file(name):
                released[name] = {key: value for key, value in document.items() if key != CONFIG_COPY}
        if released:
            self.state.put_topics(released)
        where = self.config.path or "the config file"
        return [
            f"{name}: its [[topic]] table is gone from {where}; your edited copy of it stays, "
            f"as a topic of your own (feedtui topic rm '{name}' removes it)"
            for name in released
        ]

    def override_note(self, name: str) -> str:
        """After an edit, what it means for a topic the config file defines
        ("" for any other): from now on the edit hides the file's table."""
        where = self.config_file_defining(name)
        if not where:
            return ""
        return (
            f"{name} is defined in {where} too: this edit overrides its [[topic]] table there "
            f"(feedtui topic rm '{name}' drops the copy)"
        )

    def remove_topic(self, name: str) -> TopicEntry:
        """Remove the topic (hide a catalogue topic); for a config topic the
        app holds an edited copy of, drop the copy: its table rules again."""
        entry = self.topic(name)
        refused = self.removal_refused(entry.name)
        if refused:
            raise ValueError(refused)
        if self.config_copy_of(entry.name):
            return self._drop_config_copy(entry)
        self.state.remove_topic(entry.name, hide=entry.name in self.registry.catalogue_names)
        self.state.clear_pref(REFRESHED_PREFIX + entry.name)
        self.reload_topics()
        if self._library is not None:
            self._library.drop_topic(entry.name)
        self.tags.update([], removed=[entry.name])
        return entry

    def _drop_config_copy(self, entry: TopicEntry) -> TopicEntry:
        """The topic as its [[topic]] table defines it, followed as it was."""
        self.state.forget_topic(entry.name)
        self.state.clear_pref(REFRESHED_PREFIX + entry.name)
        self.reload_topics()
        return self.registry.entries[entry.name]

    def restore_topic(self, name: str) -> TopicEntry:
        """Bring back a catalogue topic removed earlier (removing one hides it)."""
        hidden = sorted(self.state.hidden_topics() & self.registry.catalogue_names)
        match = same_name(name.strip(), hidden)
        if not match:
            removed = ", ".join(f"'{h}'" for h in hidden[:8]) + (", …" if len(hidden) > 8 else "") or "none"
            raise TopicNotFound(f"no removed catalogue topic called '{name}' (removed: {removed})")
        self.state.unhide_topic(match)
        self.reload_topics()
        return self.topic(match)

    # -- the library -----------------------------------------------------------

    @property
    def library_loaded(self) -> bool:
        return self._library is not None

    @property
    def library(self) -> Library:
        if self._library is None:
            self.load_library()
        assert self._library is not None
        return self._library

    def load_library(self) -> Library:
        """Read the card index and tags (fast: no abstracts); note stale topics."""
        # Read first: papers another process stores while the index is read
        # may be missed, and are then loaded at the next look.
        generation = self.cache.generation()
        load = self.cache.load_index()
        self.problems.messages.extend(load.problems)
        if self.cache.lost_papers:
            self.fetch_state.save(forget_validators=True)
        stored = self.tags.load()
        if self.tags.problem:
            self.problems.messages.append(self.tags.problem)
        self.known_generation = generation
        stale: list[str] = []
        self._member_signatures = {}
        with gc_paused():
            library = Library(load.rows, self.state.read_view)
            for entry in self.registry:
                signature, ids = stored.get(entry.name, ("", []))
                if signature == entry.signature:
                    library.set_members(entry.name, ids)
                    self._member_signatures[entry.name] = signature
                else:
                    library.set_members(entry.name, ())
                    stale.append(entry.name)
        self._library = library
        self._stale_topics = stale if library.ids else []
        return library

    @property
    def stale_topics(self) -> list[str]:
        return list(self._stale_topics)

    def compute_tags(self, names: Sequence[str]) -> dict[str, set[str]]:
        """Evaluate these topics over the whole cache (reads every shard; on
        several cores when the cache is large)."""
        entries = [self.registry.entries[n] for n in names if n in self.registry.entries]
        found: dict[str, set[str]] = {e.name: set() for e in entries if not e.error}
        paths = [str(p) for p in self.cache.shard_paths()]
        from feedtui.cpu_pool import CpuPool, next_token  # multiprocessing: not needed to start the app

        token = next_token()
        pool = CpuPool(tag_shard_files, initializer=register_topics, initargs=(token, topic_specs(entries)))
        if len(paths) < 4:
            pool.workers = 1
        try:
            # Largest shards first, dealt round-robin: a few even chunks per worker.
            chunks = [paths[i :: pool.workers * 2] for i in range(min(len(paths), pool.workers * 2))]
            for result in pool.map_blocking([(token, chunk) for chunk in chunks if chunk]):
                for name, ids in result.items():
                    found[name].update(ids)
        finally:
            pool.close()
            forget_topics(token)
        updates = [TagUpdate(name, self.registry.entries[name].signature, ids, None) for name, ids in found.items()]
        self.tags.update(updates)
        return found

    def apply_tags(self, found: dict[str, set[str]]) -> None:
        library = self.library
        for name, ids in found.items():
            library.set_members(name, ids)
            if name in self.registry.entries:
                self._member_signatures[name] = self.registry.entries[name].signature
        self._stale_topics = [n for n in self._stale_topics if n not in found]

    def ensure_tagged(self) -> None:
        """Retag topics whose stored tags are missing or out of date (for answers
        that must be complete now, as the CLI's; the TUI does it in the background)."""
        if self.library_loaded and self._stale_topics:
            self.retag()
        elif not self.library_loaded:
            self.load_library()
            if self._stale_topics:
                self.retag()

    def retag(self, names: Sequence[str] | None = None) -> dict[str, set[str]]:
        found = self.compute_tags(list(names) if names is not None else self.stale_topics)
        self.apply_tags(found)
        return found

    # -- marks -----------------------------------------------------------------

    def resolve_ids(self, ids: Iterable[str]) -> tuple[list[str], list[str]]:
        """(known paper ids, unknown inputs), each paper once, in the order first
        given; arXiv ids may carry a version or URL form (`2609.01234` and
        `2609.01234v2` are one paper)."""
        known: dict[str, None] = {}
        unknown: dict[str, str] = {}
        library = self.library
        for raw in ids:
            split = split_arxiv_id(raw)
            pid = split[0] if split else raw.strip()
            if pid in library.pos:
                known.setdefault(pid)
            else:
                unknown.setdefault(pid, raw)
        return list(known), list(unknown.values())

    def mark_read(self, ids: Iterable[str]) -> list[str]:
        changed = [pid for pid in dict.fromkeys(ids) if not self.state.is_read(pid)]
        self.state.mark_read(changed)
        if self._library is not None:
            self._library.read_changed(changed, True)
        return changed

    def mark_unread(self, ids: Iterable[str]) -> list[str]:
        changed = [pid for pid in dict.fromkeys(ids) if self.state.is_read(pid)]
        self.state.mark_unread(changed)
        if self._library is not None:
            self._library.read_changed(changed, False)
        return changed

    def star(self, ids: Iterable[str]) -> list[str]:
        changed = [pid for pid in dict.fromkeys(ids) if not self.state.is_starred(pid)]
        self.state.star(changed)
        return changed

    def unstar(self, ids: Iterable[str]) -> list[str]:
        changed = [pid for pid in dict.fromkeys(ids) if self.state.is_starred(pid)]
        self.state.unstar(changed)
        return changed

    # -- papers ----------------------------------------------------------------

    def paper(self, paper_id: str) -> Paper | None:
        row = self.library.row_of(paper_id)
        if row is None:
            return None
        return self.cache.get_papers({paper_id: row[C_SHARD]}).get(paper_id)

    def search_index(self, positions: Sequence[int], *, pool_from: int = INDEX_POOL_MIN_PAPERS) -> SearchIndex:
        """Ask's index of the papers at these library positions. From
        `pool_from` papers on, worker processes read the papers' week files
        and index them in parts, merged here: indexing takes about 0.3 ms a
        paper and reading the files another 0.15, which here would be done
        on one core, the one answering the keys, while a few arrays a word
        come back from the workers (bench/bench_ask.py --cache). Forking is
        what makes that pay: where workers are spawned (not Linux), each
        would import the app first, so the index is built here.

        A document the workers cannot index as a paper would be read (one
        without a date, say) is indexed all the same; the papers read here
        would fail with it. Positions given twice are indexed once."""
        from feedtui.search import SearchIndex, index_shard_files

        positions = list(dict.fromkeys(positions))
        if len(positions) < pool_from or sys.platform != "linux":
            return SearchIndex.build(self.papers(positions))
        library = self.library
        by_shard: dict[str, list[str]] = {}
        for i in positions:
            by_shard.setdefault(library.rows[i][C_SHARD], []).append(library.ids[i])
        from feedtui.cpu_pool import CpuPool  # multiprocessing: not needed to start the app

        pool = CpuPool(index_shard_files, preload=["feedtui.search", "feedtui.store.cache", "feedtui.store.codec"])
        # The largest weeks first, each to the part with the fewest papers:
        # a few even parts per worker.
        parts: list[list[tuple[str, list[str]]]] = [[] for _ in range(pool.workers * 2)]
        sizes = [0] * len(parts)
        for shard, ids in sorted(by_shard.items(), key=lambda item: -len(item[1])):
            smallest = sizes.index(min(sizes))
            parts[smallest].append((str(self.cache.papers_file(shard)), ids))
            sizes[smallest] += len(ids)
        try:
            return SearchIndex.merged(pool.map_blocking([(part,) for part in parts if part]))
        finally:
            pool.close()

    def papers(self, positions: Sequence[int]) -> list[Paper]:
        """Full papers for library positions, in the order given."""
        library = self.library
        locations = {library.ids[i]: library.rows[i][C_SHARD] for i in positions}
        found = self.cache.get_papers(locations)
        return [found[library.ids[i]] for i in positions if library.ids[i] in found]

    def topic_positions(self, name: str, *, unread_only: bool = False) -> list[int]:
        library = self.library
        positions = library.topic_positions(name)
        if unread_only:
            positions = [i for i in positions if not library.is_read(i)]
        return positions

    # -- momentum --------------------------------------------------------------

    def momentum(self, name: str, as_of: datetime | None = None) -> Momentum:
        return self.momenta([name], as_of)[self.topic(name).name]

    def momenta(self, names: Sequence[str] | None = None, as_of: datetime | None = None) -> dict[str, Momentum]:
        """Momentum of these topics (default: all); the share denominators are
        computed once for the lot."""
        as_of = as_of or self.clock()
        entries = [self.topic(n) for n in names] if names is not None else list(self.registry)
        moment = int(as_of.timestamp())
        since = counted_since(moment)
        arxiv_total = self.fetch_state.recent_total(as_of)
        cache_total: int | None = None
        library = self.library
        out: dict[str, Momentum] = {}
        for entry in entries:
            if arxiv_total and not entry.topic.definition.feeds:
                total, share_of = arxiv_total, "arxiv"
            else:
                if cache_total is None:
                    cache_total = self._cache_total(moment)
                total, share_of = cache_total, "cache"
            out[entry.name] = compute_momentum(
                library.published(entry.name, since), moment, total_new=total, share_of=share_of
            )
        return out

    def _cache_total(self, moment: int) -> int:
        """Cached papers first submitted in the 28 days up to `moment` (memoised
        per minute and library size: the sidebar asks for it per topic)."""
        key = (moment // 60, len(self.library), self.library.version)
        if self._cache_total_memo[0] != key:
            start = moment - WINDOW
            total = sum(1 for p in self.library.all_published() if start < p <= moment)
            self._cache_total_memo = (key, total)
        return self._cache_total_memo[1]

    # -- refresh -----------------------------------------------------------------

    def starred_arxiv_not_cached(self) -> list[str]:
        """The arXiv ids of starred papers the cache lacks (stars imported from
        another machine, say), which a refresh of the followed topics asks for.

        Finding them needs the library, a second to load at 40,000 papers,
        which a refresh of 304s otherwise never loads: the answer is kept in
        STARS_CHECKED_FILE with the cache's generation and the stars it was
        found for, and taken from there while both are the same."""
        starred = {pid for pid in self.state.starred_ids() if split_arxiv_id(pid)}
        if not starred:
            return []  # the library need not be loaded
        stars = hashlib.blake2b("\n".join(sorted(starred)).encode(), digest_size=12).hexdigest()
        checked = self.data_dir / STARS_CHECKED_FILE
        if not self.library_loaded:
            try:
                kept = json.loads(checked.read_bytes())
                if kept["generation"] == self.cache.generation() and kept["stars"] == stars:
                    return [str(pid) for pid in kept["missing"]]
            except (OSError, ValueError, KeyError, TypeError):
                pass  # no record, or a damaged one: the library decides
        library = self.library
        missing = sorted(pid for pid in starred if pid not in library.pos)
        record = {"generation": self.known_generation, "stars": stars, "missing": missing}
        if record != self._stars_checked:
            try:
                atomic_write(checked, json.dumps(record).encode(), sync=False)
                self._stars_checked = record
            except StoreError:
                pass  # found again next time
        return missing

    async def refresh(
        self,
        names: Sequence[str] | None = None,
        *,
        force: bool = False,
        on_progress: Callable[[RefreshProgress], None] | None = None,
        on_landed: Callable[[], None] | None = None,
        on_activity: Callable[[RefreshProgress], None] | None = None,
        now: datetime | None = None,
    ) -> RefreshReport:
        """Fetch the named topics (default: the followed ones, and the starred
        arXiv papers the cache lacks) and store what comes.

        A long refresh stores what it has every PERIODIC_COMMIT_S; `on_landed`
        is called after each such step that added or changed papers, so a
        reader can show them before the last source has answered.
        `on_progress` is called as each source ends, `on_activity` as an arXiv
        query pages and when a wait worth telling begins or ends."""
        from feedtui.refresh import fetch_sources, plan_refresh

        now = now or self.clock()
        report = RefreshReport(started=now)
        entries = [self.topic(n) for n in names] if names else self.followed()
        if self.demo:
            report.sources.append(
                SourceReport(url="", label="demo", ok=True, skipped="demo mode uses bundled papers; nothing is fetched")
            )
            report.finished = utcnow()
            return report
        plans, skipped = plan_refresh(
            entries,
            settings=self.settings,
            fetch_state=self.fetch_state,
            now=now,
            force=force,
            starred_not_cached=self.starred_arxiv_not_cached() if not names else (),
        )
        report.sources.extend(skipped)
        # The day's count of all new arXiv papers is no source the user added:
        # it is neither counted nor named among them (see _count_failed).
        shown = sum(1 for plan in plans if plan.kind != "total")
        done = 0
        pending: list = []
        new_ids: set[str] = set()
        committing = asyncio.Lock()
        last_commit = time.monotonic()

        async def commit() -> bool:
            """Store what has come; True when that added or changed papers."""
            nonlocal last_commit
            landed = False
            async with committing:
                batch = list(pending)
                pending.clear()
                if batch:
                    stored = await self._commit(batch, now)
                    if self.cache.lost_papers:
                        report.notes.append(await asyncio.to_thread(self._recover_lost_papers))
                    if stored is not None:
                        new_ids.update(stored.new)
                        report.new_papers += len(stored.new)
                        report.updated_papers += len(stored.updated)
                        landed = bool(stored.new or stored.updated)
                last_commit = time.monotonic()
            return landed

        def on_page(outcome) -> None:
            pending.append(outcome)

        def on_source(outcome) -> None:
            nonlocal done
            pending.append(outcome)
            if outcome.plan.kind == "total":
                return
            done += 1
            if on_progress:
                on_progress(RefreshProgress(done, shown, outcome.report.label, outcome.report.ok, outcome.report.error))

        def activity(now_at: Activity) -> None:
            assert on_activity is not None
            on_activity(RefreshProgress(done, shown, "", True, activity=now_at))

        fetched = asyncio.Event()

        async def periodic_commits() -> None:
            """Long refreshes (arXiv paced at one request per 3 s) land in steps.
            Never cancelled mid-commit: it stops when told the fetching is over."""
            while not fetched.is_set():
                try:
                    await asyncio.wait_for(fetched.wait(), 0.5)
                except TimeoutError:
                    pass
                if not fetched.is_set() and pending and time.monotonic() - last_commit > PERIODIC_COMMIT_S:
                    if await commit() and on_landed:
                        on_landed()

        async def store_the_rest() -> None:
            fetched.set()
            await committer
            await commit()

        def stopped() -> None:
            report.finished = utcnow()
            self.stopped_refresh = report

        # Stopped (the reader quitting, Ctrl-C) while fetching or storing the
        # last batch: what has come is stored before it ends, and said in
        # `stopped_refresh`.
        committer = asyncio.ensure_future(periodic_commits())
        try:
            outcomes = await fetch_sources(
                plans,
                settings=self.settings,
                fetch_state=self.fetch_state,
                now=now,
                topics=list(self.registry),
                on_source=on_source,
                on_page=on_page,
                on_activity=activity if on_activity else None,
            )
        except asyncio.CancelledError:
            try:
                await _to_its_end(store_the_rest())
            finally:
                stopped()
            raise
        except BaseException:
            fetched.set()
            await committer
            raise
        try:
            await _to_its_end(store_the_rest())
        except asyncio.CancelledError:
            stopped()
            raise
        if new_ids and self.library_loaded:
            # What was stored made a new cache generation: found again now,
            # from the library storing loaded, the next refresh need not load it.
            self.starred_arxiv_not_cached()
        for outcome in outcomes:
            outcome.report.new_papers = sum(1 for p in outcome.papers if p.id in new_ids)
            if outcome.plan.kind != "total":
                report.sources.append(outcome.report)
        recent = self.fetch_state.recent_count(now)
        if note := _count_failed(outcomes, report, recent[1] if recent else None):
            report.notes.append(note)
        report.finished = utcnow()
        if not report.offline:
            # An offline refresh is not one: the status line does not claim it
            # and the next check tries again. Otherwise every topic asked for
            # is done for refresh_age_hours, a topic whose own feed failed too
            # (retried then, not at every check; its failure was reported).
            self.note_refreshed([entry for entry in entries if not entry.error], now)
            self.last_refresh = report.finished
            self.state.set_pref("last_refresh", report.finished.isoformat(timespec="seconds"))
        return report

    async def _commit(self, outcomes: list, now: datetime) -> StoreOutcome | None:
        """Store fetched papers, tag them, then remember validators (in that order,
        so a 304 never hides papers that were not saved)."""
        papers = [p for o in outcomes for p in o.to_store]
        if not papers:
            # All 304s or failures: only what the sources answered is saved, and
            # the library (a second at 40,000 papers, if not loaded) is not needed.
            try:
                await asyncio.to_thread(self._save_answers, outcomes, now)
            except StoreError:
                return None
            return StoreOutcome()
        # Parsing and compiling the topics' queries (100 ms the first time)
        # stays off the event loop, which may be the reader's; done first, so
        # that what is read of the library below is read without a pause.
        matchers = await asyncio.to_thread(build_matchers, list(self.registry))
        library = self.library
        known = {p.id: library.rows[library.pos[p.id]] for p in papers if p.id in library.pos}

        # Tags computed beside the parser hold for papers new to the cache that
        # arrived once in this batch: what was stored is what was tagged.
        seen = Counter(p.id for p in papers)
        ready = {pid: tags for o in outcomes for pid, tags in o.tags.items() if seen[pid] == 1}
        # Likewise their normalised texts, for the match files (checked per Paper object).
        prepared = {p.id: (p, o.texts[p.id]) for o in outcomes for p in o.to_store if p.id in o.texts}

        stale = set(self._stale_topics)
        members = {
            m.name: {library.ids[i] for i in library.topic_positions(m.name)} for m in matchers if m.name not in stale
        }
        found: dict[str, set[str]] = {m.name: set() for m in matchers}

        def save_tags(stored: StoreOutcome) -> None:
            # Called by the cache once the papers are on disk and before their
            # cards are, so that a crash never leaves a card without its tags.
            universe = set(stored.papers)
            new = set(stored.new)
            retag = [p for pid, p in stored.papers.items() if pid not in new or pid not in ready]
            for name, ids in tag_papers(retag, matchers).items():
                found[name] |= ids
            fetched_by = Tagger(matchers)
            for pid in universe - {p.id for p in retag}:
                for name in (*ready[pid], *fetched_by.fetched_for(stored.papers[pid].fetched_for)):
                    if name in found:
                        found[name].add(pid)
            self.tags.update(
                TagUpdate(
                    m.name,
                    m.signature,
                    found.get(m.name, set()),
                    universe,
                    known=None if m.name in stale else (members[m.name] - universe) | found.get(m.name, set()),
                )
                for m in matchers
            )

        def write():
            stored = self.cache.store(papers, known, now, before_index=save_tags, match_rows=MatchRows(prepared))
            give_back_freed_memory()  # the weeks the store read, dropped now
            self._save_answers(outcomes, now)
            return stored, found, set(stored.papers)

        try:
            stored, found, universe = await asyncio.to_thread(write)
        except StoreError as error:
            for outcome in outcomes:
                if outcome.report.ok and outcome.to_store:
                    outcome.report.ok = False
                    outcome.report.error = f"fetched, but could not be saved: {error}"
            return None
        library.upsert_rows(stored.rows)
        library.update_tags(universe, found)
        self._note_own_generation(stored.generation, library)
        return stored

    def _note_own_generation(self, generation: int, library: Library) -> None:
        """This process's store made `generation`, and `library` holds its
        papers. Known from then on only if every generation before it was
        (and `library` is still the one shown): what another process stored
        between must not pass for loaded."""
        if generation and library is self._library and generation - 1 == self.known_generation:
            self.known_generation = generation

    def _save_answers(self, outcomes: list, now: datetime) -> None:
        """Validators, "answered today" and daily totals of the sources that
        answered. Raises StoreError."""
        validators = {}
        answered = {}
        totals = {}
        for outcome in outcomes:
            if outcome.report.ok and not outcome.page:
                validators.update(outcome.validators)
                for key in outcome.plan.answers:
                    if outcome.plan.kind == "total":
                        if outcome.total is not None:
                            totals[key] = (outcome.total, now.date())
                    else:
                        answered[key] = now
        self.fetch_state.save(validators=validators, answered=answered, totals=totals)

    def _recover_lost_papers(self) -> str:
        """A week of cached papers turned out damaged while storing and was set
        aside: forget the validators (so the next refresh fetches them again
        instead of getting 304s) and reload the library without them."""
        self.cache.lost_papers = False
        self.fetch_state.save(forget_validators=True)
        self.load_library()
        return (
            "some cached papers were damaged and set aside (kept as .damaged files in the cache); "
            "the next refresh fetches them again"
        )

    def cache_changed_elsewhere(self) -> bool:
        """Did another process write papers since we loaded or wrote them?"""
        return self.library_loaded and self.cache.generation() > self.known_generation

    # -- pruning ---------------------------------------------------------------

    def prune_candidates(self, limit: int | None = None) -> list[str]:
        """The oldest papers beyond the cache limit, starred ones never among them."""
        limit = self.settings.cache_limit if limit is None else limit
        library = self.library
        excess = len(library) - limit
        if excess <= 0:
            return []
        starred = self.state.starred_view()
        oldest = sorted(range(len(library)), key=library.published_at.__getitem__)
        victims: list[str] = []
        for position in oldest:
            paper_id = library.ids[position]
            if paper_id not in starred:
                victims.append(paper_id)
                if len(victims) == excess:
                    break
        return victims

    def prune(self, limit: int | None = None) -> int:
        """Keep the cache within `cache_limit` papers (reloads the library)."""
        victims = self.prune_candidates(limit)
        if not victims:
            return 0
        library = self.library
        locations = {pid: library.rows[library.pos[pid]][C_SHARD] for pid in victims}
        removed = self.cache.remove(locations)
        universe = set(victims)
        self.tags.update(TagUpdate(e.name, e.signature, set(), universe) for e in self.registry)
        self.load_library()
        give_back_freed_memory()  # the weeks read to remove papers, and the old library
        return removed

    # -- lifecycle ---------------------------------------------------------------

    def save_now(self) -> str:
        """Save what is pending; "" when saved, else why it could not be."""
        try:
            self.state.flush()
        except StoreError as error:
            return str(error)
        return ""

    def unsaved_changes(self) -> tuple[str, int]:
        """What the user changed that is not saved yet, in words ("2 read
        marks and 1 unfollow"; "" when nothing), and how many changes that
        is. What feedtui notes about its cache (when each topic was
        refreshed) is left out: losing it costs only a refresh."""
        from feedtui.export.state_json import machine_pref

        counts = self.state.unsaved(ignore_pref=machine_pref)
        parts = []
        for kinds, one, several in _UNSAVED_WORDS:
            count = sum(counts[kind] for kind in kinds)
            if count:
                parts.append(f"{count:,} {one if count == 1 else several}")
        if len(parts) < 2:
            return "".join(parts), sum(counts.values())
        return f"{', '.join(parts[:-1])} and {parts[-1]}", sum(counts.values())

    def close(self) -> None:
        try:
            self.state.close()
        except StoreError as error:
            self.problems.messages.append(str(error))
            raise


def _count_failed(outcomes: list, report: RefreshReport, earlier: date | None) -> str:
    """What to say of the day's count of new arXiv papers failing: nothing when
    a topic's source failed the same way (offline, say: that failure is told),
    else a note of what the topics' shares stay of until it comes: the count
    of the `earlier` day, or the papers in the cache when there is none."""
    told = {source.error for source in report.failed}
    for outcome in outcomes:
        if outcome.plan.kind == "total" and not outcome.report.ok and outcome.report.error not in told:
            stay = f"stay of its count of {earlier:%b} {earlier.day}" if earlier else "are of the papers in your cache"
            return f"arXiv's count of all new papers could not be fetched ({outcome.report.error}); shares {stay} until it is"
    return ""


def _refreshed_at(record: object, signature: str) -> datetime | None:
    """The time in a `refreshed:` pref, if it is one and for this definition."""
    if not isinstance(record, dict) or record.get("sig") != signature:
        return None
    try:
        when = datetime.fromisoformat(record["at"])
    except (KeyError, TypeError, ValueError):
        return None
    return when if when.tzinfo is not None else None


def check_definition(definition: TopicDefinition) -> TopicDefinition:
    """The definition as it is stored (feed URLs as `feed_url` gives them);
    raises QueryError or TopicRefused, in words, for what cannot be used."""
    if definition.query:
        parse_query(definition.query)  # raises QueryError pointing at the problem
    for category in definition.categories:
        try:
            category_query(category)
        except ValueError as error:  # something that is not a category
            raise TopicRefused(str(error), "categories") from error
    try:
        feeds = tuple(feed_url(url) for url in definition.feeds)
    except ValueError as error:
        raise TopicRefused(str(error), "feeds") from error
    if feeds == definition.feeds:
        return definition
    return TopicDefinition(query=definition.query, categories=definition.categories, feeds=feeds)


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


__all__ = ["Engine", "open_engine", "TopicNotFound", "TopicNameTaken", "QueryError", "RefreshProgress"]
