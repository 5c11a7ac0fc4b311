"""Discovery on the engine: Ask over a topic or the whole cache, papers by
an author, related papers, "For you", and the "more / less like this" marks.

Everything here may run in a worker thread. What it builds (the whole
cache's search index, each paper's authors and categories, and once the
model is asked for, the model and the papers' vectors) is built on first
use in the calling thread and kept until the library changes or
`release_discovery` drops it: nothing is loaded at start, nor before the
reader's first paint. numpy and the model are imported inside the methods
that use them (discovery/semantic.py), never at import of feedtui.core.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from feedtui.core.events import TasteChanged, VectorsUpdated
from feedtui.discovery.answer import best_quotes
from feedtui.discovery.authors import author_key, author_query
from feedtui.discovery.corpus import Corpus
from feedtui.discovery.rank import SEMANTIC_DEPTH, fuse
from feedtui.discovery.records import Answer, ForYou, Hit, Quote
from feedtui.discovery.related import relatedness
from feedtui.search import SearchIndex, highlight_words

if TYPE_CHECKING:
    from feedtui.core.library import Library
    from feedtui.discovery.vectors import Vectors

# For you looks at the unread papers first submitted within this many days.
FOR_YOU_DAYS = 28
# How many of the top papers' abstracts Ask quotes from.
QUOTED_PAPERS = 5
ASK_MODES = ("fused", "lexical", "semantic")
# How many of the word ranking's best take part in the fusion: below them a
# paper's share of the fused score is too small to lift it into a list.
LEXICAL_DEPTH = 500
# Topic indexes kept for Ask over a topic (the whole cache's is kept apart).
TOPIC_INDEXES = 4
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
TOKENIZER_FILE = "tokenizer.npz"
# For you without a taste yet: how many papers each followed topic's words rank.
TOPIC_WORDS_DEPTH = 5_000
# Papers opened (read) most recently that count a little for For you.
RECENT_READS = 300
# Related looks at this many papers closest in words, and as many in meaning.
RELATED_DEPTH = 200


class PaperNotFound(KeyError):
    """No cached paper has this id."""

    def __str__(self) -> str:
        return f"no cached paper has the id '{self.args[0]}'"


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


class Discovery:
    """The Engine's discovery methods (see core/engine.py for the state they use)."""

    # -- what is kept ------------------------------------------------------

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

    def _shown_positions(self) -> list[int]:
        library = self.library
        hidden = library.hidden
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

    def _words(self, index: Any, question: str, depth: int) -> list[tuple[str, float]]:
        """`_ranked_words`, with a damaged stored index dropped and the whole
        cache's index built again in its place."""
        try:
            return _ranked_words(index, question, depth)
        except ValueError:
            held = self._discovery()
            with held.lock:
                if held.index is None or held.index[1] is not index:
                    raise
                held.index = None
                (self._words_folder() / "words.json").unlink(missing_ok=True)
            return _ranked_words(self._whole_index(), question, depth)

    def _topic_index(self, name: str, positions: Sequence[int]) -> SearchIndex:
        held = self._discovery()
        key = (*self._library_key(), len(positions), positions[0] if positions else -1)
        with held.lock:
            kept = held.topic_indexes.get(name)
            if kept is None or kept[0] != key:
                if len(held.topic_indexes) >= TOPIC_INDEXES:
                    held.topic_indexes.pop(next(iter(held.topic_indexes)))
                kept = held.topic_indexes[name] = (key, self.search_index(positions))
            return kept[1]

    def _corpus(self) -> Corpus:
        """Every cached paper's authors and categories (read from the week files once)."""
        held = self._discovery()
        key = self._library_key()
        with held.lock:
            if held.corpus is None or held.corpus[0] != key:
                held.corpus = None
                held.corpus = (key, Corpus.build(self._corpus_rows()))
                from feedtui.memory import give_back_freed_memory

                give_back_freed_memory()  # the lists and strings it was built from
            return held.corpus[1]

    def _corpus_rows(self) -> Iterator[tuple[str, list[str], list[str]]]:
        """Every paper's authors and categories: as the vectors file keeps them,
        and read from the week files for the papers it lacks."""
        missing: list[str] = list(self.library.ids)
        if not isinstance(self._semantic(), str):
            vectors = self._read_vectors(meta=True)
            missing = [pid for pid in missing if pid not in vectors.pos]
            yield from zip(vectors.ids, vectors.authors, vectors.categories)
            del vectors
        for paper_id, doc in self._documents(missing):
            yield paper_id, [author_key(name) for name, _ in doc.get("authors", ())], doc.get("categories", ())

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

                held.semantic = Semantic(model, self._read_vectors())
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
        try:
            return read(self._vectors_path(), MODEL_NAME, meta=meta)
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

    # -- Ask -----------------------------------------------------------------

    def ask(self, question: str, *, topic: str | None = None, limit: int = 50, mode: str = "fused") -> Answer:
        """The papers that best answer `question`, in one topic or (None) the
        whole cache, with the sentences of the top papers' abstracts that
        answer it. `mode` "lexical" or "semantic" ranks by one ranking alone
        (to measure each). Raises TopicNotFound for an unknown topic."""
        if mode not in ASK_MODES:
            raise ValueError(f"mode is one of {', '.join(ASK_MODES)}, not {mode!r}")
        library = self.library
        positions: Sequence[int] = ()
        if topic is not None:
            name = self.topic(topic).name
            positions = library.topic_positions(name)
            index = self._topic_index(name, positions)
        else:
            index = self._whole_index()
        semantic, note = (None, "lexical ranking only: asked for") if mode == "lexical" else self._semantic_for(
            positions if topic is not None else range(len(library))
        )
        lexical = self._words(index, question, max(limit, LEXICAL_DEPTH)) if mode != "semantic" or semantic is None else []
        if semantic is not None:
            allowed = [library.ids[i] for i in positions] if topic is not None else None
            close = semantic.ask(question, allowed, max(SEMANTIC_DEPTH, limit))
            hidden = library.hidden
            close = [(pid, s) for pid, s in close if library.pos.get(pid) not in hidden]
            ranked = (close if mode == "semantic" else fuse(lexical, close))[:limit]
        else:
            ranked = lexical[:limit]
        top = [pid for pid, _ in ranked[:QUOTED_PAPERS]]
        abstracts = {pid: self._whole_abstract(pid) for pid in top}
        closeness = semantic.sentence_closeness(question) if semantic is not None else None
        quotes = best_quotes(question, [(pid, abstracts.get(pid, "")) for pid in top], semantic=closeness)
        hits = [Hit(pid, round(score, 6), _sentences_of(pid, quotes)) for pid, score in ranked]
        return Answer(question, hits, quotes, highlight_words(question), semantic is not None, note)

    def _whole_abstract(self, paper_id: str) -> str:
        """A paper's whole abstract, sought in its week file (not parsed whole,
        not kept); its head, as its card shows it, when it cannot be read."""
        from feedtui.store.seek import read_document

        shard = self.library.rows[self.library.pos[paper_id]].shard
        doc = read_document(self.cache.papers_file(shard), paper_id)
        return _abstract(doc) if doc else self.abstract_head(shard, paper_id)

    # -- authors -------------------------------------------------------------

    def papers_by_author(self, name: str) -> list[str]:
        """Ids of the cached papers an author of this name wrote (case and
        accents aside), newest first; hidden papers left out."""
        library = self.library
        corpus = self._corpus()
        hidden = library.hidden
        positions = [library.pos[corpus.ids[i]] for i in corpus.by_name(name) if corpus.ids[i] in library.pos]
        positions = [i for i in positions if i not in hidden]
        positions.sort(key=lambda i: (-library.published_at[i], library.ids[i]))
        return [library.ids[i] for i in positions]

    @staticmethod
    def author_query(name: str) -> str:
        """The `au:` query of a topic that follows this author."""
        return author_query(name)

    # -- Related -------------------------------------------------------------

    def related(self, paper_id: str, *, limit: int = 10) -> list[Hit]:
        """The papers of the whole cache most related to this one: close in
        words (and meaning, with the model), sharing authors, sharing
        categories. Raises PaperNotFound for an id not cached."""
        library = self.library
        if paper_id not in library.pos:
            raise PaperNotFound(paper_id)
        corpus = self._corpus()
        here = corpus.pos.get(paper_id)
        shared = corpus.coauthored(here) if here is not None else {}
        cats = set(corpus.categories[here]) if here is not None else set()
        title = library.rows[library.pos[paper_id]].title
        close = {pid: s for pid, s in self._words(self._whole_index(), title, RELATED_DEPTH) if pid != paper_id}
        best = max(close.values(), default=0.0) or 1.0
        semantic, _ = self._semantic_for([library.pos[paper_id]])
        meaning: dict[str, float] = {}
        if semantic is not None and (vector := semantic.vectors.vector(paper_id)) is not None:
            meaning = dict(semantic.closest(vector, None, RELATED_DEPTH + 1))
            meaning.pop(paper_id, None)
        candidates = set(close) | set(meaning) | {corpus.ids[i] for i in shared}
        hidden = library.hidden
        scored: list[tuple[float, str]] = []
        for pid in candidates:
            position = library.pos.get(pid)
            if position is None or position in hidden:
                continue
            other = corpus.pos.get(pid)
            score = relatedness(
                meaning=meaning.get(pid, 0.0),
                words=close.get(pid, 0.0) / best,
                shared_authors=shared.get(other, 0) if other is not None else 0,
                categories=(cats, set(corpus.categories[other]) if other is not None else set()),
                semantic=bool(meaning),
            )
            scored.append((score, pid))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [Hit(pid, round(score, 6)) for score, pid in scored[:limit]]

    # -- For you -------------------------------------------------------------

    def for_you(self, *, limit: int = 50) -> ForYou:
        """Unread papers of the last weeks ranked by the user's taste (stars
        and "more / less like this"), each saying why; with no such signal
        yet, ranked by the followed topics' queries, and saying so."""
        library = self.library
        liked = [pid for pid in self._liked() if pid in library.pos]
        marked = set(liked) | set(self.feedback())
        candidates = [pid for pid in self._recent_unread(library) if pid not in marked]
        if not liked:
            return self._for_you_by_topics(candidates, limit)
        semantic, _ = self._semantic_for([library.pos[pid] for pid in candidates + liked])
        if semantic is not None:
            hits = self._for_you_by_vectors(semantic, candidates, liked, limit)
            if hits is not None:
                return ForYou(hits, False)
        wanted = set(candidates)
        disliked = {pid for pid, v in self.feedback().items() if v < 0}
        index = self._whole_index()
        scores: dict[str, float] = {}
        because: dict[str, tuple[float, str]] = {}
        for pid in liked[-30:]:
            title = library.rows[library.pos[pid]].title
            ranked = [(other, s) for other, s in self._words(index, title, 500) if other in wanted]
            top = max((s for _, s in ranked), default=0.0) or 1.0
            for other, s in ranked:
                share = s / top
                scores[other] = scores.get(other, 0.0) + share
                if share > because.get(other, (0.0, ""))[0]:
                    because[other] = (share, title)
        for pid in disliked:
            if pid in library.pos:
                for other, s in self._words(index, library.rows[library.pos[pid]].title, 200):
                    if other in scores:
                        scores[other] -= 0.5
        ranked_ids = sorted((pid for pid in scores if scores[pid] > 0), key=lambda p: (-scores[p], p))
        hits = [Hit(pid, round(scores[pid], 6), why=f"like: {because[pid][1]}") for pid in ranked_ids[:limit]]
        return ForYou(hits, False)

    def _for_you_by_vectors(self, semantic: Any, candidates: list[str], liked: list[str], limit: int) -> list[Hit] | None:
        """For you by the taste model over vectors (None: the liked papers have none)."""
        import numpy as np

        from feedtui.discovery.taste import READ_WEIGHT, taste_scores

        library = self.library
        read = [pid for pid in list(self.read_view())[-RECENT_READS:] if pid not in set(liked)]
        liked_ids, liked_rows = semantic.matrix(liked + read)
        if not len(liked_ids):
            return None
        explicit = set(liked)
        weights = np.array([1.0 if pid in explicit else READ_WEIGHT for pid in liked_ids], dtype=np.float32)
        if not (weights >= 1).any():
            return None
        _, disliked = semantic.matrix([pid for pid, v in self.feedback().items() if v < 0])
        ids, rows = semantic.matrix(candidates)
        if not ids:
            return []
        scores, nearest = taste_scores(rows, liked_rows, weights, disliked)
        order = np.argsort(-scores, kind="stable")[:limit]
        return [
            Hit(ids[i], round(float(scores[i]), 6), why=f"like: {library.rows[library.pos[liked_ids[nearest[i]]]].title}")
            for i in order
        ]

    def _liked(self) -> list[str]:
        """Starred papers and those marked "more like this", oldest mark first."""
        feedback = self.feedback()
        liked = dict.fromkeys(pid for pid in self.starred_view() if feedback.get(pid, 0) >= 0)
        liked.update(dict.fromkeys(pid for pid, value in feedback.items() if value > 0))
        return list(liked)

    def _recent_unread(self, library: Library) -> list[str]:
        since = int(self.clock().timestamp()) - FOR_YOU_DAYS * 86_400
        read, hidden = self.read_view(), library.hidden
        return [
            pid
            for i, (pid, at) in enumerate(zip(library.ids, library.published_at))
            if at >= since and pid not in read and i not in hidden
        ]

    def _for_you_by_topics(self, candidates: list[str], limit: int) -> ForYou:
        note = "No stars or “more like this” yet: ranked by your followed topics"
        followed = self.followed()
        if not followed or not candidates:
            return ForYou([], True, note)
        library = self.library
        wanted = set(candidates)
        index = self._whole_index()
        scores: dict[str, tuple[float, str]] = {}
        for entry in followed:
            members = {library.ids[i] for i in library.topic_positions(entry.name)}
            ranked = [(pid, s) for pid, s in self._words(index, _topic_words(entry), TOPIC_WORDS_DEPTH) if pid in wanted]
            top = max((s for _, s in ranked), default=0.0) or 1.0
            found = {pid: s / top for pid, s in ranked}
            for pid in members & wanted:
                found[pid] = found.get(pid, 0.0) + 1.0
            for pid, score in found.items():
                if score > scores.get(pid, (0.0, ""))[0]:
                    scores[pid] = (score, entry.name)
        ranked_ids = sorted(scores, key=lambda p: (-scores[p][0], p))[:limit]
        return ForYou([Hit(p, round(scores[p][0], 6), why=f"matches topic {scores[p][1]}") for p in ranked_ids], True, note)

    # -- feedback ------------------------------------------------------------

    def set_feedback(self, paper_id: str, value: int) -> None:
        """Mark a paper "more like this" (+1), "less like this" (-1) or neither
        (0); written to the state file in the background."""
        if value not in (1, -1, 0):
            raise ValueError(f"feedback is +1, -1 or 0, not {value!r}")
        if self.state.set_feedback(paper_id, value):
            self.publish(TasteChanged())

    def feedback_of(self, paper_id: str) -> int:
        return int(self.state.feedback_view().get(paper_id, {}).get("value", 0))

    def feedback(self) -> Mapping[str, int]:
        """Every paper's "more / less like this" mark (+1 or -1)."""
        return {pid: int(doc.get("value", 0)) for pid, doc in list(self.state.feedback_view().items())}

    # -- vectors -------------------------------------------------------------

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

    # -- vectors computed as a refresh parsed the papers -------------------

    def vectors_wanted(self) -> bool:
        """Whether the papers' vectors are computed (FEEDTUI_NO_VECTORS=1
        leaves them to the next Ask, Related or For you)."""
        return not os.environ.get(NO_VECTORS_ENV)

    def _kept_lock(self) -> threading.Lock:
        lock = getattr(self, "_kept_vectors_lock", None)
        if lock is None:
            lock = self._kept_vectors_lock = threading.Lock()
        return lock

    def _keep_parsed_vectors(self, papers: Mapping[str, Any], outcomes: Sequence[Any]) -> None:
        """Keep the vectors the refresh's parsers computed for the papers just
        stored (see discovery/at_parse.py), until compute_vectors writes them."""
        parsed: dict[str, Any] = {}
        parts: list[Any] = []
        for outcome in outcomes:
            parsed.update(outcome.vectors)
            parts += outcome.words
        if not parsed and not parts:
            return
        from feedtui.discovery.at_parse import KeptVectors, keep_stored

        with self._kept_lock():
            kept = getattr(self, "_kept_vectors", None)
            if kept is None:
                kept = self._kept_vectors = KeptVectors()
            keep_stored(kept, papers, parsed, parts)

    def _take_kept_vectors(self) -> Any:
        """The kept vectors, let go of here (their words stay, for the word index)."""
        from feedtui.discovery.at_parse import KeptVectors

        with self._kept_lock():
            kept = getattr(self, "_kept_vectors", None)
            fresh = self._kept_vectors = KeptVectors()
            if kept is not None:
                fresh.words = kept.words
        return kept if kept is not None else KeptVectors()

    def _take_kept_words(self) -> dict[str, tuple[Any, int, int]]:
        """Where the parsers indexed each stored paper's words, let go of here."""
        with self._kept_lock():
            kept = getattr(self, "_kept_vectors", None)
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


