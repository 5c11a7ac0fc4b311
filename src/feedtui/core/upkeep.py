"""Keeping the data directory in shape: prune, save, close.

The cache only grows as refreshes store papers; `after_refresh` is the one
place that decides what follows a refresh (every topic's tags complete on
disk, the cache pruned to `cache_limit`, the memory freed given back), for
the reader and the CLI alike.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from datetime import datetime

from feedtui.core.state_tables import FOLLOWS, HIDDEN_TOPICS, PREFS, READ, STARRED, TOPICS, machine_pref
from feedtui.memory import give_back_freed_memory
from feedtui.model import Paper
from feedtui.store.files import StoreError
from feedtui.store.tags import TagUpdate

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


class Upkeep:
    """The Engine's upkeep methods (see core/engine.py for the state they use)."""

    def after_refresh(self, *, retag: bool = True) -> int:
        """What follows every refresh: the topics' tags made complete on disk
        (unless `retag` is False: the reader retags in the background), then
        the cache pruned to `cache_limit`; returns how many papers were
        pruned. Nothing is done when the library was never loaded and no
        refresh stored papers without it (see core/cache_outline.py), or
        when the outline it stored by has no stale topic and no paper past
        the limit: a refresh of 304s, or of a cache within its limit, does
        not load the library for this."""
        outline, self._stored_outline = self._stored_outline, None
        shown = self.library_loaded
        if not shown and (outline is None or not (outline.stale or len(outline.weeks) > self.settings.cache_limit)):
            return 0
        if retag:
            self.ensure_tagged()
        # A library loaded only for this is not held twice while it is read again.
        return self.prune(reload=shown)

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

    def prune(self, limit: int | None = None, *, reload: bool = True) -> int:
        """Keep the cache within `cache_limit` papers (reloads the library;
        without `reload`, lets it go, to be read again when next asked)."""
        victims = self.prune_candidates(limit)
        if not victims:
            return 0
        library = self.library
        locations = {pid: library.rows[library.pos[pid]].shard for pid in victims}
        removed = self.cache.remove(locations)
        universe = set(victims)
        self.tags.update(TagUpdate(e.name, e.signature, set(), universe) for e in self.registry.tagged())
        del library
        if reload:
            self.load_library()
        else:
            self._library = None
        give_back_freed_memory()  # the weeks read to remove papers, and the old library
        return removed

    # -- the demo ---------------------------------------------------------------

    def has_cached_papers(self) -> bool:
        """Is there a week of papers in the cache (read from the disk, not the library)?"""
        return bool(self.cache.shards())

    def replace_cache(self, papers: Iterable[Paper], now: datetime) -> None:
        """Empty the cache, store these papers and tag every topic (the demo's
        bundled papers, moved to this week)."""
        cache = self.cache
        for folder in (cache.papers_dir, cache.index_dir, cache.match_dir):
            shutil.rmtree(folder, ignore_errors=True)
        (cache.directory / "tags.json").unlink(missing_ok=True)
        cache.papers_dir.mkdir(parents=True, exist_ok=True)
        cache.index_dir.mkdir(parents=True, exist_ok=True)
        cache.store(list(papers), known={}, now=now)
        self.load_library()
        self.retag([e.name for e in self.registry.tagged()])

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

