"""The paper cache: weekly TinyDB shards of full papers, and their card index.

    cache/papers/2026-09-28.json   full documents of papers first submitted that week
    cache/index/2026-09-28.json    the same papers' card rows (what the list shows)
    cache/heads/2026-09-28.json    the heads of their abstracts, read for cards on screen
    cache/meta.json                schema version and a generation counter

Start-up reads only the index files. A refresh rewrites only the weeks it
touched. A paper whose first-version date moves (an earlier version turns up)
moves to its new week. Every write happens under the data-directory lock after
re-reading any index file another process replaced, so concurrent refreshes
merge instead of overwriting each other.
"""

from __future__ import annotations

import gc
import shutil
import threading
from collections import OrderedDict
from contextlib import contextmanager
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from feedtui.model import Paper, utcnow
from feedtui.store.codec import C_PRIMARY, C_SHARD, card_row, head_of, paper_from_doc, paper_to_doc, shard_for
from feedtui.store.files import DamagedFileError, file_signature, remove_stale_temporaries
from feedtui.store.lock import DataDirLock
from feedtui.store.tinydb_io import Database, open_database, parse_database

SCHEMA_VERSION = 1
PAPERS = "papers"
CARDS = "cards"
HEADS = "heads"
# Weeks of abstract heads held in memory at once (each a few hundred KB).
HEAD_WEEKS_KEPT = 12


@dataclass(slots=True)
class StoreOutcome:
    new: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    # Every card row written, by paper id (new, updated, or moved).
    rows: dict[str, list] = field(default_factory=dict)
    # The merged papers behind those rows, for tagging.
    papers: dict[str, Paper] = field(default_factory=dict)


@dataclass(slots=True)
class IndexLoad:
    rows: dict[str, list]
    problems: list[str] = field(default_factory=list)


def read_documents(path: Path) -> Mapping[str, dict]:
    """The paper documents of one shard file ({} if it is missing or damaged)."""
    try:
        with _gc_paused():
            data = parse_database(path, path.read_bytes())
    except (FileNotFoundError, DamagedFileError):
        return {}
    return data.get(PAPERS, {})


