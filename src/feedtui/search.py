"""Ask about this topic: BM25 ranking over the topic's papers.

Fields are weighted: a query word in the title counts three times, in an
author's name twice, in the abstract once. Words are compared case- and
accent-insensitively after the same plural folding the topic queries use
(`networks` finds `network`), with a possessive's `'s` dropped (`model's`
finds `model`; the `'` of `models'` is never part of a word), and then by
their English stem (`feedtui.discovery.stem`: `scheduling` finds
`scheduler`, `offloading` finds `offload`). Common English words in the question are
ignored, so "papers about pipeline parallelism" ranks by its content words.

Chinese, Japanese and Korean runs have no spaces to find words by; they are
indexed as character bigrams and single characters (see
`feedtui.text.cjk`), and a question's run is looked up as its bigrams (a
single character as itself), so `注意力` finds `稀疏注意力机制`. A run's
length for BM25 is its number of characters.

A hyphenated compound is indexed as a whole and as its parts, so `tenant`
finds `Multi-Tenant`; a compound in a question is looked up the same way,
so `KV-cache` finds `KV cache` too, and ranks `KV-cache` higher. The parts
add no length: a text without hyphens scores as it did.

A one-character word (`k` of `k-means`, `4` of `GPT-4`, an author's
initial) is in nearly every paper and says nothing on its own: a question
asks it only when it has nothing longer (`C++`, `O(n^2)`). Words of one or
two characters are highlighted only as whole words.
"""

from __future__ import annotations

import math
import re
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from feedtui.discovery.stem import stem
from feedtui.model import Paper
from feedtui.text.cjk import NON_CJK_WORD_CHAR, bigrams, cjk_run, normalize_run

K1 = 1.2
B = 0.75
# Whole numbers: a field's words are counted that many times.
TITLE_WEIGHT = 3
AUTHORS_WEIGHT = 2
ABSTRACT_WEIGHT = 1

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
STOPWORDS = frozenset(
    """a about an and any are as at be by can do does for from has have how i in into is it its
    me more most my of on or our papers paper show some such than that the their them there these
    they this those to using via was we what when where which who why will with work works you""".split()
)


def fold(word: str) -> str:
    """A word as the index compares it: case, accents and plurals aside."""
    folded = _FOLDED.get(word)
    if folded is None:
        if len(_FOLDED) >= _FOLDED_SIZE:
            _FOLDED.clear()
        folded = _FOLDED[word] = _fold(word)
    return folded


# Folded words by word: a topic's papers repeat a few thousand words hundreds
# of thousands of times, and folding was most of the time an index took to
# build. Cleared when full, which is rare and cheap.
_FOLDED: dict[str, str] = {}
_FOLDED_SIZE = 200_000


def _fold(word: str) -> str:
    if word.isascii():
        word = word.lower()  # casefold, for ASCII; and nothing to decompose
    else:
        word = unicodedata.normalize("NFKD", word.casefold())
        word = "".join(ch for ch in word if not unicodedata.combining(ch))
    return stem(singular(without_possessive(word)))


def singular(word: str) -> str:
    """`word` with a plural ending dropped (`networks` → `network`,
    `policies` → `policy`, `boxes` → `box`), in its own letter case."""
    ending = word[-3:].lower()
    if len(word) > 4 and ending == "ies":
        return word[:-3] + ("Y" if word[-3:].isupper() else "y")
    if len(word) > 3 and ending[1:] == "es" and ending[0] in "sxz":
        return word[:-2]
    if len(word) > 3 and ending[-1:] == "s" and ending[-2:] != "ss":
        return word[:-1]
    return word


def _folded(words: list[str]) -> list[str]:
    """`fold` of each word: looked up in C, and folded in Python only where
    the cache has not seen the word (a call per word was a third of a build)."""
    folded = list(map(_FOLDED.get, words))
    if None in folded:
        folded = [fold(word) if known is None else known for word, known in zip(words, folded)]
    return folded


def without_possessive(word: str) -> str:
    """`word` without a final `'s`: `model's` → `model`."""
    return word[:-2] if word.endswith(("'s", "'S")) else word


def index_terms(text: str) -> tuple[list[str], int]:
    """The terms `text` is indexed under, and its length in words (a CJK run
    counts its characters, not its bigrams as well)."""
    tokens = _WORD.findall(text)
    if text.isascii() or not _has_cjk_word(tokens):
        words = _folded(tokens)
        if "-" in text:
            words += _folded(_compound_parts(tokens))
        return words, len(tokens)
    terms: list[str] = []
    length = 0
    for part, is_cjk in _split_cjk(tokens):
        if is_cjk:
            run = normalize_run(part)
            terms += run
            if len(run) > 1:
                terms += bigrams(run)
            length += len(run)
        else:
            terms.append(fold(part))
            terms += map(fold, _compound_parts((part,)))
            length += 1
    return terms, length


