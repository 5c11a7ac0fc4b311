"""What Related and the author lists need of every cached paper: its
authors (as keys) and its categories, held by position (titles are the
library's).

Held compactly: each distinct author and category once, as a string in a
table, and the papers' lists as integer arrays, with the inverse (each
author's papers) as one sorted array. A list and a string per paper and
author cost several times the memory, for as long as the reader keeps the
corpus.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from feedtui.discovery.authors import author_key


class Corpus:
    __slots__ = ("ids", "pos", "_names", "_keys", "_author_at", "_author_of", "_category_names", "_category_at", "_category_of", "_papers_at", "_papers_of")

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self._names: dict[str, int] = {}  # author key → number
        self._keys: list[str] = []  # number → author key
        # Paper i's authors are _author_of[_author_at[i]:_author_at[i + 1]]; likewise categories.
        self._author_at = array("I", [0])
        self._author_of = array("I")
        self._category_names: list[str] = []
        self._category_at = array("I", [0])
        self._category_of = array("I")
        # Author a's papers are _papers_of[_papers_at[a]:_papers_at[a + 1]], in order.
        self._papers_at = array("I", [0])
        self._papers_of = array("I")

    @classmethod
    def build(cls, rows: Iterable[tuple[str, Iterable[str], Iterable[str]]]) -> Corpus:
        """From (paper id, authors' keys as `author_key` makes them, categories) rows."""
        corpus = cls()
        names = corpus._names
        categories: dict[str, int] = {}
        ids, pos = corpus.ids, corpus.pos
        author_at, author_of = corpus._author_at, corpus._author_of
        category_at, category_of = corpus._category_at, corpus._category_of
        for paper_id, keys, cats in rows:
            pos[paper_id] = len(ids)
            ids.append(paper_id)
            author_of.extend(names.setdefault(k, len(names)) for k in dict.fromkeys(keys) if k)
            author_at.append(len(author_of))
            category_of.extend(categories.setdefault(c, len(categories)) for c in dict.fromkeys(cats))
            category_at.append(len(category_of))
        corpus._category_names = list(categories)
        corpus._keys = list(names)
        corpus._index_authors()
        return corpus

    def _index_authors(self) -> None:
        """Each author's papers, in paper order (a counting sort by author)."""
        counts = [0] * (len(self._names) + 1)
        for author in self._author_of:
            counts[author + 1] += 1
        for a in range(len(self._names)):
            counts[a + 1] += counts[a]
        papers_at = array("I", counts)
        filled = counts[:-1]
        papers_of = array("I", bytes(4 * len(self._author_of)))
        at = self._author_at
        for paper in range(len(self.ids)):
            for k in range(at[paper], at[paper + 1]):
                author = self._author_of[k]
                papers_of[filled[author]] = paper
                filled[author] += 1
        self._papers_at, self._papers_of = papers_at, papers_of

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def authors(self) -> _Lists:
        """Each paper's authors' keys (corpus.authors[i])."""
        return _Lists(self._author_at, self._author_of, self._keys.__getitem__)

    @property
    def categories(self) -> _Lists:
        """Each paper's categories (corpus.categories[i])."""
        return _Lists(self._category_at, self._category_of, self._category_names.__getitem__)

    def by_name(self, name: str) -> list[int]:
        """Positions of the papers an author of this name wrote."""
        author = self._names.get(author_key(name))
        return [] if author is None else self._papers(author).tolist()

    def _papers(self, author: int) -> array:
        return self._papers_of[self._papers_at[author] : self._papers_at[author + 1]]

    def coauthored(self, position: int) -> dict[int, int]:
        """Other papers sharing authors with this one: position → how many authors shared."""
        shared: dict[int, int] = {}
        at = self._author_at
        for k in range(at[position], at[position + 1]):
            for other in self._papers(self._author_of[k]):
                if other != position:
                    shared[other] = shared.get(other, 0) + 1
        return shared


class _Lists:
    """Read-only per-paper lists over a corpus's arrays: `lists[i]` is a tuple."""

    __slots__ = ("_at", "_of", "_name")

    def __init__(self, at: array, of: array, name) -> None:
        self._at, self._of, self._name = at, of, name

    def __len__(self) -> int:
        return len(self._at) - 1

    def __getitem__(self, position: int) -> tuple[str, ...]:
        return tuple(map(self._name, self._of[self._at[position] : self._at[position + 1]]))