@contextmanager
def _gc_paused():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class PaperCache:
    def __init__(self, directory: Path, lock: DataDirLock) -> None:
        self.directory = directory
        self.papers_dir = directory / "papers"
        self.index_dir = directory / "index"
        self.heads_dir = directory / "heads"
        self._lock = lock
        self._signatures: dict[str, tuple[int, int, int] | None] = {}
        for folder in (self.papers_dir, self.index_dir, self.heads_dir):
            folder.mkdir(parents=True, exist_ok=True)
            remove_stale_temporaries(folder)
        self.meta_path = directory / "meta.json"
        self._heads: OrderedDict[str, dict[str, str]] = OrderedDict()
        self._heads_lock = threading.Lock()
        # Set when damaged papers were set aside: validators must be forgotten so
        # the next refresh fetches them again instead of getting 304s.
        self.lost_papers = False

    # -- reading -----------------------------------------------------------

    def shards(self) -> list[str]:
        return sorted(p.stem for p in self.papers_dir.glob("*.json"))

    def load_index(self) -> IndexLoad:
        """Every card row, by paper id. A damaged index file is rebuilt from its
        papers shard; a damaged papers shard is moved aside and reported."""
        rows: dict[str, list] = {}
        problems: list[str] = []
        shared: dict[str, str] = {}
        with _gc_paused():  # 40,000 small lists: the cyclic GC would triple the load time.
            for shard in self.shards():
                try:
                    cards = self._read_index_shard(shard)
                except DamagedFileError as damage:
                    problems.append(self._repair(shard, damage))
                    cards = self._read_index_shard(shard, missing_ok=True)
                for row in cards.values():
                    # One string object per category and week, not one per paper.
                    row[C_PRIMARY] = shared.setdefault(row[C_PRIMARY], row[C_PRIMARY])
                    row[C_SHARD] = shared.setdefault(row[C_SHARD], row[C_SHARD])
                rows.update(cards)
        return IndexLoad(rows, problems)

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

    def read_heads(self, shard: str) -> dict[str, str]:
        """The abstract heads of one week's papers (empty if the file is missing or damaged)."""
        path = self.heads_dir / f"{shard}.json"
        try:
            with _gc_paused():
                return parse_database(path, path.read_bytes()).get(HEADS, {})
        except (FileNotFoundError, DamagedFileError):
            return {}

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
                out[shard] = self._read_index_shard(shard, missing_ok=True)
            except DamagedFileError:
                out[shard] = {}
        return out

    def get_papers(self, locations: Mapping[str, str]) -> dict[str, Paper]:
        """Full papers for {paper id: shard}, reading each shard once."""
        by_shard: dict[str, list[str]] = {}
        for paper_id, shard in locations.items():
            by_shard.setdefault(shard, []).append(paper_id)
        found: dict[str, Paper] = {}
        for shard, ids in by_shard.items():
            docs = self.read_shard_documents(shard)
            for paper_id in ids:
                doc = docs.get(paper_id)
                if doc is not None:
                    found[paper_id] = paper_from_doc(paper_id, doc)
        return found

    def read_shard_documents(self, shard: str) -> Mapping[str, dict]:
        return read_documents(self._papers_path(shard))

    def shard_paths(self) -> list[Path]:
        """Every papers shard, largest first (to share them out evenly)."""
        paths = [self._papers_path(s) for s in self.shards()]
        return sorted(paths, key=lambda p: p.stat().st_size if p.exists() else 0, reverse=True)

    def iter_documents(self) -> Iterator[tuple[str, Mapping[str, dict]]]:
        """(shard, {paper id: document}) for every shard, one shard in memory at a time."""
        for shard in self.shards():
            yield shard, self.read_shard_documents(shard)

    # -- writing -----------------------------------------------------------

    def store(self, papers: Iterable[Paper], known: Mapping[str, list], now: datetime | None = None) -> StoreOutcome:
        """Merge papers into the cache. `known` maps paper id → card row for what
        the caller already holds; rows that changed on disk meanwhile are re-read."""
        stamp = (now or utcnow()).isoformat(timespec="seconds")
        incoming: dict[str, Paper] = {}
        for paper in papers:
            previous = incoming.get(paper.id)
            incoming[paper.id] = previous.merged_with(paper) if previous else paper
        outcome = StoreOutcome()
        if not incoming:
            return outcome
        with self._lock:
            locations = {pid: row[C_SHARD] for pid, row in known.items() if pid in incoming}
            for shard, rows in self.read_index_shards(self.changed_index_shards()).items():
                for pid in incoming.keys() & rows.keys():
                    locations[pid] = shard
            open_papers: dict[str, Database] = {}
            open_index: dict[str, Database] = {}
            open_heads: dict[str, Database] = {}

            def papers_db(shard: str) -> Database:
                if shard not in open_papers:
                    open_papers[shard] = self._open(self._papers_path(shard))
                return open_papers[shard]

            def index_db(shard: str) -> Database:
                if shard not in open_index:
                    open_index[shard] = self._open(self._index_path(shard))
                return open_index[shard]

            def heads_db(shard: str) -> Database:
                if shard not in open_heads:
                    open_heads[shard] = self._open(self.heads_dir / f"{shard}.json")
                return open_heads[shard]

            puts: dict[str, dict[str, dict]] = {}
            card_puts: dict[str, dict[str, list]] = {}
            head_puts: dict[str, dict[str, str]] = {}
            deletes: dict[str, list[str]] = {}
            for pid, paper in incoming.items():
                old_shard = locations.get(pid)
                doc = papers_db(old_shard).table(PAPERS).get(doc_id=pid) if old_shard else None
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
                    deletes.setdefault(old_shard, []).append(pid)
                puts.setdefault(shard, {})[pid] = paper_to_doc(merged, first_seen)
                row = card_row(merged, first_seen, shard)
                card_puts.setdefault(shard, {})[pid] = row
                head_puts.setdefault(shard, {})[pid] = head_of(merged)
                outcome.rows[pid] = row
                outcome.papers[pid] = merged
            for shard, ids in deletes.items():
                papers_db(shard).table(PAPERS).delete_many(ids)
                index_db(shard).table(CARDS).delete_many(ids)
                heads_db(shard).table(HEADS).delete_many(ids)
            for shard, docs in puts.items():
                papers_db(shard).table(PAPERS).put_many(docs)
            for shard, rows in card_puts.items():
                index_db(shard).table(CARDS).put_many(rows)
            for shard, heads in head_puts.items():
                heads_db(shard).table(HEADS).put_many(heads)
            self._forget_heads(open_heads)
            # Papers first: an index row never points at a paper that is not on disk.
            for db in (*open_papers.values(), *open_heads.values()):
                db.flush()
            for shard, db in open_index.items():
                db.flush()
                self._signatures[shard] = file_signature(self._index_path(shard))
            if outcome.new or outcome.updated:
                self._bump_generation()
        return outcome

    def remove(self, locations: Mapping[str, str]) -> int:
        """Drop papers ({paper id: week}) from the cache; returns how many were there."""
        by_shard: dict[str, list[str]] = {}
        for paper_id, shard in locations.items():
            by_shard.setdefault(shard, []).append(paper_id)
        removed = 0
        with self._lock:
            for shard, ids in by_shard.items():
                papers = self._open(self._papers_path(shard))
                present = [pid for pid in ids if papers.table(PAPERS).get(doc_id=pid) is not None]
                if not present:
                    continue
                # The index first: a card never points at a paper that is gone.
                index = self._open(self._index_path(shard))
                index.table(CARDS).delete_many(present)
                index.flush()
                self._signatures[shard] = file_signature(self._index_path(shard))
                heads = self._open(self.heads_dir / f"{shard}.json")
                heads.table(HEADS).delete_many(present)
                heads.flush()
                papers.table(PAPERS).delete_many(present)
                papers.flush()
                removed += len(present)
            self._forget_heads(by_shard)
            if removed:
                self._bump_generation()
        return removed

    def _bump_generation(self) -> None:
        try:
            db = open_database(self.meta_path)
        except DamagedFileError:
            self.meta_path.unlink(missing_ok=True)
            db = open_database(self.meta_path)
        current = db.table("meta").get(doc_id="cache") or {}
        db.table("meta").put_many(
            {
                "cache": {
                    "schema": SCHEMA_VERSION,
                    "generation": int(current.get("generation", 0)) + 1,
                    "updated": utcnow().isoformat(timespec="seconds"),
                }
            }
        )
        db.flush()

    # -- internals ---------------------------------------------------------

    def _papers_path(self, shard: str) -> Path:
        return self.papers_dir / f"{shard}.json"

    def _index_path(self, shard: str) -> Path:
        return self.index_dir / f"{shard}.json"

    def _open(self, path: Path) -> Database:
        try:
            return open_database(path)
        except DamagedFileError as damage:
            self._set_aside(path, damage)
            return open_database(path)

    def _read_index_shard(self, shard: str, *, missing_ok: bool = False) -> dict[str, list]:
        path = self._index_path(shard)
        self._signatures[shard] = file_signature(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            if missing_ok:
                return {}
            raise DamagedFileError(path, "the index file is missing") from None
        return parse_database(path, raw).get(CARDS, {})

    def _repair(self, shard: str, damage: DamagedFileError) -> str:
        """Rebuild one week's index from its papers, or set a damaged papers file aside."""
        papers_path = self._papers_path(shard)
        with self._lock:
            try:
                documents = parse_database(papers_path, papers_path.read_bytes()).get(PAPERS, {})
            except DamagedFileError as papers_damage:
                kept = self._set_aside(papers_path, papers_damage)
                self._index_path(shard).unlink(missing_ok=True)
                (self.heads_dir / f"{shard}.json").unlink(missing_ok=True)
                self.lost_papers = True
                return (
                    f"cached papers of the week of {shard} were damaged and set aside as {kept.name}; "
                    "they will be fetched again"
                )
            if self._index_path(shard).exists():
                self._set_aside(self._index_path(shard), damage)
            index = open_database(self._index_path(shard))
            rows = {}
            heads = {}
            for pid, doc in documents.items():
                paper = paper_from_doc(pid, doc)
                rows[pid] = card_row(paper, doc.get("first_seen") or utcnow().isoformat(timespec="seconds"), shard)
                heads[pid] = head_of(paper)
            heads_path = self.heads_dir / f"{shard}.json"
            heads_path.unlink(missing_ok=True)
            heads_db = open_database(heads_path)
            heads_db.table(HEADS).put_many(heads)
            heads_db.flush()
            index.table(CARDS).put_many(rows)
            index.flush()
        return f"the card index of the week of {shard} was rebuilt from the cached papers ({damage.reason})"

    def _set_aside(self, path: Path, damage: DamagedFileError) -> Path:
        if path.parent == self.papers_dir:
            self.lost_papers = True
        stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
        kept = path.with_name(f"{path.name}.damaged-{stamp}")
        shutil.move(path, kept)
        return kept
