"""The whole cache's word index, put together from parts instead of built
again from every week file.

A refresh's parse workers index each feed's papers as they parse them
(`words_of`), while other feeds download; the stored index of the last
build covers the papers that did not change since. Joining those parts
(`join`) is array work: the terms of all parts in one vocabulary, each
part's postings renumbered, sorted once by term and paper. The result ranks
exactly as an index built from the papers themselves: the same papers, the
same term counts and lengths, hence the same BM25.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np

from feedtui.discovery.embed import text_crc
from feedtui.model import Paper
from feedtui.search import ABSTRACT_WEIGHT, AUTHORS_WEIGHT, B, K1, TITLE_WEIGHT, SearchIndex, index_terms

# A term's count in a paper is kept up to this (as the stored index keeps it).
MAX_COUNT = 255


class WordPart(NamedTuple):
    """The word index of a few papers as flat arrays: posting k says that
    paper `paper_of[k]` has term `terms[term_of[k]]` `counts[k]` times."""

    ids: list[str]
    lengths: np.ndarray  # float64, each paper's weighted length in words
    terms: str  # one a line (a term has no line break): one object, not one a term
    term_of: np.ndarray  # uint32
    paper_of: np.ndarray  # uint32
    counts: np.ndarray  # uint8
    crcs: Sequence[int] = ()  # of each paper's indexed texts (see texts_crc); empty when not known


class Joined(NamedTuple):
    """The arrays of a whole index, as discovery/word_store.py saves them."""

    ids: list[str]
    lengths: np.ndarray  # float64
    terms: np.ndarray  # bytes, sorted
    starts: np.ndarray  # int64, len(terms) + 1: term i's postings are [starts[i], starts[i + 1])
    papers: np.ndarray  # uint32
    counts: np.ndarray  # uint8

    @property
    def average_length(self) -> float:
        return float(self.lengths.sum()) / len(self.ids) if self.ids else 0.0

    @property
    def norm_lengths(self) -> np.ndarray:
        """BM25's length normalisation per paper (as CompactIndex computes it)."""
        average = self.average_length or 1.0
        return (K1 * (1 - B + B * self.lengths / average)).astype(np.float32)


def _texts(paper: Paper) -> tuple[str, str, str]:
    """The texts a paper is indexed by (as SearchIndex.build takes them)."""
    return paper.readable_title, " ".join(a.name for a in paper.authors), paper.readable_abstract


def texts_crc(paper: Paper) -> int:
    """What identifies the texts a paper is indexed by."""
    return _crc(_texts(paper))


def _crc(texts: tuple[str, str, str]) -> int:
    return text_crc("\x1f".join(texts))


def words_of(papers: Sequence[Paper]) -> WordPart:
    """The word index of these papers (each once), with each one's texts_crc:
    built straight into flat arrays, a paper's postings at a time."""
    vocabulary: dict[str, int] = {}
    known = vocabulary.get
    lengths = array("d")
    term_of = array("I")
    paper_of = array("I")
    counts = array("I")
    crcs: list[int] = []
    for position, paper in enumerate(papers):
        texts = _texts(paper)
        crcs.append(_crc(texts))
        found, length = _weighted_counts(texts)
        lengths.append(length)
        ids = list(map(known, found))
        if None in ids:
            for at, term in enumerate(found):
                if ids[at] is None:
                    ids[at] = vocabulary.setdefault(term, len(vocabulary))
        term_of.extend(ids)
        counts.extend(found.values())
        paper_of.extend(repeat(position, len(ids)))
    return WordPart(
        [paper.id for paper in papers],
        np.frombuffer(lengths, dtype=np.float64).copy(),
        "\n".join(vocabulary),
        np.frombuffer(term_of, dtype=np.uint32).copy(),
        np.frombuffer(paper_of, dtype=np.uint32).copy(),
        np.minimum(np.frombuffer(counts, dtype=np.uint32), MAX_COUNT).astype(np.uint8),
        crcs,
    )


# The terms and length of each whitespace-separated chunk met (see
# _weighted_counts), emptied when full (about 400 bytes a chunk): abstracts
# repeat most of their chunks.
_CHUNK_TERMS: dict[str, tuple[str, ...]] = {}
_CHUNK_LENGTHS: dict[str, int] = {}
_CHUNKS_KEPT = 1 << 15


def _weighted_counts(texts: tuple[str, str, str]) -> tuple[Counter[str], int]:
    """`weighted_terms` counted, and the paper's weighted length, a chunk at a
    time: no term spans a space, so a text's terms are those of its chunks
    between spaces (`index_terms` of each, CJK runs included), and each
    distinct chunk is cut and folded once, not once a paper (the word
    pattern was most of an index's build)."""
    terms, lengths = _CHUNK_TERMS, _CHUNK_LENGTHS
    chunks = [text.split(" ") for text in texts]
    every = list(chain.from_iterable(chunks))
    if not all(map(terms.__contains__, every)):
        if len(terms) + len(every) > _CHUNKS_KEPT:
            terms.clear()
            lengths.clear()
        for chunk in every:
            if chunk not in terms:
                found, length = index_terms(chunk)
                terms[chunk] = tuple(found)
                lengths[chunk] = length
    title, authors, abstract = chunks
    counted = Counter(chain.from_iterable(map(terms.__getitem__, abstract)))
    if ABSTRACT_WEIGHT != 1:
        counted = Counter({term: count * ABSTRACT_WEIGHT for term, count in counted.items()})
    for each, weight in ((title, TITLE_WEIGHT), (authors, AUTHORS_WEIGHT)):
        for term, count in Counter(chain.from_iterable(map(terms.__getitem__, each))).items():
            counted[term] += count * weight
    length = sum(sum(map(lengths.__getitem__, each)) * weight for each, weight in zip(chunks, (TITLE_WEIGHT, AUTHORS_WEIGHT, ABSTRACT_WEIGHT)))
    return counted, length


