"""The paper cache: weekly TinyDB shards of full papers, and their card index.

    cache/papers/2026-09-28.json   full documents of papers first submitted that week
    cache/index/2026-09-28.json    the same papers' card rows (what the list shows)
    cache/heads/2026-09-28.json    the heads of their abstracts, read for cards on screen
    cache/match/2026-09-28.json    the same papers as topic queries read them, for
                                   retagging (derived, self-checking: see store.match)
    cache/meta.json                schema version, a generation counter, and the
                                   signature of every shard file as feedtui wrote it

Start-up reads only the index files. A refresh rewrites only the weeks it
touched. A paper whose first-version date moves (an earlier version turns up)
moves to its new week. Every write happens under the data-directory lock after
re-reading any index file another process replaced, so concurrent refreshes
merge instead of overwriting each other.

Crash safety comes from the order of the atomic file replacements in `store`:
new paper documents first, then the caller's tags, then the card index, and
only then the removal of moved papers from their old weeks — so at every
moment each card points at a paper that is on disk, and a paper with a card
has its tags. A kill between two steps leaves at worst a paper without a
card, which the next refresh stores again.

Damage: a shard file whose size and mtime are not the ones recorded when
feedtui wrote it was changed by something else, and is checked in full at
start-up before it is used (the inode is left out, so a copy that keeps times,
as `cp -a`, `rsync -a` or a backup restore do, is still trusted); a damaged
index or heads file is kept aside and rebuilt from the papers, a damaged
papers file is kept aside and its week is fetched again. Files feedtui wrote
itself are trusted, so start-up does not pay for checking every row.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from feedtui.memory import gc_paused
from feedtui.model import Paper, utcnow
from feedtui.store.codec import CardRow, card_row, head_of, paper_from_doc, paper_to_doc, shard_for
from feedtui.store.files import (
    DamagedFileError,
    StoreError,
    directory_syncs_batched,
    file_signature,
    fsync_directory,
    keep_aside,
    remove_quietly,
    remove_stale_temporaries,
)
from feedtui.store.heads import WeekHeads
from feedtui.store.lock import DataDirLock
from feedtui.store.match import (
    MatchRowMaker,
    drop_match_aside,
    papers_stamp,
    put_match_back,
    read_match_rows,
    remove_match_leftovers,
    remove_match_rows,
    set_match_aside,
    write_match_rows,
)
from feedtui.store.shapes import heads_shape, index_shape, papers_shape
from feedtui.store.tinydb_io import Database, open_database, parse_database

SCHEMA_VERSION = 1
PAPERS = "papers"
CARDS = "cards"
# Positions in a card row as read from disk (a list), set before it becomes a CardRow.
_PRIMARY = CardRow._fields.index("primary")
_SHARD = CardRow._fields.index("shard")
_PUBLISHED = CardRow._fields.index("published")
_UPDATED = CardRow._fields.index("updated")
_FETCHED_FOR = CardRow._fields.index("fetched_for")
_FIRST_SEEN = CardRow._fields.index("first_seen")
# The `fetched_for` of every row loaded without one: a list like the others, shared.
_NO_FETCHES: list[str] = []
# A list read from disk as a CardRow, without the keyword handling of CardRow._make.
_as_card = tuple.__new__
HEADS = "heads"
FILES = "files"
# Weeks of abstract heads kept at once: each file mapped (its pages dropped
# after each lookup), with the heads decoded from it.
HEAD_WEEKS_KEPT = 12


@dataclass(slots=True)
class StoreOutcome:
    new: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    # Every card row written, by paper id (new, updated, or moved).
    rows: dict[str, CardRow] = field(default_factory=dict)
    # The merged papers behind those rows, for tagging.
    papers: dict[str, Paper] = field(default_factory=dict)
    # The cache generation this store made (0: it wrote nothing); the one
    # before it is one less, whichever process made that.
    generation: int = 0


@dataclass(slots=True)
class IndexLoad:
    rows: dict[str, CardRow]
    problems: list[str] = field(default_factory=list)


def _share_rows(cards: dict[str, list], rows: dict[str, CardRow], shared: dict[str, str], stamps: dict[int, int], lean: bool) -> None:
    """Add a week's rows read from disk to `rows` as CardRows, sharing what
    papers have in common: one string object per category and week, not one
    per paper; one int per store time; no list of its own for the many papers
    fetched for no topic's query (rows are never changed in place); `updated`
    the same int as `published` when equal; `lean`: "" for the bylines.
    (Names bound locally: this runs for every cached paper at start.)"""
    text, stamp, card = shared.setdefault, stamps.setdefault, _as_card
    primary, shard, published, updated, fetched_for, first_seen = _PRIMARY, _SHARD, _PUBLISHED, _UPDATED, _FETCHED_FOR, _FIRST_SEEN
    no_fetches, authors, affiliations = _NO_FETCHES, CardRow._fields.index("authors"), CardRow._fields.index("affiliations")
    for pid, row in cards.items():
        if lean:
            row[authors] = row[affiliations] = ""
        value = row[primary]
        row[primary] = text(value, value)
        value = row[shard]
        row[shard] = text(value, value)
        value = row[first_seen]
        row[first_seen] = stamp(value, value)
        if not row[fetched_for]:
            row[fetched_for] = no_fetches
        if row[updated] == row[published]:
            row[updated] = row[published]
        rows[pid] = card(CardRow, row)


def read_documents(path: Path) -> Mapping[str, dict]:
    """The paper documents of one shard file ({} if it is missing or damaged)."""
    return _documents(path)


def _documents(path: Path) -> Mapping[str, dict]:
    try:
        with gc_paused():
            data = parse_database(path, path.read_bytes())
    except (FileNotFoundError, DamagedFileError):
        return {}
    return data.get(PAPERS, {})


class PaperCache:
    """`match_rows` makes the rows of the match files; without it, a week's
    match file is removed whenever its papers are rewritten."""

    def __init__(self, directory: Path, lock: DataDirLock, match_rows: MatchRowMaker | None = None) -> None:
        self.directory = directory
        self.papers_dir = directory / "papers"
        self.index_dir = directory / "index"
        self.heads_dir = directory / "heads"
        self.match_dir = directory / "match"
        self.match_rows = match_rows
        self._lock = lock
        self._signatures: dict[str, tuple[int, int, int] | None] = {}
        for folder in (self.papers_dir, self.index_dir, self.heads_dir):
            folder.mkdir(parents=True, exist_ok=True)
            remove_stale_temporaries(folder)
        # Made by the first match file written: a read-only data directory
        # from before match files existed still opens.
        remove_stale_temporaries(self.match_dir)
        remove_match_leftovers(self.match_dir)
        remove_stale_temporaries(directory)
        self.meta_path = directory / "meta.json"
        self._heads: OrderedDict[str, WeekHeads] = OrderedDict()
        self._heads_lock = threading.Lock()
        # Set when damaged papers were set aside: validators must be forgotten so
        # the next refresh fetches them again instead of getting 304s.
        self.lost_papers = False

    # -- reading -----------------------------------------------------------

    def shards(self) -> list[str]:
        return sorted(p.stem for p in self.papers_dir.glob("*.json"))

    def load_index(self, *, lean: bool = False) -> IndexLoad:
        """Every card row, by paper id. Shard files changed by anything but
        feedtui are checked first; a damaged index or heads file is rebuilt
        from its papers, a damaged papers file is set aside and reported;
        `lean` rows have no authors nor affiliations (see store.bylines)."""
        rows: dict[str, CardRow] = {}
        shared: dict[str, str] = {}
        stamps: dict[int, int] = {}
        problems = self._each_index_week(lambda shard, cards: _share_rows(cards, rows, shared, stamps, lean))
        return IndexLoad(rows, problems)

    def paper_weeks(self) -> tuple[dict[str, str], list[str]]:
        """Every cached paper's week by id (all a store needs), and what `load_index` reports."""
        weeks: dict[str, str] = {}
        return weeks, self._each_index_week(lambda shard, cards: weeks.update(dict.fromkeys(cards, shard)))

    def _each_index_week(self, take: Callable[[str, dict[str, list]], None]) -> list[str]:
        """Each week's card rows, a week at a time, into `take`, checked as `load_index` says; the problems."""
        problems: list[str] = []
        trusted = self._trusted_signatures()
        verified: dict[str, list[int] | None] = {}
        # Read again because another process stored papers: the abstract heads
        # kept of the weeks it wrote lack its papers, so none is kept.
        with self._heads_lock:
            self._heads.clear()
        with gc_paused():  # 40,000 small lists: the cyclic GC would triple the load time.
            for shard in self.shards():
                problem = self._check_week(shard, trusted, verified)
                if problem:
                    problems.append(problem)
                    if not self._papers_path(shard).exists():
                        continue
                index_trusted = self._trusted(self._index_path(shard), trusted) or not self._index_path(shard).exists()
                try:
                    cards = self._read_index_shard(shard, check=not index_trusted)
                except DamagedFileError as damage:
                    problems.append(self._repair(shard, damage))
                    cards = self._read_index_shard(shard)
                else:
                    if not index_trusted:
                        verified[self._relative(self._index_path(shard))] = self._stamp(self._index_path(shard))
                take(shard, cards)
        if verified:
            try:
                self._write_meta(verified, bump=False, wait=False)
            except StoreError:
                pass  # checked again at the next start
        return problems

    def _check_week(self, shard: str, trusted: Mapping[str, list], verified: dict[str, list[int] | None]) -> str:
        """Check a week's papers and heads files if feedtui did not write them as
        they are; returns what was done about damage, or ""."""
        papers_path = self._papers_path(shard)
        if not self._trusted(papers_path, trusted):
            try:
                parse_database(papers_path, papers_path.read_bytes(), papers_shape)
            except DamagedFileError as damage:
                return self._drop_week(shard, damage)
            except FileNotFoundError:
                return ""
            verified[self._relative(papers_path)] = self._stamp(papers_path)
        heads_path = self._heads_path(shard)
        if heads_path.exists() and not self._trusted(heads_path, trusted):
            try:
                parse_database(heads_path, heads_path.read_bytes(), heads_shape)
            except DamagedFileError as damage:
                return self._repair(shard, damage)
            except FileNotFoundError:
                return ""
            verified[self._relative(heads_path)] = self._stamp(heads_path)
        return ""

    def head(self, shard: str, paper_id: str) -> str:
        """A paper's abstract head, from a small per-week file kept in an LRU of weeks."""
        with self._heads_lock:
            heads = self._heads.get(shard)
            if heads is not None:
                self._heads.move_to_end(shard)
        if heads is None:
            heads = self.read_heads(shard)
            with self._heads_lock:
                self._heads[shard] = heads
                while len(self._heads) > HEAD_WEEKS_KEPT:
                    self._heads.popitem(last=False)
        return heads.get(paper_id, "")

    def _forget_heads(self, shards: Iterable[str]) -> None:
        with self._heads_lock:
            for shard in shards:
                self._heads.pop(shard, None)

    def read_heads(self, shard: str) -> WeekHeads:
        """The abstract heads of one week's papers (none if the file is missing)."""
        try:
            return WeekHeads.of_file(self._heads_path(shard))
        except FileNotFoundError:
            return WeekHeads(b"")

    def generation(self) -> int:
        try:
            data = parse_database(self.meta_path, self.meta_path.read_bytes())
        except (OSError, DamagedFileError):
            return 0
        return int(data.get("meta", {}).get("cache", {}).get("generation", 0))

    def changed_index_shards(self) -> list[str]:
        """Index files replaced by another process since we last read or wrote them."""
        return [s for s in self.shards() if file_signature(self._index_path(s)) != self._signatures.get(s)]

    def read_index_shards(self, shards: Iterable[str]) -> dict[str, dict[str, list]]:
        out: dict[str, dict[str, list]] = {}
        for shard in shards:
            try:
                out[shard] = self._read_index_shard(shard)
            except DamagedFileError:
                out[shard] = {}
        return out

    def get_papers(self, locations: Mapping[str, str]) -> dict[str, Paper]:
        """Full papers for {paper id: shard}, reading each shard once."""
        by_shard: dict[str, list[str]] = {}
        for paper_id, shard in locations.items():
            by_shard.setdefault(shard, []).append(paper_id)
        found: dict[str, Paper] = {}
        # One pause for every shard: between two, the first collection would
        # walk all of the shard just read, though reference counting frees it
        # anyway.
        with gc_paused():
            for shard, ids in by_shard.items():
                docs = self.read_shard_documents(shard)
                for paper_id in ids:
                    doc = docs.get(paper_id)
                    if doc is not None:
                        found[paper_id] = paper_from_doc(paper_id, doc)
        return found

    def read_shard_documents(self, shard: str) -> Mapping[str, dict]:
        return read_documents(self._papers_path(shard))

    def papers_file(self, shard: str) -> Path:
        """The file of a week's paper documents (see `read_documents`)."""
        return self._papers_path(shard)

    def shard_paths(self) -> list[Path]:
        """Every papers shard, largest first (to share them out evenly)."""
        paths = [self._papers_path(s) for s in self.shards()]
        return sorted(paths, key=lambda p: p.stat().st_size if p.exists() else 0, reverse=True)

    def iter_documents(self) -> Iterator[tuple[str, Mapping[str, dict]]]:
        """(shard, {paper id: document}) for every shard, one shard in memory at a time."""
        for shard in self.shards():
            yield shard, self.read_shard_documents(shard)

    # -- writing -----------------------------------------------------------

    def store(
        self,
        papers: Iterable[Paper],
        known: Mapping[str, CardRow],
        now: datetime | None = None,
        *,
        before_index: Callable[[StoreOutcome], None] | None = None,
        match_rows: MatchRowMaker | None = None,
        weeks: Mapping[str, str] | None = None,
    ) -> StoreOutcome:
        """Merge papers into the cache. `known` maps paper id → card row for what
        the caller already holds (or `weeks`, paper id → week, from
        `paper_weeks`); rows that changed on disk meanwhile are re-read.
        `match_rows` replaces the cache's own maker for this call (the refresh's
        reuses texts normalised by its parse workers).

        `before_index(outcome)` is called with what is being stored (new and
        changed papers, their rows) once their documents are on disk and before
        their cards are: the caller saves what it derives from them (tags)
        there, so that a crash never leaves a paper with a card but without its
        tags. Errors it raises stop the store before any card is written."""
        stamp = (now or utcnow()).isoformat(timespec="seconds")
        incoming: dict[str, Paper] = {}
        for paper in papers:
            previous = incoming.get(paper.id)
            incoming[paper.id] = previous.merged_with(paper) if previous else paper
        outcome = StoreOutcome()
        if not incoming:
            return outcome
        # Thousands of documents built and dropped: no cyclic collections meanwhile.
        with self._lock, gc_paused():
            locations = {pid: row.shard for pid, row in known.items() if pid in incoming}
            if weeks is not None:
                locations.update((pid, weeks[pid]) for pid in incoming if pid in weeks)
            for shard, rows in self.read_index_shards(self.changed_index_shards()).items():
                for pid in incoming.keys() & rows.keys():
                    locations[pid] = shard
            week = _OpenWeeks(self)
            # The papers to write (with first_seen) by week: their documents, heads
            # and match rows are made as their week is written (`_write_weeks`).
            puts: dict[str, dict[str, tuple[Paper, str]]] = {}
            card_puts: dict[str, dict[str, CardRow]] = {}
            maker = match_rows or self.match_rows
            moved_out: dict[str, list[str]] = {}
            by_week: dict[str | None, list[str]] = {}
            for pid in incoming:
                by_week.setdefault(locations.get(pid), []).append(pid)
            # The papers already cached are read a week at a time: a store of a
            # few papers spread over every week never holds the whole cache.
            for old_shard, ids in by_week.items():
                documents = _documents(self._papers_path(old_shard)) if old_shard else {}
                for pid in ids:
                    paper = incoming[pid]
                    doc = documents.get(pid)
                    if doc is not None:
                        existing = paper_from_doc(pid, doc)
                        merged = existing.merged_with(paper)
                        if merged == existing:
                            continue
                        first_seen = doc.get("first_seen", stamp)
                        outcome.updated.append(pid)
                    else:
                        merged, first_seen = paper, stamp
                        outcome.new.append(pid)
                    shard = shard_for(merged.published)
                    if old_shard and old_shard != shard and doc is not None:
                        moved_out.setdefault(old_shard, []).append(pid)
                    puts.setdefault(shard, {})[pid] = (merged, first_seen)
                    row = card_row(merged, first_seen, shard)
                    card_puts.setdefault(shard, {})[pid] = row
                    outcome.rows[pid] = row
                    outcome.papers[pid] = merged
                del documents
            if not outcome.papers:
                return outcome
            self._write_weeks(week, puts, card_puts, moved_out, outcome, before_index, maker)
            outcome.generation = self._write_meta(week.written, bump=True)
        return outcome

    def _write_weeks(
        self,
        week: _OpenWeeks,
        puts: dict[str, dict[str, tuple[Paper, str]]],
        card_puts: Mapping[str, Mapping[str, CardRow]],
        moved_out: Mapping[str, list[str]],
        outcome: StoreOutcome,
        before_index: Callable[[StoreOutcome], None] | None,
        maker: MatchRowMaker | None,
    ) -> None:
        """`store`'s writes, in the order that keeps every card pointing at a
        paper on disk that has its tags (see the module's docstring). Each
        step goes a week at a time, and a week's files are let go once
        written: one week of the cache is in memory at a time, and the
        documents, heads and match rows of the papers written (`puts`: each
        paper with its first_seen, by week) are made for one week at a time."""
        new_weeks = [shard for shard in puts if not self._papers_path(shard).exists()]
        try:
            # 1. The documents and abstract heads, in their (new) weeks (the
            # folders synced once, when all are written).
            with directory_syncs_batched():
                for shard, papers in puts.items():
                    docs = {pid: paper_to_doc(paper, first_seen) for pid, (paper, first_seen) in papers.items()}
                    heads = {pid: head_of(paper) for pid, (paper, _) in papers.items()}
                    matches = {pid: maker.of_paper(paper) for pid, (paper, _) in papers.items()} if maker else {}

                    def put(shard: str = shard, docs: Mapping[str, dict] = docs, heads: Mapping[str, str] = heads) -> None:
                        week.papers(shard).table(PAPERS).put_many(docs)
                        week.heads(shard).table(HEADS).put_many(heads)
                    self._rewrite_week(week, shard, put, matches, (), maker)
                    del docs, heads, matches, put
            self._forget_heads(puts)
            puts.clear()
            # 2. What the caller derives from them.
            if before_index is not None:
                before_index(outcome)
            # 3. The cards.
            index_shards = {*moved_out, *card_puts}
            with directory_syncs_batched():
                for shard in index_shards:
                    cards = week.index(shard).table(CARDS)
                    cards.delete_many(moved_out.get(shard, ()))
                    cards.put_many(card_puts.get(shard, {}))
                    week.flush([self._index_path(shard)])
                    week.let_go([self._index_path(shard)])
        except BaseException:
            self._drop_cardless_weeks(week, new_weeks)
            raise
        for shard in index_shards:
            self._signatures[shard] = file_signature(self._index_path(shard))
        # 4. Moved papers leave their old weeks last.
        for shard, ids in moved_out.items():
            def drop(shard: str = shard, ids: list[str] = ids) -> None:
                week.papers(shard).table(PAPERS).delete_many(ids)
                week.heads(shard).table(HEADS).delete_many(ids)
            self._rewrite_week(week, shard, drop, {}, ids, maker)
        self._forget_heads(moved_out)

    def _rewrite_week(
        self,
        week: _OpenWeeks,
        shard: str,
        change: Callable[[], None],
        match_put: Mapping[str, list],
        match_dropped: Iterable[str],
        maker: MatchRowMaker | None,
    ) -> None:
        """Rewrite one week's papers and heads files by `change`, with its
        match file set aside meanwhile and written again after (see
        store.match), then let the week go."""
        week.papers(shard)  # a damaged papers file is set aside now, before its match rows are read
        match_before, taken = self._take_match([shard], maker)
        files = [self._papers_path(shard), self._heads_path(shard)]
        try:
            change()
            week.flush(files)
        except BaseException:
            self._put_back_match(taken)
            raise
        if match_before[shard] is not None:
            week.let_go(files)  # the match rows are made without the documents
        self._update_match(week, match_before, {shard: match_put}, {shard: list(match_dropped)}, maker)
        week.let_go(files)

    def _drop_cardless_weeks(self, week: _OpenWeeks, shards: Iterable[str]) -> None:
        """After a store that failed (a full disk, most often): the weeks it
        created whose cards it did not write hold only papers no card shows.
        Kept, they would take the room a retry or the user's read marks need,
        and a retry writes them again anyway."""
        for shard in shards:
            if self._relative(self._index_path(shard)) in week.written:
                continue  # its cards point at these papers
            for path in (self._papers_path(shard), self._heads_path(shard)):
                remove_quietly(path)
        for directory in (self.papers_dir, self.heads_dir):
            fsync_directory(directory)

    def remove(self, locations: Mapping[str, str]) -> int:
        """Drop papers ({paper id: week}) from the cache; returns how many were there."""
        by_shard: dict[str, list[str]] = {}
        for paper_id, shard in locations.items():
            by_shard.setdefault(shard, []).append(paper_id)
        removed = 0
        with self._lock:
            week = _OpenWeeks(self)
            for shard, ids in by_shard.items():
                papers = week.papers(shard)
                present = [pid for pid in ids if papers.table(PAPERS).get(doc_id=pid) is not None]
                if not present:
                    continue
                # The index first: a card never points at a paper that is gone.
                week.index(shard).table(CARDS).delete_many(present)
                week.flush([self._index_path(shard)])
                self._signatures[shard] = file_signature(self._index_path(shard))
                week.heads(shard).table(HEADS).delete_many(present)
                papers.table(PAPERS).delete_many(present)
                match_before, taken = self._take_match([shard], self.match_rows)
                try:
                    week.flush([self._heads_path(shard), self._papers_path(shard)])
                except BaseException:
                    self._put_back_match(taken)
                    raise
                self._update_match(week, match_before, {}, {shard: present}, self.match_rows)
                removed += len(present)
            self._forget_heads(by_shard)
            if removed:
                self._write_meta(week.written, bump=True)
        return removed

    def _take_match(
        self, shards: Iterable[str], maker: MatchRowMaker | None
    ) -> tuple[dict[str, dict[str, list] | None], dict[str, tuple[int, int, int] | None]]:
        """The match rows of these weeks, whose papers files are about to be
        rewritten ({} for a week with no papers file yet, None where there are
        no current rows), with their match files set aside: a kill before
        `_update_match` must not leave an old match file beside new papers.
        Also, for `_put_back_match`: the weeks whose match file was moved, with
        the signature (inode included) of their papers file then."""
        before: dict[str, dict[str, list] | None] = {}
        taken: dict[str, tuple[int, int, int] | None] = {}
        for shard in shards:
            papers_path = self._papers_path(shard)
            stamp = papers_stamp(papers_path)
            if maker is None:
                before[shard] = None
            elif stamp is None:
                before[shard] = {}
            else:
                before[shard] = read_match_rows(papers_path, maker.version, stamp, width=maker.width)
            if set_match_aside(papers_path):
                taken[shard] = file_signature(papers_path)
        if taken:
            # The moves reach the disk before the papers files do, even across a power loss.
            fsync_directory(self.match_dir)
        return before, taken

    def _put_back_match(self, taken: Mapping[str, tuple[int, int, int] | None]) -> None:
        """After a failed store: the match files it moved aside go back where
        their papers file is still the very file it was (a rewrite is always a
        new inode); the others are dropped."""
        for shard, signature in taken.items():
            papers_path = self._papers_path(shard)
            if signature is not None and file_signature(papers_path) == signature:
                put_match_back(papers_path)
            else:
                drop_match_aside(papers_path)

    def _update_match(
        self,
        week: _OpenWeeks,
        match_before: Mapping[str, dict[str, list] | None],
        puts: Mapping[str, Mapping[str, list]],
        dropped: Mapping[str, list[str]],
        maker: MatchRowMaker | None,
    ) -> None:
        """Write the match files of these weeks (their papers files just
        rewritten; `match_before` from `_take_match`): the rows from before with
        `puts` added and `dropped` removed, or, where there were none, rows
        rebuilt from the week's documents. Any failure only leaves a week
        without a match file (it is a cache)."""
        for shard, rows in match_before.items():
            papers_path = self._papers_path(shard)
            put = puts.get(shard, {})
            try:
                stamp = papers_stamp(papers_path)
                if maker is None or stamp is None:
                    continue
                if rows is None:
                    documents = week.papers(shard).table(PAPERS).raw()
                    rows = {pid: maker.of_document(pid, doc) for pid, doc in documents.items() if pid not in put}
                else:
                    for pid in dropped.get(shard, ()):
                        rows.pop(pid, None)
                rows.update(put)
                write_match_rows(papers_path, rows, stamp, maker.version)
            except Exception:  # a match file is only a cache: the store has succeeded
                remove_match_rows(papers_path)
            finally:
                drop_match_aside(papers_path)

    def _write_meta(self, files: Mapping[str, list[int] | None], *, bump: bool, wait: bool = True) -> int:
        """Record the signatures of shard files just written or checked (None
        forgets one) and, with `bump`, count a new generation (returned; 0
        without `bump`). Without `wait`, gives up at once if another process
        holds the lock. Raises StoreError."""
        self._lock.acquire(timeout=None if wait else 0)
        try:
            try:
                db = open_database(self.meta_path)
            except DamagedFileError:
                self.meta_path.unlink(missing_ok=True)
                db = open_database(self.meta_path)
            generation = 0
            if bump:
                current = db.table("meta").get(doc_id="cache") or {}
                generation = int(current.get("generation", 0)) + 1
                db.table("meta").put_many(
                    {
                        "cache": {
                            "schema": SCHEMA_VERSION,
                            "generation": generation,
                            "updated": utcnow().isoformat(timespec="seconds"),
                        }
                    }
                )
            table = db.table(FILES)
            table.delete_many(name for name, stamp in files.items() if stamp is None)
            table.put_many({name: {"sig": stamp} for name, stamp in files.items() if stamp is not None})
            db.flush()
        finally:
            self._lock.release()
        return generation

    # -- internals ---------------------------------------------------------

    def _papers_path(self, shard: str) -> Path:
        return self.papers_dir / f"{shard}.json"

    def _index_path(self, shard: str) -> Path:
        return self.index_dir / f"{shard}.json"

    def _heads_path(self, shard: str) -> Path:
        return self.heads_dir / f"{shard}.json"

    def _relative(self, path: Path) -> str:
        return f"{path.parent.name}/{path.name}"

    @staticmethod
    def _stamp(path: Path) -> list[int] | None:
        signature = file_signature(path)
        return list(signature) if signature else None

    def _trusted_signatures(self) -> dict[str, list]:
        try:
            data = parse_database(self.meta_path, self.meta_path.read_bytes())
        except (OSError, DamagedFileError):
            return {}
        return {name: doc.get("sig") for name, doc in data.get(FILES, {}).items() if isinstance(doc, dict)}

    def _trusted(self, path: Path, trusted: Mapping[str, list]) -> bool:
        stamp = self._stamp(path)
        recorded = trusted.get(self._relative(path))
        return stamp is not None and isinstance(recorded, list) and recorded[1:] == stamp[1:]

    def _open(self, path: Path) -> Database:
        try:
            return open_database(path)
        except DamagedFileError as damage:
            if path.parent == self.papers_dir:
                self._drop_week(path.stem, damage)
            else:
                self._set_aside(path, damage)
            return open_database(path)

    def _read_index_shard(self, shard: str, *, check: bool = False) -> dict[str, list]:
        """A week's card rows. A missing index file is no damage: a store was
        interrupted before it wrote the cards, and the papers without cards are
        stored again (with their tags) at the next refresh."""
        path = self._index_path(shard)
        self._signatures[shard] = file_signature(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return {}
        return parse_database(path, raw, index_shape(shard) if check else None).get(CARDS, {})

    def _repair(self, shard: str, damage: DamagedFileError) -> str:
        """Rebuild one week's index and heads from its papers (keeping the damaged
        file aside), or set the week aside if its papers are damaged too."""
        papers_path = self._papers_path(shard)
        with self._lock:
            try:
                documents = parse_database(papers_path, papers_path.read_bytes(), papers_shape).get(PAPERS, {})
            except DamagedFileError as papers_damage:
                return self._drop_week(shard, papers_damage)
            kept = self._set_aside(damage.path, damage) if damage.path.exists() else None
            rows = {}
            heads = {}
            for pid, doc in documents.items():
                paper = paper_from_doc(pid, doc)
                rows[pid] = card_row(paper, doc.get("first_seen") or utcnow().isoformat(timespec="seconds"), shard)
                heads[pid] = head_of(paper)
            written: dict[str, list[int] | None] = {}
            for path, table, contents in (
                (self._heads_path(shard), HEADS, heads),
                (self._index_path(shard), CARDS, rows),
            ):
                path.unlink(missing_ok=True)
                db = open_database(path)
                db.table(table).put_many(contents)
                db.flush()
                written[self._relative(path)] = self._stamp(path)
            self._forget_heads([shard])
            written[self._relative(papers_path)] = self._stamp(papers_path)
            try:
                self._write_meta(written, bump=False)
            except StoreError:
                pass
        what = "card index" if damage.path.parent == self.index_dir else "abstract heads"
        kept_text = f"; kept it as {kept.name}" if kept else ""
        return (
            f"{damage.path} was damaged ({damage.reason}){kept_text} and rebuilt the week's {what} "
            "from the cached papers"
        )

    def _drop_week(self, shard: str, damage: DamagedFileError) -> str:
        """A week whose papers file is damaged: keep it aside, drop its cards and
        heads; its papers will be fetched again."""
        with self._lock:
            kept = self._set_aside(self._papers_path(shard), damage)
            self._index_path(shard).unlink(missing_ok=True)
            self._heads_path(shard).unlink(missing_ok=True)
            remove_match_rows(self._papers_path(shard))
            self._forget_heads([shard])
        return (
            f"{damage.path} was damaged ({damage.reason}) and was set aside as {kept.name}; "
            f"the papers of the week of {shard} will be fetched again"
        )

    def _set_aside(self, path: Path, damage: DamagedFileError) -> Path:
        if path.parent == self.papers_dir:
            self.lost_papers = True
        try:
            return keep_aside(path)
        except OSError as error:
            raise StoreError(f"{damage}, and it could not be moved aside: {error.strerror}") from error


class _OpenWeeks:
    """The shard databases one `store` call has open, and the signatures of
    the files it wrote."""

    def __init__(self, cache: PaperCache) -> None:
        self.cache = cache
        self.open: dict[Path, Database] = {}
        self.written: dict[str, list[int] | None] = {}

    def papers(self, shard: str) -> Database:
        return self._get(self.cache._papers_path(shard))

    def index(self, shard: str) -> Database:
        return self._get(self.cache._index_path(shard))

    def heads(self, shard: str) -> Database:
        return self._get(self.cache._heads_path(shard))

    def _get(self, path: Path) -> Database:
        if path not in self.open:
            self.open[path] = self.cache._open(path)
        return self.open[path]

    def let_go(self, paths: Iterable[Path]) -> None:
        """Drop these files' databases (written, or not to be written)."""
        for path in paths:
            self.open.pop(path, None)

    def flush(self, paths: Iterable[Path]) -> None:
        """Write the held changes of these files, each atomically; all are
        durable when it returns."""
        with directory_syncs_batched():
            for path in paths:
                self.open[path].flush()
                self.written[self.cache._relative(path)] = self.cache._stamp(path)
