"""What Related and the author lists need of every cached paper: its
authors (as keys) and its categories, held by position (titles are the
library's)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from feedtui.discovery.authors import author_key


@dataclass(slots=True)
class Corpus:
    ids: list[str] = field(default_factory=list)
    authors: list[tuple[str, ...]] = field(default_factory=list)
    categories: list[tuple[str, ...]] = field(default_factory=list)
    pos: dict[str, int] = field(default_factory=dict)
    by_author: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def build(cls, rows: Iterable[tuple[str, Iterable[str], Iterable[str]]]) -> Corpus:
        """From (paper id, authors' keys as `author_key` makes them, categories) rows."""
        corpus = cls()
        by_author = corpus.by_author
        for paper_id, names, categories in rows:
            position = len(corpus.ids)
            keys = tuple(dict.fromkeys(k for k in names if k))
            corpus.ids.append(paper_id)
            corpus.authors.append(keys)
            corpus.categories.append(tuple(categories))
            corpus.pos[paper_id] = position
            for key in keys:
                by_author.setdefault(key, []).append(position)
        return corpus

    def __len__(self) -> int:
        return len(self.ids)

    def by_name(self, name: str) -> list[int]:
        """Positions of the papers an author of this name wrote."""
        return self.by_author.get(author_key(name), [])

    def coauthored(self, position: int) -> dict[int, int]:
        """Other papers sharing authors with this one: position → how many authors shared."""
        shared: dict[int, int] = {}
        for key in self.authors[position]:
            for other in self.by_author.get(key, ()):
                if other != position:
                    shared[other] = shared.get(other, 0) + 1
        return shared
