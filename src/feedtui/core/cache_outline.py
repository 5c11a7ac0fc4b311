"""What a refresh that has not loaded the library knows of the cache it adds to.

A command-line refresh shows no paper: loading the library (every card row
and every topic's membership) only to store into the cache would hold the
whole cache's rows for the whole refresh, the largest part of its memory in a
large cache. A store needs less: the week of each paper already cached (to
merge a paper fetched again with its stored document), and which topics'
stored tags are of another definition (a store leaves those to the full
retag that follows a definition change). The tags a store adds are amended
on disk per topic (see store/tags.py), so no topic's membership is held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from feedtui.store.cache import PaperCache
    from feedtui.store.codec import CardRow
    from feedtui.store.tags import TagStore
    from feedtui.topics.registry import TopicEntry


class CacheOutline:
    """Each cached paper's week and the topics whose stored tags are stale,
    read once (`read`) and kept current with what this process stores."""

    def __init__(self) -> None:
        self.loaded = False
        self.weeks: dict[str, str] = {}
        self.stale: frozenset[str] = frozenset()

    def read(self, cache: PaperCache, tags: TagStore, topics: Sequence[TopicEntry]) -> list[str]:
        """Read the card index a week at a time, keeping only each paper's
        week, and the tags' signatures; returns the problems found (damaged
        files set aside or rebuilt, as loading the library reports them)."""
        self.weeks, problems = cache.paper_weeks()
        stale: set[str] = set()
        if self.weeks:  # an empty cache has no stale tags (as the library says)
            stored = tags.load()
            if tags.problem:
                problems.append(tags.problem)
            stale = {entry.name for entry in topics if stored.get(entry.name, ("", ()))[0] != entry.signature}
        self.stale = frozenset(stale)
        self.loaded = True
        return problems

    def stored(self, rows: Mapping[str, CardRow]) -> None:
        """Papers just stored (new, changed or moved), with their card rows."""
        weeks = self.weeks
        shared = {week: week for week in set(weeks.values())} if rows else {}
        for pid, row in rows.items():
            if pid not in weeks:
                pid = _own_copy(pid)
            weeks[pid] = shared.setdefault(row.shard, row.shard)


def _own_copy(text: str) -> str:
    """A string of its own, made now: an id kept for the whole refresh would
    otherwise be the one read with its paper, and each such small string
    keeps the allocator's block of the part it came with from being given
    back (a part's papers are freed; a week of ids would hold on to most of
    their memory)."""
    return text.encode().decode()
