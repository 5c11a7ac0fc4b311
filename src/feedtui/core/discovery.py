"""Discovery on the engine: Ask over a topic or the whole cache, papers by
an author, related papers, "For you", and the "more / less like this" marks.

Everything here may run in a worker thread. What it builds (the whole
cache's search index, each paper's authors and categories, and once the
model is asked for, the model and the papers' vectors) is built on first
use in the calling thread and kept until the library changes or
`release_discovery` drops it (core/discovery_store.py): nothing is loaded
at start, nor before the reader's first paint. numpy and the model are
imported inside the methods that use them (discovery/semantic.py), never
at import of feedtui.core.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from feedtui.core.discovery_store import DiscoveryStore, _abstract
from feedtui.core.events import TasteChanged
from feedtui.search import SearchIndex, highlight_words

if TYPE_CHECKING:
    from feedtui.discovery.corpus import Corpus
    from feedtui.discovery.records import Answer, ForYou, Hit, Quote
    from feedtui.core.library import Library

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


class Discovery(DiscoveryStore):
    """The Engine's discovery methods (see core/engine.py for the state they use)."""

    # -- what is kept ------------------------------------------------------


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
        from feedtui.discovery.corpus import Corpus

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
        from feedtui.discovery.authors import author_key

        missing: list[str] = list(self.library.ids)
        if not isinstance(self._semantic(), str):
            vectors = self._read_vectors(meta=True)
            missing = [pid for pid in missing if pid not in vectors.pos]
            yield from zip(vectors.ids, vectors.authors, vectors.categories)
            del vectors
        for paper_id, doc in self._documents(missing):
            yield paper_id, [author_key(name) for name, _ in doc.get("authors", ())], doc.get("categories", ())


    # -- Ask -----------------------------------------------------------------

    def ask(self, question: str, *, topic: str | None = None, limit: int = 50, mode: str = "fused") -> Answer:
        """The papers that best answer `question`, in one topic or (None) the
        whole cache, with the sentences of the top papers' abstracts that
        answer it. `mode` "lexical" or "semantic" ranks by one ranking alone
        (to measure each). Raises TopicNotFound for an unknown topic."""
        from feedtui.discovery.answer import best_quotes
        from feedtui.discovery.rank import SEMANTIC_DEPTH, fuse
        from feedtui.discovery.records import Answer, Hit

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
        from feedtui.discovery.authors import author_query

        return author_query(name)

    # -- Related -------------------------------------------------------------

    def related(self, paper_id: str, *, limit: int = 10) -> list[Hit]:
        """The papers of the whole cache most related to this one: close in
        words (and meaning, with the model), sharing authors, sharing
        categories. Raises PaperNotFound for an id not cached."""
        from feedtui.discovery.records import Hit
        from feedtui.discovery.related import relatedness

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
        from feedtui.discovery.records import ForYou, Hit

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

        from feedtui.discovery.records import Hit
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
        from feedtui.discovery.records import ForYou, Hit

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

    # -- vectors computed as a refresh parsed the papers -------------------


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


def _sentences_of(paper_id: str, quotes: list[Quote]) -> tuple[str, ...]:
    return tuple(q.sentence for q in quotes if q.paper_id == paper_id)


def _topic_words(entry: Any) -> str:
    """A topic's query as plain words (field names and operators left out),
    with its name: what For you ranks by when it knows no taste yet."""
    query = entry.topic.definition.query
    words = re.sub(r"\b(?:ti|abs|au|cat|all|co|jr|rn|id):", " ", query)
    words = re.sub(r"\b(?:AND|OR|ANDNOT|NOT)\b|[()\"+]", " ", words)
    return f"{entry.name} {entry.topic.description} {words}"