def weighted_terms(title: str, authors: str, abstract: str) -> tuple[list[str], int]:
    """A paper's terms, each as often as it counts (a title's words weigh
    more than the abstract's), and the paper's length so weighted."""
    terms: list[str] = []
    length = 0
    for text, weight in ((title, TITLE_WEIGHT), (authors, AUTHORS_WEIGHT), (abstract, ABSTRACT_WEIGHT)):
        words, count = index_terms(text)
        length += count * weight
        terms += words * weight
    return terms, length


def _has_cjk_word(words: list[str]) -> bool:
    """Whether a CJK run is in `words`. Only the few words outside ASCII are
    looked at: searching a whole abstract for CJK was a large part of an
    index's build (an abstract with LaTeX is rarely pure ASCII)."""
    run = cjk_run()
    return any(run.search(word) for word in words if not word.isascii())


def _compound_parts(words: Iterable[str]) -> list[str]:
    """The parts of the hyphenated words among `words`: `multi-tenant` → `multi`, `tenant`."""
    return [part for word in words if "-" in word for part in word.split("-")]


def _split_cjk(words: list[str]) -> list[tuple[str, bool]]:
    """Words with their CJK runs cut out: `GPU加速` → (`GPU`, False), (`加速`, True)."""
    parts: list[tuple[str, bool]] = []
    cjk = cjk_run()
    for word in words:
        if word.isascii() or not cjk.search(word):
            parts.append((word, False))
            continue
        start = 0
        for run in cjk.finditer(word):
            parts += ((w, False) for w in _WORD.findall(word[start : run.start()]))
            parts.append((run.group(), True))
            start = run.end()
        parts += ((w, False) for w in _WORD.findall(word[start:]))
    return parts


def _content_parts(question: str) -> list[tuple[str, bool]]:
    """The question's words without common ones, nor single characters
    beside longer words; a hyphenated word is followed by its parts, so that
    the question finds it written either way."""
    words = []
    for word in map(without_possessive, _WORD.findall(question)):
        words += (w for w in (word, *_compound_parts((word,))) if w.casefold() not in STOPWORDS)
    parts = _split_cjk(words)
    # A CJK character is a word; a Latin letter or a digit is not.
    longer = [(part, is_cjk) for part, is_cjk in parts if is_cjk or len(fold(part)) > 1]
    return longer or parts


def has_words(question: str) -> bool:
    """Whether `question` has any word at all, common or not (`!!!` has none)."""
    return _WORD.search(question) is not None


def query_terms(question: str) -> list[str]:
    """The question's content words, folded, in order, without repeats; a
    CJK run stands for its bigrams."""
    terms: list[str] = []
    for part, is_cjk in _content_parts(question):
        terms += bigrams(normalize_run(part)) if is_cjk else [fold(part)]
    return list(dict.fromkeys(terms))


def highlight_words(question: str) -> tuple[str, ...]:
    """The words to highlight in cards: the question's content words as typed
    (a CJK run on its own, to be marked wherever it occurs)."""
    return tuple(dict.fromkeys(part for part, _ in _content_parts(question)))


# Words this long or shorter are highlighted only whole: as prefixes, `n` or
# `KV` would mark every word they start. It is also where plural folding
# stops: `fold` drops no `s` from a word of three characters or fewer, so
# `KVs` is not `KV` in the index either, and a whole-word mark agrees with it.
SHORT_WORD = 2


def highlight_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """Case-insensitive matches of `words`: a word at the start of a word,
    running on to the end of the word it starts and its possessive `'s`
    (`graph` marks `graphs` and `graph's`, not `paragraph`); a short word
    only whole (`n` marks `n` and `n's`, not `network`); a plural also its
    singular, which the ranking finds it by, whole or as a plural (`decodings`
    marks `decoding`, `lenses` marks `lens`, not `length`); a CJK run
    wherever it occurs, and only its own characters. A word's run-on stops
    at CJK, which has no word ends to stop at.
    """
    cleaned = sorted(set(words) - {""}, key=len, reverse=True)
    if not cleaned:
        return None
    return re.compile("|".join(map(_highlight_alternative, cleaned)), re.IGNORECASE)


def _highlight_alternative(word: str) -> str:
    if cjk_run().fullmatch(word):
        return re.escape(word)
    char = NON_CJK_WORD_CHAR
    possessive = rf"(?:'s(?!{char}))?"
    start = rf"(?<!{char}){re.escape(word)}"
    if len(word) <= SHORT_WORD:
        # Not followed by more of a word, nor by an apostrophe inside one (`O'Brien`).
        return rf"{start}{possessive}(?!{char}|'{char})"
    prefix = rf"{start}{char}*{possessive}"
    # The other forms of the word's stem, as the ranking finds them: `scheduling` marks `scheduler`.
    root = stem(singular(word.casefold()))
    if len(root) > 3 and len(root) < len(word) and word.casefold().startswith(root):
        prefix = rf"(?<!{char}){re.escape(root)}{char}*{possessive}"
    one = singular(word)
    if one == word:
        return prefix
    if one[-1:] in "yY" and word[-3:].lower() == "ies":
        forms = rf"{re.escape(one[:-1])}(?:y|ies)"
    else:
        forms = rf"{re.escape(one)}(?:e?s)?"
    return rf"{prefix}|(?<!{char}){forms}{possessive}(?!{char})"


