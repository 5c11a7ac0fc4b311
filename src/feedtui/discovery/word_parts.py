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
    """The word index of these papers (each once), with each one's texts_crc."""
    return words_of_texts([paper.id for paper in papers], [_texts(paper) for paper in papers])


def words_of_texts(ids: list[str], texts: Sequence[tuple[str, str, str]]) -> WordPart:
    """The word index of the papers of these ids, each indexed by its (title,
    authors, abstract), with each one's texts_crc.

    Every text is cut at its spaces, and each distinct chunk is cut into
    terms and folded once per process (`_Chunks`); the papers' postings are
    then array work: each chunk occurrence expanded into its terms, weighted
    by its field, and the (paper, term) pairs counted in one sort. Counting
    in Python, a Counter a paper, was most of the time this took."""
    crcs = list(map(_crc, texts))
    pieces = [text.split(" ") for three in texts for text in three]  # title, authors, abstract of each paper
    chunks = _CHUNKS.numbers(list(chain.from_iterable(pieces)))
    fields = np.repeat(np.arange(len(pieces), dtype=np.int64), np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces)))
    paper_at = fields // 3
    weight_at = _FIELD_WEIGHTS[fields % 3]
    lengths = np.bincount(paper_at, weights=_CHUNKS.lengths()[chunks] * weight_at, minlength=len(ids))
    term_at, occurrence = _CHUNKS.expand(chunks)
    vocabulary = _CHUNKS.term_count()
    pairs, where = np.unique(paper_at[occurrence] * vocabulary + term_at, return_inverse=True)
    found = np.bincount(where, weights=weight_at[occurrence])
    used, term_of = np.unique(pairs % vocabulary, return_inverse=True)
    return WordPart(
        ids,
        lengths,
        _CHUNKS.terms_of(used),
        term_of.astype(np.uint32),
        (pairs // vocabulary).astype(np.uint32),
        np.minimum(found, MAX_COUNT).astype(np.uint8),
        crcs,
    )


# Whole numbers: a field's terms are counted that many times (title, authors, abstract).
_FIELD_WEIGHTS = np.array([TITLE_WEIGHT, AUTHORS_WEIGHT, ABSTRACT_WEIGHT], dtype=np.int64)
# Distinct chunks kept (see _Chunks): about 50 bytes each beside their
# texts; abstracts repeat most of their chunks.
_CHUNKS_KEPT = 1 << 16


class _Chunks:
    """Each whitespace-separated chunk met, numbered, with its terms
    (`index_terms`: no term spans a space, so a text's terms are those of its
    chunks, CJK runs included) and its length, as flat arrays. Emptied when
    full; numbers are only ever compared within one call of words_of."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.number: dict[str, int] = {}
        self.first = array("q")  # where each chunk's terms begin in `terms`
        self.count = array("q")  # how many terms each chunk has
        self.length = array("d")  # each chunk's length in words
        self.terms = array("q")  # term numbers
        self.term_number: dict[str, int] = {}
        self.term_list: list[str] = []

    def numbers(self, chunks: list[str]) -> np.ndarray:
        """The chunks' numbers, the new ones cut first (all again when the
        table is full)."""
        # Looked up in C, -1 for a chunk not met yet; cut in Python only when new.
        found = np.fromiter(map(self.number.get, chunks, repeat(-1)), dtype=np.int64, count=len(chunks))
        new = np.flatnonzero(found < 0)
        if len(new):
            if len(self.number) + len(chunks) > _CHUNKS_KEPT:
                self.clear()
                new = range(len(chunks))
            number = self.number
            for at in new.tolist() if isinstance(new, np.ndarray) else new:
                chunk = chunks[at]
                known = number.get(chunk)
                found[at] = self._add(chunk) if known is None else known
        return found

    def _add(self, chunk: str) -> int:
        terms, length = index_terms(chunk)
        term_number = self.term_number
        self.first.append(len(self.terms))
        self.count.append(len(terms))
        self.length.append(length)
        for term in terms:
            known = term_number.get(term)
            if known is None:
                known = term_number[term] = len(self.term_list)
                self.term_list.append(term)
            self.terms.append(known)
        number = self.number[chunk] = len(self.number)
        return number

    def lengths(self) -> np.ndarray:
        return np.frombuffer(self.length, dtype=np.float64)

    def term_count(self) -> int:
        return max(len(self.term_list), 1)

    def expand(self, chunks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The terms of these chunk occurrences, each with the occurrence it is of."""
        count = np.frombuffer(self.count, dtype=np.int64)[chunks]
        first = np.frombuffer(self.first, dtype=np.int64)[chunks]
        total = int(count.sum())
        ends = np.cumsum(count)
        # Term k of the expansion is term (k - where its occurrence begins) of that chunk.
        at = np.arange(total, dtype=np.int64) + np.repeat(first - (ends - count), count)
        return np.frombuffer(self.terms, dtype=np.int64)[at], np.repeat(np.arange(len(chunks), dtype=np.int64), count)

    def terms_of(self, numbers: np.ndarray) -> str:
        listed = self.term_list
        return "\n".join([listed[i] for i in numbers.tolist()])


_CHUNKS = _Chunks()


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