def part_of_index(index: SearchIndex, crcs: list[int] | None = None) -> WordPart:
    """A SearchIndex's postings as one WordPart."""
    ids: list[str] = []
    lengths: list[np.ndarray] = []
    terms: list[str] = []
    term_of: list[np.ndarray] = []
    paper_of: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    for segment in index.segments:
        base = len(ids)
        ids += segment.ids
        lengths.append(np.frombuffer(segment.lengths, dtype=np.float64))
        for term, (positions, found) in segment.postings.items():
            where = np.frombuffer(positions, dtype=np.uint32)
            term_of.append(np.full(len(where), len(terms), dtype=np.uint32))
            terms.append(term)
            paper_of.append(where + np.uint32(base))
            counts.append(np.minimum(np.frombuffer(found, dtype=np.uint32), MAX_COUNT).astype(np.uint8))
    return WordPart(
        ids,
        np.concatenate(lengths) if lengths else np.zeros(0),
        "\n".join(terms),
        _joined(term_of, np.uint32),
        _joined(paper_of, np.uint32),
        _joined(counts, np.uint8),
        crcs or [],
    )


def part_of_arrays(ids: list[str], lengths: np.ndarray, terms: np.ndarray, rows: np.ndarray, starts: np.ndarray, papers: np.ndarray, counts: np.ndarray) -> WordPart:
    """A stored index's arrays as one WordPart (terms sorted, `rows` giving
    each sorted term's run in `starts`)."""
    term_of_run = np.empty(len(rows), dtype=np.uint32)
    term_of_run[np.asarray(rows, dtype=np.int64)] = np.arange(len(rows), dtype=np.uint32)
    runs = np.diff(np.asarray(starts, dtype=np.int64))
    return WordPart(
        ids,
        np.asarray(lengths, dtype=np.float64),
        b"\n".join(terms.tolist()).decode(),
        np.repeat(term_of_run, runs),
        np.array(papers, dtype=np.uint32),
        np.array(counts, dtype=np.uint8),
    )


def join(parts: Iterable[tuple[WordPart, Sequence[int]]]) -> Joined:
    """One index of the chosen papers of each part ((part, positions of the
    papers taken from it)); a paper must be taken from one part only."""
    vocabulary: dict[str, int] = {}
    ids: list[str] = []
    lengths: list[np.ndarray] = []
    term_of: list[np.ndarray] = []
    paper_of: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    for part, taken in parts:
        take = np.asarray(taken, dtype=np.int64)
        if not len(take):
            continue
        # The part's term numbers in the joined vocabulary.
        terms = part.terms.split("\n") if part.terms else []
        numbers = list(map(vocabulary.get, terms))  # looked up in C; numbered in Python only when new
        if None in numbers:
            for at, term in enumerate(terms):
                if numbers[at] is None:
                    numbers[at] = vocabulary.setdefault(term, len(vocabulary))
        global_term = np.array(numbers, dtype=np.uint32)
        renumbered = np.full(len(part.ids), -1, dtype=np.int64)
        renumbered[take] = np.arange(len(ids), len(ids) + len(take))
        kept = renumbered[part.paper_of]
        mask = kept >= 0
        term_of.append(global_term[part.term_of[mask]])
        paper_of.append(kept[mask].astype(np.uint32))
        counts.append(part.counts[mask])
        ids += (part.ids[i] for i in take.tolist())
        lengths.append(part.lengths[take])
        del kept, mask, renumbered
    encoded = np.array([t.encode() for t in vocabulary], dtype=bytes) if vocabulary else np.zeros(0, dtype="S1")
    del vocabulary
    order = np.argsort(encoded, kind="stable")
    row = np.empty(len(order), dtype=np.uint32)
    row[order] = np.arange(len(order), dtype=np.uint32)
    # Postings as uint32 and each array let go of once used: at 40,000
    # papers a join holds millions of postings, and int64 copies of each
    # array made its peak several times the index's size.
    terms_at = row[_joined(term_of, np.uint32)]
    del term_of
    papers = _joined(paper_of, np.uint32)
    del paper_of
    found = _joined(counts, np.uint8)
    del counts
    starts = np.zeros(len(order) + 1, dtype=np.int64)
    np.cumsum(np.bincount(terms_at, minlength=len(order)), out=starts[1:])
    key = terms_at.astype(np.int64)
    del terms_at
    key *= max(len(ids), 1)
    key += papers
    by_term = np.argsort(key)  # by term, then paper: one key, each pair once
    del key
    return Joined(
        ids,
        np.concatenate(lengths) if lengths else np.zeros(0),
        encoded[order],
        starts,
        papers.take(by_term),
        found.take(by_term),
    )


def _joined(arrays: list[np.ndarray], dtype) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype, copy=False) if arrays else np.zeros(0, dtype=dtype)
