"""The library and the marks: what the reader and the CLI read and mark.

The library (core/library.py) is the in-memory view of the card index and
the stored tags; the methods here load it, keep its topics tagged, answer
for papers, marks and momentum, and change read marks and stars. Front ends
ask these methods rather than the stores, so that a mark changes the
library's unread counts and the state file together.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from feedtui.core.library import Library
from feedtui.memory import gc_paused
from feedtui.model import Paper, split_arxiv_id
from feedtui.store.bylines import Bylines
from feedtui.store.codec import CardRow
from feedtui.store.tags import TagUpdate
from feedtui.topics.momentum import WINDOW, Momentum, compute_momentum, counted_since
from feedtui.topics.tagging import forget_topics, register_topics, tag_shard_files, topic_specs

if TYPE_CHECKING:
    from feedtui.search import SearchIndex

# Ask indexes of topics this large are built by worker processes from the
# cache files, on every core; smaller ones in the caller's thread, for which
# forking the workers would cost more than it saves.
INDEX_POOL_MIN_PAPERS = 1_000


class Reading:
    """The Engine's library and mark methods (see core/engine.py for the state they use)."""

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
        load = self.cache.load_index(lean=True)
        self.problems.messages.extend(load.problems)
        if self.cache.lost_papers:
            self.fetch_state.save(forget_validators=True)
        with gc_paused():
            library = Library(load.rows, self.state.read_view, Bylines(self._index_file).get)
        del load  # its dict of every row goes before the tags are read: a lower peak
        # Tags after cards: a store writes a paper's tags before its card.
        stored = self.tags.load()
        if self.tags.problem:
            self.problems.messages.append(self.tags.problem)
        self.known_generation = generation
        stale: list[str] = []
        self._member_signatures = {}
        with gc_paused():
            for entry in self.registry.tagged():
                signature, ids = stored.pop(entry.name, ("", []))
                if signature == entry.signature:
                    library.set_members(entry.name, ids)
                    self._member_signatures[entry.name] = signature
                else:
                    library.set_members(entry.name, ())
                    stale.append(entry.name)
        self._library = library
        self._stale_topics = stale if library.ids else []
        return library

    def _index_file(self, shard: str) -> Path:
        return self.cache.index_dir / f"{shard}.json"

    @property
    def stale_topics(self) -> list[str]:
        return list(self._stale_topics)

    def compute_tags(self, names: Sequence[str]) -> dict[str, set[str]]:
        """Evaluate these topics over the whole cache (reads every shard; on
        several cores when the cache is large)."""
        entries = [e for e in map(self.registry.tagged_entry, names) if e is not None]
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
        updates = [TagUpdate(name, self.registry.tagged_entry(name).signature, ids, None) for name, ids in found.items()]  # type: ignore[union-attr]
        self.tags.update(updates)
        return found

    def apply_tags(self, found: dict[str, set[str]]) -> None:
        library = self.library
        for name, ids in found.items():
            library.set_members(name, ids)
            if (entry := self.registry.tagged_entry(name)) is not None:
                self._member_signatures[name] = entry.signature
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

    def is_read(self, paper_id: str) -> bool:
        return self.state.is_read(paper_id)

    def is_starred(self, paper_id: str) -> bool:
        return self.state.is_starred(paper_id)

    def starred_ids(self) -> set[str]:
        return self.state.starred_ids()

    def read_view(self) -> Mapping[str, object]:
        """The read marks by paper id, as they are now (not a copy: read only)."""
        return self.state.read_view()

    def starred_view(self) -> Mapping[str, object]:
        """The stars by paper id, as they are now (not a copy: read only)."""
        return self.state.starred_view()

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
        return self.cache.get_papers({paper_id: row.shard}).get(paper_id)

    def papers_by_id(self, paper_ids: Iterable[str]) -> dict[str, Paper]:
        """The full papers of these ids that the library holds (read from their
        week files: meant for a worker thread in the reader)."""
        library = self.library
        locations = {pid: library.rows[library.pos[pid]].shard for pid in paper_ids if pid in library.pos}
        return self.cache.get_papers(locations) if locations else {}

    def abstract_head(self, shard: str, paper_id: str) -> str:
        """The start of a paper's abstract, as its card shows it (read from the
        week's heads file, kept once read)."""
        return self.cache.head(shard, paper_id)

    def card(self, paper_id: str) -> CardRow | None:
        """The paper's card row (what the list shows of it), None when not cached;
        a row loaded at start has no bylines (`library.bylines_of` reads them)."""
        return self.library.row_of(paper_id)

    def search_index(self, positions: Sequence[int], *, pool_from: int = INDEX_POOL_MIN_PAPERS) -> SearchIndex:
        """Ask's index of the papers at these library positions. From
        `pool_from` papers on, worker processes read the papers' week files
        and index them in parts, merged here: indexing and reading the files
        cost per paper, and here would be done on one core, the one answering
        the keys, while only a few arrays a word come back from the workers
        (bench/bench_ask.py --cache measures it). Forking is
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
            by_shard.setdefault(library.rows[i].shard, []).append(library.ids[i])
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
        locations = {library.ids[i]: library.rows[i].shard for i in positions}
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
                library.published(entry.name, since), moment, total_new=total, share_of=share_of,
                hidden=library.hidden_published(entry.name, since),
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

    def cache_changed_elsewhere(self) -> bool:
        """Did another process write papers since we loaded or wrote them?"""
        return self.library_loaded and self.cache.generation() > self.known_generation
