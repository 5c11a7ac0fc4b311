"""BM25 over a large index with numpy: Ask's word ranking of the whole cache.

The same scores as `SearchIndex.rank` (feedtui.search), computed a term at
a time over each part's posting arrays instead of a paper at a time in
Python: over 40,000 papers a common word has tens of thousands of
postings. Only the best `depth` come back, best first (ties by id).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from feedtui.search import B, K1, SearchIndex, query_terms


def top_bm25(index: SearchIndex, question: str, depth: int) -> list[tuple[str, float]]:
    terms = query_terms(question)
    if not terms or not index.count:
        return []
    n = index.count
    average = index.average_length or 1.0
    idf = {}
    for term in terms:
        df = sum(len(s.postings[term][0]) for s in index.segments if term in s.postings)
        idf[term] = math.log(1 + (n - df + 0.5) / (df + 0.5))
    found: list[tuple[list[str], np.ndarray, np.ndarray]] = []
    for segment in index.segments:
        present = [t for t in terms if t in segment.postings]
        if not present:
            continue
        norm = K1 * (1 - B + B * np.frombuffer(segment.lengths, dtype=np.float64) / average)
        scores = np.zeros(len(segment.ids), dtype=np.float64)
        for term in present:
            positions, counts = segment.postings[term]
            where = np.frombuffer(positions, dtype=np.uint32)
            tf = np.frombuffer(counts, dtype=np.uint32).astype(np.float64)
            scores[where] += idf[term] * tf * (K1 + 1) / (tf + norm[where])
        hit = _best(scores, depth)
        found.append((segment.ids, hit, scores[hit]))
    ranked = [(ids[i], float(score)) for ids, hits, scores in found for i, score in zip(hits.tolist(), scores.tolist())]
    ranked.sort(key=lambda item: (-item[1], item[0]))
    return ranked[:depth]


class CompactIndex:
    """A SearchIndex of the whole cache packed into a few numpy arrays: for
    each term, its papers (uint32) and weighted counts (uint8: a count past
    255 counts as 255, where BM25's saturation has long flattened it), one
    run per term. Kept between questions, it takes a fraction of the arrays and
    objects of the index it is made from (an array per term and part), and
    ranks with `top_bm25`'s formula."""

    __slots__ = ("ids", "count", "average_length", "norm_lengths", "vocabulary", "starts", "papers", "counts")

    def __init__(self, index: SearchIndex) -> None:
        self.ids = index.ids
        self.count = index.count
        self.average_length = index.average_length or 1.0
        lengths = np.concatenate([np.frombuffer(s.lengths, dtype=np.float64) for s in index.segments]) if index.segments else np.zeros(0)
        self.norm_lengths = (K1 * (1 - B + B * lengths / self.average_length)).astype(np.float32)
        bases = np.cumsum([0] + [len(s.ids) for s in index.segments])
        vocabulary: dict[str, int] = {}
        for segment in index.segments:
            for term in segment.postings:
                vocabulary.setdefault(term, len(vocabulary))
        sizes = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        for segment in index.segments:
            for term, (positions, _) in segment.postings.items():
                sizes[vocabulary[term] + 1] += len(positions)
        self.starts = np.cumsum(sizes)
        total = int(self.starts[-1])
        self.papers = np.empty(total, dtype=np.uint32)
        self.counts = np.empty(total, dtype=np.uint8)
        filled = self.starts[:-1].copy()
        for base, segment in zip(bases.tolist(), index.segments):
            for term, (positions, counts) in segment.postings.items():
                row = vocabulary[term]
                at = int(filled[row])
                size = len(positions)
                self.papers[at : at + size] = np.frombuffer(positions, dtype=np.uint32) + base
                self.counts[at : at + size] = np.minimum(np.frombuffer(counts, dtype=np.uint32), 255)
                filled[row] = at + size
        self.vocabulary = vocabulary

    def rank(self, question: str, depth: int | None = None) -> list[tuple[str, float]]:
        """(paper id, score) of the `depth` best papers (all with None), best first."""
        return rank_rows(self, question, depth, self.vocabulary.get, self.ids.__getitem__)


def rank_rows(
    index: Any,
    question: str,
    depth: int | None,
    row_of: Callable[[str], int | None],
    paper_id: Callable[[int], str],
    done: Callable[[int, int], None] | None = None,
) -> list[tuple[str, float]]:
    """BM25 over a compact index's arrays (`count`, `norm_lengths`, `starts`,
    `papers`, `counts`), in memory or mapped from disk: `row_of` finds a
    term's run, `paper_id` names a position, `done` (if given) is told each
    run [start, end) once it is no longer read. Raises ValueError when a run
    names a paper past the end (a damaged index)."""
    rows = [row for row in (row_of(t) for t in query_terms(question)) if row is not None]
    if not rows:
        return []
    count = index.count
    scores = np.zeros(count, dtype=np.float32)
    for row in rows:
        start, end = int(index.starts[row]), int(index.starts[row + 1])
        if not 0 <= start <= end <= len(index.papers):
            raise ValueError("a term's postings run past the index")
        where = index.papers[start:end]
        if end > start and int(where.max()) >= count:
            raise ValueError("a posting names a paper past the index")
        tf = index.counts[start:end].astype(np.float32)
        idf = math.log(1 + (count - (end - start) + 0.5) / (end - start + 0.5))
        scores[where] += np.float32(idf) * tf * np.float32(K1 + 1) / (tf + index.norm_lengths[where])
        if done is not None:
            done(start, end)
    hit = _best(scores, depth)
    ranked = [(paper_id(i), float(s)) for i, s in zip(hit.tolist(), scores[hit].tolist())]
    ranked.sort(key=lambda item: (-item[1], item[0]))
    return ranked[:depth] if depth is not None else ranked


def _best(scores: np.ndarray, depth: int | None) -> np.ndarray:
    """Positions of the `depth` best positive scores, and of any tied with the
    last of them (the caller breaks ties by id, as SearchIndex.rank does)."""
    hit = np.flatnonzero(scores > 0)
    if depth is not None and depth <= 0:
        return hit[:0]
    if depth is not None and len(hit) > depth:
        threshold = np.partition(scores[hit], len(hit) - depth)[len(hit) - depth]
        hit = hit[scores[hit] >= threshold]
    return hit