def _ranked_words(index: Any, question: str, depth: int) -> list[tuple[str, float]]:
    """The `depth` best papers by BM25: with numpy when it is there (a large
    index's common words have tens of thousands of postings)."""
    if not isinstance(index, SearchIndex):  # a CompactIndex
        return index.rank(question, depth)
    try:
        from feedtui.discovery.lexical import top_bm25
    except ImportError:
        return index.rank(question, depth)
    return top_bm25(index, question, depth)


def _embedded_text(doc: dict) -> str:
    """What a paper's vector is of: its title and abstract."""
    from feedtui.discovery.embed import embedded_text

    return embedded_text(doc.get("title_display") or doc.get("title", ""), _abstract(doc))


def _sentences_of(paper_id: str, quotes: list[Quote]) -> tuple[str, ...]:
    return tuple(q.sentence for q in quotes if q.paper_id == paper_id)


def _topic_words(entry: Any) -> str:
    """A topic's query as plain words (field names and operators left out),
    with its name: what For you ranks by when it knows no taste yet."""
    query = entry.topic.definition.query
    words = re.sub(r"\b(?:ti|abs|au|cat|all|co|jr|rn|id):", " ", query)
    words = re.sub(r"\b(?:AND|OR|ANDNOT|NOT)\b|[()\"+]", " ", words)
    return f"{entry.name} {entry.topic.description} {words}"
