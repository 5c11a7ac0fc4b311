"""What discovery keeps and stores: the papers' vectors, the whole cache's
word index, and what is held in memory between questions (the model, the
vectors, the indexes, each for the library it was built from).

Vectors and words are mostly computed by a refresh's parse workers
(discovery/at_parse.py) and kept here until `compute_vectors` writes them
with the cache, at a refresh's end and in the reader's worker; papers they
do not cover are read from their week files. Everything here may run in a
worker thread; numpy and the model are imported inside the methods that use
them, never at import of feedtui.core.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from feedtui.core.events import VectorsUpdated
from feedtui.search import SearchIndex

if TYPE_CHECKING:
    from feedtui.discovery.corpus import Corpus
    from feedtui.discovery.vectors import Vectors

# Papers whose vectors Ask computes itself when they lack them (more wait
# for compute_vectors, which a refresh runs): a few seconds at most.
VECTORS_ON_DEMAND = 2_000
# Papers embedded and quantized at a time by compute_vectors.
VECTORS_STEP = 1_000
VECTORS_FILE = "vectors.bin"
# Set (to anything): no vectors are computed by a refresh.
NO_VECTORS_ENV = "FEEDTUI_NO_VECTORS"
# The folder of the stored word index, next to the vectors (see discovery/word_store.py).
WORDS_FOLDER = "words"
# The model tokenizer's tables, made from its file once (see discovery/bpe.py).
TOKENIZER_FILE = "tokenizer"


@dataclass(slots=True)
class _Held:
    """What discovery keeps between questions, each with the library state it was built for."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    index: tuple[tuple, SearchIndex] | None = None
    topic_indexes: dict[str, tuple[tuple, SearchIndex]] = field(default_factory=dict)
    corpus: tuple[tuple, Corpus] | None = None
    semantic: Any = None  # discovery.semantic.Semantic once asked for, or why there is none
    vectors_signature: tuple | None = None  # of the vectors file the held vectors were read from
    computing: threading.Lock = field(default_factory=threading.Lock)
    vectors_checked: tuple | None = None  # the library and vectors last checked for papers lacking vectors


