"""A paper as topic queries see it, prepared so every query tests it quickly.

Each text field starts as its normalised text (`" w1 w2 "`, cheap to make)
and answers word questions by substring search. Searching costs more per
question than a set lookup but saves building the set, so a field builds its
word set only once it has been asked enough to pay for it: tagging a paper
with one new topic stays cheap, tagging it with fifty topics uses the set.
Both ways ask the same question — is one of these forms of the query word a
word of the field — so they give the same answers. Everything is computed on
first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from feedtui.model import Paper, split_arxiv_id
from feedtui.topics._text import PART_BREAK, joined_parts, normalised_text, tokens

# How many substring searches a field answers before it builds its word set.
# Building the set of an abstract costs as much as many searches of it, and
# every later lookup is far cheaper: a few searches first keep tagging with
# one topic (a topic added) cheap, and tagging with every topic no slower than
# building every set at once (bench/bench_retag.py times both).
SEARCH_BUDGET = 8
# What one phrase search (a regular expression) counts against that budget.
_PHRASE_SEARCHES = 3


class TextField:
    """The words of one field of one paper.

    `text` is the normalised text, space-padded. A query word asks for any of
    its forms (itself and, outside author names, the plurals that fold to it):
    as a set of forms against the field's word set once it has one, as padded
    forms (`" gpus "`) searched for in the text until then. `phrase` asks for
    words in order.
    """

    __slots__ = ("_budget", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: set[str] | None = None
        self._budget = SEARCH_BUDGET

    def has(self, forms: frozenset[str], padded: tuple[str, ...]) -> bool:
        """Any of `forms` is a word of the field (`padded`: the same, space-padded)."""
        words = self.words
        if words is None:
            budget = self._budget - len(padded)
            if budget >= 0:
                self._budget = budget
                return any(map(self.text.__contains__, padded))
            words = self.index()
        return not words.isdisjoint(forms)

    def has_all(self, forms: tuple[frozenset[str], ...], padded: tuple[tuple[str, ...], ...]) -> bool:
        """For every word, one of its forms is a word of the field."""
        words = self.words
        if words is None:
            budget = self._budget - sum(map(len, padded))
            if budget >= 0:
                self._budget = budget
                contains = self.text.__contains__
                return all(any(map(contains, word_padded)) for word_padded in padded)
            words = self.index()
        return not any(map(words.isdisjoint, forms))

    def phrase(self, forms: tuple[frozenset[str], ...], pattern: re.Pattern[str]) -> bool:
        """The words in order (`pattern` searches the text); with a word set,
        the words' presence is checked first, which usually settles it."""
        words = self.words
        if words is None:
            budget = self._budget - _PHRASE_SEARCHES
            if budget >= 0:
                self._budget = budget
                return pattern.search(self.text) is not None
            words = self.index()
        return not any(map(words.isdisjoint, forms)) and pattern.search(self.text) is not None

    def index(self) -> set[str]:
        """Build the word set (the words as written)."""
        words = set(self.text.split())
        words.discard(PART_BREAK)
        self.words = words
        return words


_EMPTY = TextField("  ")
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

    Attributes: `ti`, `abs`, `co`, `jr`, `au` (`TextField`s; between two
    authors a break), `all` (all of those plus categories and id, a break
    between fields), `cats` (lower-cased category ids), `cats_text` (the same
    space-joined, for prefixes) and `id` (the lower-cased arXiv id without its
    version).

    `build` only keeps the texts; each attribute is computed the first time a
    query reads it (`__getattr__` runs only while its slot is still empty, so
    later reads are plain slot reads). A topic filtered by category never
    looks at the abstracts of papers outside its categories.
    """

    __slots__ = (
        "_abstract",
        "_authors",
        "_categories",
        "_comment",
        "_id",
        "_journal_ref",
        "_title",
        "abs",
        "all",
        "au",
        "cats",
        "cats_text",
        "co",
        "id",
        "jr",
        "ti",
    )

    ti: TextField
    abs: TextField
    co: TextField
    jr: TextField
    au: TextField
    all: TextField
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
        """The match view of one paper. `title` and `abstract` are the display
        forms (LaTeX already rendered); matching uses exactly the text given."""
        doc = cls.__new__(cls)
        doc._id = id
        doc._title = title
        doc._abstract = abstract
        doc._authors = authors
        doc._categories = categories
        doc._comment = comment
        doc._journal_ref = journal_ref
        return doc

    @classmethod
    def from_paper(cls, paper: Paper) -> MatchDoc:
        """The match view of a cached paper, on its display (LaTeX-rendered) text."""
        return cls.build(
            id=paper.id,
            title=paper.readable_title,
            abstract=paper.readable_abstract,
            authors=[author.name for author in paper.authors],
            categories=paper.categories or ((paper.primary_category,) if paper.primary_category else ()),
            comment=paper.comment,
            journal_ref=paper.journal_ref,
        )

    @classmethod
    def prepared(
        cls, id: str, ti: str, abstract: str, au: str, co: str, jr: str, categories: Sequence[str]
    ) -> MatchDoc:
        """The match view from texts already normalised (`texts()` of an equal
        paper, as stored beside the cache): title, abstract, authors, comment
        and journal reference, "" for an empty one."""
        doc = cls.__new__(cls)
        doc._id = id
        doc._categories = categories
        doc.ti = TextField(ti) if ti else _EMPTY
        doc.abs = TextField(abstract) if abstract else _EMPTY
        doc.au = TextField(au) if au else _EMPTY
        doc.co = TextField(co) if co else _EMPTY
        doc.jr = TextField(jr) if jr else _EMPTY
        return doc

    def texts(self) -> tuple[str, str, str, str, str]:
        """The normalised title, abstract, authors, comment and journal
        reference ("" for an empty one): what `prepared` takes back."""
        ti, abstract, au, co, jr = (
            "" if field is _EMPTY else field.text for field in (self.ti, self.abs, self.au, self.co, self.jr)
        )
        return ti, abstract, au, co, jr

    def __getattr__(self, name: str) -> object:
        compute = _COMPUTED.get(name)
        if compute is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = compute(self)
        object.__setattr__(self, name, value)
        return value

    def _all_field(self) -> TextField:
        texts = [field.text for field in (self.ti, self.abs, self.au, self.co, self.jr)]
        texts.append(normalised_text(joined_parts(sorted(self.cats))))
        texts.append(" ".join(tokens(self.id)))
        return TextField(" " + f" {PART_BREAK} ".join(texts) + " ")


def _text_field(text: str) -> TextField:
    return TextField(normalised_text(text)) if text else _EMPTY


def _authors_field(doc: MatchDoc) -> TextField:
    return TextField(normalised_text(joined_parts(doc._authors))) if doc._authors else _EMPTY


def _categories(doc: MatchDoc) -> frozenset[str]:
    return frozenset(c.strip().casefold() for c in doc._categories if c.strip())


_COMPUTED: dict[str, Callable[[MatchDoc], object]] = {
    "ti": lambda doc: _text_field(doc._title),
    "abs": lambda doc: _text_field(doc._abstract),
    "co": lambda doc: _text_field(doc._comment),
    "jr": lambda doc: _text_field(doc._journal_ref),
    "au": _authors_field,
    "all": MatchDoc._all_field,
    "cats": _categories,
    "cats_text": lambda doc: " " + " ".join(sorted(doc.cats)) + " ",
    "id": lambda doc: _base_id(doc._id),
}