@dataclass(slots=True)
class _Segment:
    """The index of some of a topic's papers: for each term, the positions (in
    `ids`) of the papers that have it, and its weighted count in each."""

    ids: list[str]
    lengths: array
    postings: dict[str, tuple[array, array]]


@dataclass(slots=True)
class SearchIndex:
    """BM25 over a topic's papers, held as inverted lists: a question looks at
    the papers that have its words, and a part built in another process comes
    back as a few arrays per word, not as a counter per paper. Parts built
    apart (`merged`) rank as one index of all their papers."""

    segments: list[_Segment]
    count: int
    average_length: float

    @classmethod
    def build(cls, papers: Iterable[Paper]) -> SearchIndex:
        """The index of `papers`, each given once (a paper given twice would
        be one answer with both scores added)."""
        return cls.from_texts(
            (paper.id, paper.readable_title, " ".join(a.name for a in paper.authors), paper.readable_abstract)
            for paper in papers
        )

    @classmethod
    def from_texts(cls, texts: Iterable[tuple[str, str, str, str]]) -> SearchIndex:
        """The index of (paper id, title, authors' names, abstract) rows."""
        ids: list[str] = []
        lengths = array("d")
        postings: dict[str, tuple[array, array]] = {}
        posting = postings.get
        for paper_id, title, authors, abstract in texts:
            terms, length = weighted_terms(title, authors, abstract)
            position = len(ids)
            ids.append(paper_id)
            lengths.append(length)
            # The weighted counts come from Counter, in C; the loop adds one
            # posting per term (most of a build's time after the words').
            for term, weighted in Counter(terms).items():
                entry = posting(term)
                if entry is None:
                    entry = postings[term] = (array("I"), array("I"))
                entry[0].append(position)
                entry[1].append(weighted)
        return cls._of([_Segment(ids, lengths, postings)])

    @classmethod
    def merged(cls, parts: Iterable[SearchIndex]) -> SearchIndex:
        """One index of the papers of `parts` (each paper in one part only)."""
        return cls._of([segment for part in parts for segment in part.segments])

    @classmethod
    def _of(cls, segments: list[_Segment]) -> SearchIndex:
        count = sum(len(s.ids) for s in segments)
        # Lengths are whole numbers: their sum is exact in any order.
        total = sum(sum(s.lengths) for s in segments)
        return cls(segments, count, total / count if count else 0.0)

    @property
    def ids(self) -> list[str]:
        """The indexed papers, part by part."""
        return [paper_id for segment in self.segments for paper_id in segment.ids]

    def rank(self, question: str, limit: int | None = None) -> list[tuple[str, float]]:
        """(paper id, score) for every paper matching at least one term, best first."""
        terms = query_terms(question)
        if not terms or not self.count:
            return []
        n = self.count
        average = self.average_length or 1.0
        scores: dict[str, float] = {}
        for term in terms:
            found = [s for s in self.segments if term in s.postings]
            df = sum(len(s.postings[term][0]) for s in found)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for segment in found:
                ids, lengths = segment.ids, segment.lengths
                for position, tf in zip(*segment.postings[term]):
                    norm = K1 * (1 - B + B * lengths[position] / average)
                    paper_id = ids[position]
                    scores[paper_id] = scores.get(paper_id, 0.0) + idf * tf * (K1 + 1) / (tf + norm)
        scored = [(paper_id, score) for paper_id, score in scores.items() if score > 0]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:limit] if limit else scored


def index_shard_files(jobs: Sequence[tuple[str, Sequence[str]]]) -> SearchIndex:
    """The index of the given papers of cache shard files ((path, paper ids)
    each): a part of a large topic's index, built in a worker process from
    the files themselves (see `Engine.search_index`). Papers not in their
    file are left out, as `PaperCache.get_papers` leaves them out."""
    from feedtui.store.cache import read_documents
    from feedtui.store.codec import doc_search_texts

    def texts() -> Iterator[tuple[str, str, str, str]]:
        for path, ids in jobs:
            docs = read_documents(Path(path))
            for paper_id in ids:
                doc = docs.get(paper_id)
                if doc is not None:
                    yield (paper_id, *doc_search_texts(doc))

    return SearchIndex.from_texts(texts())


def rank_papers(papers: Sequence[Paper], question: str) -> list[tuple[str, float]]:
    return SearchIndex.build(papers).rank(question)