class DiscoveryStore:
    """The Engine's discovery state and stores (see core/engine.py for the state they use)."""

    def _discovery(self) -> _Held:
        held = getattr(self, "_held_discovery", None)
        if held is None:
            held = self._held_discovery = _Held()
        return held

    def _library_key(self) -> tuple:
        library = self.library
        return (id(library), library.version, len(library))

    def release_discovery(self) -> None:
        """Drop the indexes, the model and the vectors from memory (built again when next asked)."""
        self._held_discovery = None

    def _shown_positions(self) -> Sequence[int]:
        """The library positions of every paper but the hidden: a range when
        none is hidden, not a list of an int object each."""
        library = self.library
        hidden = library.hidden
        if not hidden:
            return range(len(library))
        return [i for i in range(len(library)) if i not in hidden]

    def _whole_index(self) -> Any:
        """The search index of every paper but the hidden, kept until the
        library changes: mapped from the stored one when it indexes these
        papers, else built here (and stored for the next process)."""
        held = self._discovery()
        key = self._library_key()
        with held.lock:
            if held.index is None or held.index[0] != key:
                held.index = None  # the old one is let go before the new one is built
                positions = self._shown_positions()
                stamp = self._words_stamp(positions)
                index = self._load_words(stamp)
                if index is None:
                    index = self._store_words(positions, stamp)
                held.index = (key, index)
            return held.index[1]

    def _words_folder(self) -> Path:
        return self.data_dir / "cache" / WORDS_FOLDER

    def _words_stamp(self, positions: Sequence[int]) -> str | None:
        try:
            from feedtui.discovery.word_store import stamp
        except ImportError:
            return None
        library = self.library
        return stamp((library.ids[i], library.rows[i].version) for i in positions)

    def _load_words(self, stamp: str | None) -> Any:
        """The stored word index if it indexes exactly the papers of `stamp`, else None."""
        if stamp is None:
            return None
        from feedtui.discovery.word_store import load

        return load(self._words_folder(), stamp)

    def _store_words(self, positions: Sequence[int], stamp: str | None) -> Any:
        """The word index of these papers, built and stored; the stored copy
        mapped in its place when it could be written and read back. Papers
        a refresh's parsers indexed, and papers the stored index has at the
        same version, are taken from there (discovery/word_parts.py); only
        the others are read from their week files and indexed."""
        kept = self._take_kept_words()
        if stamp is None:
            return _compact(self.search_index(positions))
        from feedtui.discovery.word_parts import join, part_of_index
        from feedtui.discovery.word_store import MappedIndex, load_part, save
        from feedtui.store.files import StoreError

        folder = self._words_folder()
        stored = load_part(folder)
        old, old_versions = stored if stored is not None else (None, [])
        old_at = {pid: i for i, pid in enumerate(old.ids)} if old is not None else {}
        library = self.library
        chosen: dict[int, tuple[Any, list[int]]] = {}
        missing: list[int] = []
        for i in positions:
            pid, version = library.ids[i], library.rows[i].version
            found = kept.get(pid)
            if found is not None and found[2] == version:
                chosen.setdefault(id(found[0]), (found[0], []))[1].append(found[1])
                continue
            at = old_at.get(pid)
            if at is not None and old_versions[at] == version:
                chosen.setdefault(id(old), (old, []))[1].append(at)
                continue
            missing.append(i)
        del kept, old_at
        parts = list(chosen.values())
        if missing:
            built = part_of_index(self.search_index(missing))
            parts.append((built, range(len(built.ids))))
        joined = join(parts)
        del parts, chosen, old, stored
        versions = [library.rows[library.pos[pid]].version for pid in joined.ids]
        try:
            with self.lock:
                save(joined, versions, folder, stamp)
        except (OSError, StoreError) as error:
            self.problems.messages.append(f"Could not save the word index: {error}")
            return MappedIndex.of(joined)
        mapped = self._load_words(stamp)
        if mapped is None:
            return MappedIndex.of(joined)
        del joined
        from feedtui.memory import give_back_freed_memory

        give_back_freed_memory()
        return mapped

    def store_word_index(self) -> bool:
        """Build and store the whole cache's word index unless the stored one
        is current (a refresh's end runs it, as it computes the vectors):
        the next Ask maps it instead of building it. True when one was built."""
        positions = self._shown_positions()
        stamp = self._words_stamp(positions)
        if stamp is None or self._load_words(stamp) is not None:
            self._take_kept_words()
            return False
        held = self._discovery()
        key = self._library_key()
        index = self._store_words(positions, stamp)
        with held.lock:
            if held.index is None or held.index[0] != key:
                held.index = (key, index)
        return True

    def _documents(self, ids: Sequence[str]) -> Iterator[tuple[str, dict]]:
        """(id, stored document) of these papers, week file by week file."""
        from feedtui.store.cache import read_documents

        library = self.library
        by_shard: dict[str, list[str]] = {}
        for paper_id in ids:
            position = library.pos.get(paper_id)
            if position is not None:
                by_shard.setdefault(library.rows[position].shard, []).append(paper_id)
        for shard, wanted in by_shard.items():
            docs = read_documents(self.cache.papers_file(shard))
            for paper_id in wanted:
                doc = docs.get(paper_id)
                if doc is not None:
                    yield paper_id, doc

    def _documents_in_steps(self, ids: Sequence[str], step: int) -> Iterator[list[tuple[str, dict]]]:
        """The stored documents of these papers, `step` at a time, each week's file read once."""
        batch: list[tuple[str, dict]] = []
        for item in self._documents(ids):
            batch.append(item)
            if len(batch) >= step:
                yield batch
                batch = []
        if batch:
            yield batch

    def _semantic(self) -> Any:
        """The model and the vectors, loaded on first use and the vectors read
        again when the file changed (another process computed some): a
        `Semantic`, or a line saying why Ask is lexical only."""
        held = self._discovery()
        with held.lock:
            if held.semantic is None:
                from feedtui.discovery.embed import Model, ModelUnavailable

                try:
                    model = Model.load(self.data_dir / "cache" / TOKENIZER_FILE)
                except (ModelUnavailable, ImportError) as error:
                    held.semantic = f"lexical ranking only: {error}"
                    return held.semantic
                from feedtui.discovery.semantic import Semantic
                from feedtui.memory import give_back_freed_memory

                held.semantic = Semantic(model, self._read_vectors())
                # What reading the vectors' header left free (its parsed ids,
                # the text they were parsed from), handed back before the
                # question is answered (what it allocates would not reuse it all).
                give_back_freed_memory()
            elif not isinstance(held.semantic, str) and self._vectors_signature() != held.vectors_signature:
                held.semantic.vectors = self._read_vectors()
            return held.semantic

    def _vectors_path(self) -> Path:
        return self.data_dir / "cache" / VECTORS_FILE

    def _vectors_signature(self) -> tuple | None:
        try:
            info = self._vectors_path().stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    def _read_vectors(self, *, meta: bool = False) -> Vectors:
        """The stored vectors (with their papers' authors and categories with
        `meta`); none when the file is missing or damaged (they are computed again)."""
        from feedtui.discovery.embed import DIM, MODEL_NAME
        from feedtui.discovery.vectors import Vectors, VectorsDamaged, read

        if not meta:
            self._discovery().vectors_signature = self._vectors_signature()
        library = self.library
        ids, pos = library.ids, library.pos

        def same(paper_id: str) -> str:
            """The library's string for this id: the ids held once, not twice."""
            at = pos.get(paper_id)
            return ids[at] if at is not None else paper_id

        try:
            return read(self._vectors_path(), MODEL_NAME, meta=meta, same=same)
        except (OSError, VectorsDamaged):
            return Vectors.empty(MODEL_NAME, DIM)

    def _semantic_for(self, positions: Sequence[int]) -> tuple[Any, str]:
        """(Semantic or None, the note when None) for ranking these papers;
        a few papers lacking vectors get them now."""
        semantic = self._semantic()
        if isinstance(semantic, str):
            return None, semantic
        library = self.library
        held = self._discovery()
        checked = (*self._library_key(), len(semantic.vectors), len(positions))
        if held.vectors_checked != checked:
            missing = sum(1 for i in positions if library.ids[i] not in semantic.vectors.pos)
            if missing and missing <= VECTORS_ON_DEMAND:
                self._compute_vectors()
            held.vectors_checked = (*self._library_key(), len(semantic.vectors), len(positions))
        if not len(semantic.vectors):
            return None, "lexical ranking only: no vectors yet (feedtui refresh computes them)"
        return semantic, ""

    def compute_vectors(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Vectors for the cached papers lacking them (or whose version
        changed), written with the cache; vectors of papers no longer cached
        are dropped; and the whole cache's word index stored when it is not
        current (`store_word_index`). Returns how many vectors were computed
        (0 without the model). Publishes VectorsUpdated. Meant for a worker
        thread: reads the week files of the papers it embeds."""
        count = self._compute_vectors(progress)
        self.store_word_index()
        return count

    def _compute_vectors(self, progress: Callable[[int, int], None] | None = None) -> int:
        from feedtui.discovery.authors import author_key

        held = self._discovery()
        with held.computing:
            from feedtui.discovery.vectors import encode, quantize

            library = self.library
            stored = self._read_vectors(meta=True)
            known = stored.pos
            need = [
                pid
                for pid, row in zip(library.ids, library.rows)
                if pid not in known or stored.versions[known[pid]] != row.version
            ]
            kept = self._take_kept_vectors()
            keep = set(library.ids)
            if not need and len(keep) >= len(stored) and all(pid in keep for pid in stored.ids):
                return 0
            import numpy as np

            dim = stored.codes.shape[1]
            ids: list[str] = []
            versions: list[int] = []
            scales: list[np.ndarray] = []
            codes: list[np.ndarray] = []
            authors: list[list[str]] = []
            categories: list[list[str]] = []
            # What the refresh's parsers embedded, for the papers still at the version they stored.
            wanted = set(need)
            kept_codes = np.frombuffer(bytes(kept.codes), dtype=np.int8).reshape(-1, dim) if len(kept) else None
            taken: dict[str, int] = {}
            for i, (pid, version) in enumerate(zip(kept.ids, kept.versions)):
                if pid in wanted and library.pos.get(pid) is not None and library.rows[library.pos[pid]].version == version:
                    taken[pid] = i  # the last stored copy wins
            if taken:
                rows = list(taken.values())
                ids += taken
                versions += (kept.versions[i] for i in rows)
                scales.append(np.asarray([kept.scales[i] for i in rows], dtype=np.float32))
                codes.append(kept_codes[rows])
                authors += (kept.authors[i] for i in rows)
                categories += (kept.categories[i] for i in rows)
                need = [pid for pid in need if pid not in taken]
            del kept, kept_codes
            # The model only for papers the parsers did not embed (a refresh's
            # end has none to embed, and need not load it).
            semantic = self._semantic() if need else None
            if isinstance(semantic, str):
                if not ids:
                    return 0
                need = []
            done = 0
            for docs in self._documents_in_steps(need, VECTORS_STEP):
                vectors = semantic.model.embed([_embedded_text(doc) for _, doc in docs])
                step_scales, step_codes = quantize(vectors)
                ids += (pid for pid, _ in docs)
                versions += (int(doc.get("version", 1)) for _, doc in docs)
                authors += ([author_key(name) for name, _ in doc.get("authors", ())] for _, doc in docs)
                categories += (list(doc.get("categories", ())) for _, doc in docs)
                scales.append(step_scales)
                codes.append(step_codes)
                done += len(docs)
                if progress is not None:
                    progress(done, len(need))
            updated = stored.with_added(
                ids,
                versions,
                np.concatenate(scales) if scales else np.zeros(0, np.float32),
                np.concatenate(codes) if codes else np.zeros((0, dim), np.int8),
                keep,
                authors,
                categories,
            )
            self._write_vectors(encode(updated))
            # Held without the authors and categories (see vectors.decode).
            updated.authors, updated.categories = [], []
            if held.semantic is not None and not isinstance(held.semantic, str):
                held.semantic.vectors = updated
        self.publish(VectorsUpdated(len(ids)))
        return len(ids)

    def vectors_wanted(self) -> bool:
        """Whether the papers' vectors are computed (FEEDTUI_NO_VECTORS=1
        leaves them to the next Ask, Related or For you)."""
        return not os.environ.get(NO_VECTORS_ENV)

    def _note_stored(self, papers: Iterable[Any]) -> None:
        """Note papers just stored, to take their vectors and words when the
        refresh's embedder hands them over (`_keep_embedded`)."""
        with self._kept_vectors_lock:
            self._kept().note(papers)

    async def _keep_embedded(self, computed: Sequence[tuple[dict, Any]]) -> None:
        """Keep what the refresh's embedder computed (see discovery/at_parse.py)
        for the papers noted as stored, until compute_vectors writes it."""

        def keep() -> None:
            with self._kept_vectors_lock:
                self._kept().take(computed)

        await asyncio.to_thread(keep)

    def _kept(self) -> Any:
        from feedtui.discovery.at_parse import KeptVectors

        if self._kept_vectors is None:
            self._kept_vectors = KeptVectors()
        return self._kept_vectors

    def _take_kept_vectors(self) -> Any:
        """The kept vectors, let go of here (their words stay, for the word
        index, and so do the notes of a refresh under way)."""
        from feedtui.discovery.at_parse import KeptVectors

        with self._kept_vectors_lock:
            kept = self._kept_vectors
            fresh = self._kept_vectors = KeptVectors()
            if kept is not None:
                fresh.words, fresh.notes = kept.words, kept.notes
        return kept if kept is not None else KeptVectors()

    def _take_kept_words(self) -> dict[str, tuple[Any, int, int]]:
        """Where the parsers indexed each stored paper's words, let go of here."""
        with self._kept_vectors_lock:
            kept = self._kept_vectors
            if kept is None:
                return {}
            words, kept.words = kept.words, {}
        return words

    def _write_vectors(self, data: bytes) -> None:
        from feedtui.store.files import StoreError, atomic_write

        path = self._vectors_path()
        try:
            with self.lock:
                atomic_write(path, data)
        except (OSError, StoreError) as error:
            # Kept in memory: computed again by the next process that asks.
            self.problems.messages.append(f"Could not save the papers' vectors: {error}")
            return
        self._discovery().vectors_signature = self._vectors_signature()


def _abstract(doc: dict) -> str:
    return doc.get("abstract_display") or doc.get("abstract", "")


def _compact(index: SearchIndex) -> Any:
    """The whole cache's index packed into numpy arrays (see CompactIndex),
    and the memory of the index it was made from handed back."""
    try:
        from feedtui.discovery.lexical import CompactIndex
    except ImportError:
        return index
    compact = CompactIndex(index)
    del index
    from feedtui.memory import give_back_freed_memory

    give_back_freed_memory()
    return compact


def _embedded_text(doc: dict) -> str:
    """What a paper's vector is of: its title and abstract."""
    from feedtui.discovery.embed import embedded_text

    return embedded_text(doc.get("title_display") or doc.get("title", ""), _abstract(doc))
