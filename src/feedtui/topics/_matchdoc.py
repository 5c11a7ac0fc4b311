"""A paper pre-processed once so that every topic query can test it quickly.

Single query words are set lookups; the space-joined strings phrases and
wildcards need are built only when a query first asks for them (a phrase is
checked against the text only once all its words are known to be present).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from feedtui.model import Paper, split_arxiv_id
from feedtui.topics._text import FOLDS, PART_BREAK, tokens, tokens_of_parts


class TextField:
    """The words of one field of one paper.

    `words` holds every word as written (normalised) and, for folded fields,
    its singular too: a query word, folded the same way, is then one lookup.
    """

    __slots__ = ("_folded", "_raw", "folds", "toks", "words")

    def __init__(self, toks: list[str], *, fold: bool) -> None:
        self.toks = toks
        words = set(toks)
        words.discard(PART_BREAK)
        self.folds: dict[str, str] = FOLDS.folds(words) if fold else {}
        if self.folds:
            words.update(self.folds.values())
        self.words = words
        self._raw: str | None = None
        self._folded: str | None = None

    def raw(self) -> str:
        """The words as written, space-joined and space-padded (for wildcards)."""
        if self._raw is None:
            self._raw = " " + " ".join(self.toks) + " "
        return self._raw

    def folded(self) -> str:
        """The folded words, space-joined and space-padded (for phrases)."""
        if self._folded is None:
            if self.folds:
                get = self.folds.get
                self._folded = " " + " ".join(map(get, self.toks, self.toks)) + " "
            else:
                self._folded = self.raw()
        return self._folded


_EMPTY_FIELD = TextField([], fold=False)
_PLAIN_ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?")


def _base_id(text: str) -> str:
    """The lower-cased id without its version; ids not from arXiv as given."""
    plain = _PLAIN_ARXIV_ID.fullmatch(text)
    if plain:
        return plain.group(1).casefold()
    split = split_arxiv_id(text)
    return (split[0] if split else text.strip()).casefold()


class MatchDoc:
    """One paper as the query matcher sees it. Build it with `MatchDoc.build`.

    Fields: `ti`, `abs`, `co`, `jr` (plural-folded words), `au` (author names,
    not folded; a break between two authors), `cats` (lower-cased category
    ids) and `cats_text` (the same, space-joined, for prefixes), `id` (the
    lower-cased arXiv id without version), and `all` (built on first use).
    """

    __slots__ = ("_all", "abs", "au", "cats", "cats_text", "co", "id", "jr", "ti")

    ti: TextField
    abs: TextField
    co: TextField
    jr: TextField
    au: TextField
    cats: frozenset[str]
    cats_text: str
    id: str

    @classmethod
    def build(
        cls,
        *,
        id: str,
        title: str,
        abstract: str,
        authors: Sequence[str],
        categories: Sequence[str],
        comment: str = "",
        journal_ref: str = "",
    ) -> MatchDoc:
        """Pre-process one paper. `title` and `abstract` are the display forms
        (LaTeX already rendered); matching uses exactly the text given."""
        doc = cls.__new__(cls)
        doc.ti = TextField(tokens(title), fold=True) if title else _EMPTY_FIELD
        doc.abs = TextField(tokens(abstract), fold=True) if abstract else _EMPTY_FIELD
        doc.co = TextField(tokens(comment), fold=True) if comment else _EMPTY_FIELD
        doc.jr = TextField(tokens(journal_ref), fold=True) if journal_ref else _EMPTY_FIELD
        doc.au = TextField(tokens_of_parts(authors), fold=False) if authors else _EMPTY_FIELD
        cats = [c.strip().casefold() for c in categories if c.strip()]
        doc.cats = frozenset(cats)
        doc.cats_text = " " + " ".join(cats) + " "
        doc.id = _base_id(id)
        doc._all = None
        return doc

    @classmethod
    def from_paper(cls, paper: Paper) -> MatchDoc:
        """The match view of a cached paper, on its display (LaTeX-rendered) text."""
        return cls.build(
            id=paper.id,
            title=paper.title_display or paper.title,
            abstract=paper.abstract_display or paper.abstract,
            authors=[author.name for author in paper.authors],
            categories=paper.categories or ((paper.primary_category,) if paper.primary_category else ()),
            comment=paper.comment,
            journal_ref=paper.journal_ref,
        )

    @property
    def all(self) -> TextField:
        """Title, abstract, authors, comment, journal ref, categories and id as
        one folded field, with a break between fields."""
        field = self._all
        if field is None:
            parts: list[str] = []
            for toks in (self.ti.toks, self.abs.toks, self.au.toks, self.co.toks, self.jr.toks):
                if toks:
                    parts.extend(toks)
                    parts.append(PART_BREAK)
            parts.extend(tokens_of_parts(sorted(self.cats)))
            parts.append(PART_BREAK)
            parts.extend(tokens(self.id))
            field = self._all = TextField(parts, fold=True)
        return field
