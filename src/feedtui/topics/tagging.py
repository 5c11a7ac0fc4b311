"""Deciding which topics a paper belongs to.

A paper belongs to a topic when
- the topic has categories or feeds: the paper is in one of those categories or
  came from one of those feeds, and matches the topic's query if it has one;
- the topic is a bare query: the query matches the paper locally;
- or the arXiv API returned the paper for that topic's own query
  (`Paper.fetched_for` holds the topic's `fetch_key`), whatever local
  evaluation says. arXiv stems words and reads fields its own way, so the two
  can disagree; a request made for one topic alone settles it for that topic.
  A request that combines several topics' queries cannot say which topic a
  paper answered, so there local evaluation alone decides (see
  `feedtui.core.fetch`). The key carries a digest of the query sent: after the
  topic's query changes, what the old query fetched no longer counts.

Tagging runs for every new paper against every topic, and for the whole cache
when a topic changes, so `Tagger` avoids evaluating what cannot match: topics
are indexed by the feeds and categories a paper must have (a topic's own
categories and feeds, or the `cat:` terms a query requires, as in the
catalogue's `(cat:cs.DC OR cat:cs.AR) AND (…)`), and only the topics a paper's
sources and categories point at, plus those with no such gate, are evaluated.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from feedtui.model import Paper
from feedtui.slot_record import SlotRecord
from feedtui.topics.query import And, AndNot, MatchDoc, Or, Query, Term, compile_query
from feedtui.topics.registry import MATCHER_VERSION, TopicEntry


def normalise_feed_url(url: str) -> str:
    return url.strip().rstrip("/")


class CategoryGate(SlotRecord):
    """A paper must be in one of these categories (lower case) or under one of these prefixes.

    (Plain slotted classes here, not dataclasses: tagging is imported on the
    way to the reader's first paint, see slot_record.py.)"""

    __slots__ = ("exact", "prefixes")

    def __init__(self, exact: frozenset[str], prefixes: tuple[str, ...]) -> None:
        self.exact = exact
        self.prefixes = prefixes

    def admits(self, categories: Iterable[str]) -> bool:
        for category in categories:
            folded = category.lower()
            if folded in self.exact or (self.prefixes and folded.startswith(self.prefixes)):
                return True
        return False


def query_category_gate(query: Query) -> CategoryGate | None:
    """The categories a paper needs for `query` to match it, if the query says so.

    `cat:x` needs x; `a OR b` needs what a or b needs (only if both need some);
    `a AND b` needs what any one operand needs; `a ANDNOT b` what a needs.
    """
    if isinstance(query, Term):
        if query.field != "cat":
            return None
        text = query.text.lower()
        if query.wildcard:
            return CategoryGate(frozenset(), (text,))
        return CategoryGate(frozenset({text}), ())
    if isinstance(query, Or):
        gates = [query_category_gate(child) for child in query.children]
        if any(gate is None for gate in gates):
            return None
        return CategoryGate(
            frozenset().union(*(g.exact for g in gates)),  # type: ignore[union-attr]
            tuple(p for g in gates for p in g.prefixes),  # type: ignore[union-attr]
        )
    if isinstance(query, And):
        gates = [g for g in (query_category_gate(child) for child in query.children) if g is not None]
        return min(gates, key=lambda g: len(g.exact) + 10 * len(g.prefixes)) if gates else None
    if isinstance(query, AndNot):
        return query_category_gate(query.include)
    return None


class TopicMatcher(SlotRecord):
    __slots__ = ("name", "signature", "query", "scope", "feeds", "query_gate", "fetch_key")

    def __init__(
        self,
        name: str,
        signature: str,
        query: object | None,  # a compiled matcher: MatchDoc -> bool
        # The topic's own scope: its categories and feeds.
        scope: CategoryGate | None,
        feeds: frozenset[str],
        # Categories the query itself requires (None: no such requirement).
        query_gate: CategoryGate | None = None,
        # `TopicEntry.fetch_key`: papers fetched for this topic alone carry it.
        fetch_key: str = "",
    ) -> None:
        self.name = name
        self.signature = signature
        self.query = query
        self.scope = scope
        self.feeds = feeds
        self.query_gate = query_gate
        self.fetch_key = fetch_key

    @classmethod
    def for_entry(cls, entry: TopicEntry) -> TopicMatcher | None:
        """None for a topic that cannot match anything (its query has an error)."""
        if entry.error:
            return None
        definition = entry.topic.definition
        exact: set[str] = set()
        prefixes: list[str] = []
        for category in definition.categories:
            folded = category.lower()
            if folded.endswith(".*"):
                prefixes.append(folded[:-1])
            elif "." not in folded:
                prefixes.append(folded + ".")
                exact.add(folded)
            else:
                exact.add(folded)
        scope = CategoryGate(frozenset(exact), tuple(prefixes)) if (exact or prefixes) else None
        return cls(
            name=entry.name,
            signature=entry.signature,
            query=compile_query(entry.query) if entry.query is not None else None,
            scope=scope,
            feeds=frozenset(normalise_feed_url(f) for f in definition.feeds),
            query_gate=query_category_gate(entry.query) if entry.query is not None else None,
            fetch_key=entry.fetch_key,
        )

    @property
    def has_scope(self) -> bool:
        return self.scope is not None or bool(self.feeds)

    def matches(self, doc: MatchDoc, categories: Sequence[str], sources: Sequence[str]) -> bool:
        """The plain rule, without the index (the Tagger gives the same answers faster)."""
        if self.has_scope:
            in_scope = (self.scope is not None and self.scope.admits(categories)) or (
                bool(self.feeds) and any(normalise_feed_url(s) in self.feeds for s in sources)
            )
            if not in_scope:
                return False
        if self.query is None:
            return self.has_scope
        return self.query(doc)  # type: ignore[operator]


# A paper evaluated against this many topics or more has its abstract's
# word set built at once: its queries ask the abstract more than the field's
# search budget (see topics/_matchdoc.py), so the searches made before the set
# would be spent in vain. The answers are the same either way.
WORD_SET_TOPICS = 4


class Tagger:
    """Evaluates, for each paper, only the topics its feeds and categories allow."""

    def __init__(self, matchers: Sequence[TopicMatcher]) -> None:
        self.matchers = list(matchers)
        self.names = [m.name for m in self.matchers]
        self._by_feed: dict[str, list[int]] = {}
        self._by_category: dict[str, list[int]] = {}
        self._by_prefix: list[tuple[str, int]] = []
        self._ungated: list[int] = []
        self._fetched_by = {m.fetch_key: m.name for m in self.matchers if m.fetch_key}
        for number, matcher in enumerate(self.matchers):
            for feed in matcher.feeds:
                self._by_feed.setdefault(feed, []).append(number)
            gate = matcher.scope if matcher.has_scope else matcher.query_gate
            if matcher.has_scope and matcher.scope is None:
                continue  # feeds only
            if gate is None:
                self._ungated.append(number)
                continue
            for category in gate.exact:
                self._by_category.setdefault(category, []).append(number)
            self._by_prefix.extend((prefix, number) for prefix in gate.prefixes)

    def fetched_for(self, keys: Iterable[str]) -> list[str]:
        """The topics whose own API request returned the paper (by `fetch_key`)."""
        return [self._fetched_by[key] for key in keys if key in self._fetched_by]

    def topics_of(self, doc: MatchDoc, categories: Sequence[str], sources: Sequence[str]) -> list[str]:
        candidates: set[int] = set(self._ungated)
        for source in sources:
            candidates.update(self._by_feed.get(normalise_feed_url(source), ()))
        for category in categories:
            folded = category.lower()
            candidates.update(self._by_category.get(folded, ()))
            for prefix, number in self._by_prefix:
                if folded.startswith(prefix):
                    candidates.add(number)
        if len(candidates) >= WORD_SET_TOPICS and doc.abs.words is None:
            doc.abs.index()
        found: list[str] = []
        for number in sorted(candidates):
            matcher = self.matchers[number]
            if matcher.query is None or matcher.query(doc):  # type: ignore[operator]
                found.append(matcher.name)
        return found


def build_matchers(entries: Iterable[TopicEntry]) -> list[TopicMatcher]:
    return [m for m in (TopicMatcher.for_entry(e) for e in entries) if m is not None]


def paper_categories(paper: Paper) -> Sequence[str]:
    """A paper's categories, or its primary one when it lists none."""
    return paper.categories or ((paper.primary_category,) if paper.primary_category else ())


def document_categories(doc: Mapping) -> Sequence[str]:
    """A cached document's categories, or its primary one when it lists none."""
    return doc.get("categories", ()) or ((doc["primary_category"],) if doc.get("primary_category") else ())


def match_doc_from_document(paper_id: str, doc: Mapping) -> MatchDoc:
    return MatchDoc.build(
        id=paper_id,
        title=doc.get("title_display") or doc.get("title", ""),
        abstract=doc.get("abstract_display") or doc.get("abstract", ""),
        authors=[a[0] for a in doc.get("authors", ())],
        categories=document_categories(doc),
        comment=doc.get("comment", ""),
        journal_ref=doc.get("journal_ref", ""),
    )


def match_doc_from_paper(paper: Paper) -> MatchDoc:
    return MatchDoc.from_paper(paper)


def tag_documents(
    documents: Iterable[tuple[str, Mapping]], matchers: Sequence[TopicMatcher]
) -> dict[str, set[str]]:
    """topic name → ids of the given cached documents that belong to it."""
    tagger = Tagger(matchers)
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    for paper_id, doc in documents:
        for name in tagger.fetched_for(doc.get("fetched_for", ())):
            found[name].add(paper_id)
        categories = document_categories(doc)
        for name in tagger.topics_of(match_doc_from_document(paper_id, doc), categories, doc.get("sources", ())):
            found[name].add(paper_id)
    return found


def tag_papers(
    papers: Iterable[Paper], matchers: Sequence[TopicMatcher], texts: dict[str, tuple[str, ...]] | None = None
) -> dict[str, set[str]]:
    """topic name → ids of the given papers that belong to it. With `texts`,
    also collects each paper's normalised texts there (for its match row)."""
    tagger = Tagger(matchers)
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    for paper in papers:
        for name in tagger.fetched_for(paper.fetched_for):
            found[name].add(paper.id)
        categories = paper_categories(paper)
        match_doc = match_doc_from_paper(paper)
        for name in tagger.topics_of(match_doc, categories, paper.sources):
            found[name].add(paper.id)
        if texts is not None:
            texts[paper.id] = match_doc.texts()
    return found


def tag_match_rows(rows: Mapping[str, Sequence], matchers: Sequence[TopicMatcher]) -> dict[str, set[str]]:
    """`tag_documents` for the rows of the cache's match files (see `MatchRows`)."""
    tagger = Tagger(matchers)
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    prepared = MatchDoc.prepared
    for paper_id, (ti, abstract, au, co, jr, categories, sources, fetched_for) in rows.items():
        for name in tagger.fetched_for(fetched_for):
            found[name].add(paper_id)
        for name in tagger.topics_of(prepared(paper_id, ti, abstract, au, co, jr, categories), categories, sources):
            found[name].add(paper_id)
    return found


# The rows of the cache's match files: change the version with their layout
# (or with MATCHER_VERSION), and files written before are ignored. Text
# normalisation folds characters by the Unicode tables of the Python that runs.
MATCH_ROWS_VERSION = f"1/{MATCHER_VERSION}/{unicodedata.unidata_version}"


class MatchRows:
    """Makes the match-file rows of cached papers (`feedtui.store.match`): the
    paper's normalised texts (`MatchDoc.texts`), categories, sources and the
    topics it was fetched for — everything `Tagger` reads.

    `prepared` holds texts the parse workers normalised while tagging, as
    {paper id: (that Paper, texts)}; they are used for exactly that Paper
    object, so a paper merged with another version is normalised afresh
    (nothing changes a parsed Paper's texts before it is stored). Each is
    used once, and let go of from `prepared` (a store holds a part's papers
    while it writes their weeks one at a time)."""

    version = MATCH_ROWS_VERSION
    width = 8

    def __init__(self, prepared: dict[str, tuple[Paper, tuple[str, ...]]] | None = None) -> None:
        self.prepared = prepared if prepared is not None else {}

    def of_paper(self, paper: Paper) -> list:
        hit = self.prepared.pop(paper.id, None)
        if hit is not None and hit[0] is paper:
            texts = hit[1]
        else:
            texts = match_doc_from_paper(paper).texts()
        return [*texts, list(paper_categories(paper)), list(paper.sources), list(paper.fetched_for)]

    def of_document(self, paper_id: str, doc: Mapping) -> list:
        return [
            *match_doc_from_document(paper_id, doc).texts(),
            list(document_categories(doc)),
            list(doc.get("sources", ())),
            list(doc.get("fetched_for", ())),
        ]


# -- tagging in worker processes ----------------------------------------------
#
# A worker gets the topics once (`register_topics`, run in the parent before a
# fork, or in each spawned worker) under a token, so two pools (a refresh and a
# retag at the same time) never see each other's topics.

_REGISTERED: dict[int, list[TopicMatcher]] = {}


def register_topics(token: int, specs: Sequence[tuple[str, dict]]) -> None:
    """Compile topics for the workers: `specs` are (topic name, definition dict)."""
    from feedtui.model import Topic, TopicDefinition
    from feedtui.topics.registry import compile_topic

    entries = [compile_topic(Topic(name, TopicDefinition.from_dict(definition))) for name, definition in specs]
    _REGISTERED[token] = build_matchers(entries)


def forget_topics(token: int) -> None:
    _REGISTERED.pop(token, None)


def topic_specs(entries: Iterable[TopicEntry]) -> list[tuple[str, dict]]:
    return [(e.name, e.topic.definition.to_dict()) for e in entries if not e.error]


def parse_and_tag(
    token: int, data: bytes, url: str, content_type: str, now, base: str = ""
) -> tuple[object, dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Parse a response and tag its papers as they stand in it: (ParsedFeed,
    {paper id: topic names}, {paper id: normalised texts}). Tags of papers that
    merge with others later are recomputed by the caller; the texts are for
    their match rows (`MatchRows`)."""
    from feedtui.sources.parse.route import parse_feed

    feed = parse_feed(data, url, content_type, now=now, base=base)
    texts: dict[str, tuple[str, ...]] = {}
    found = tag_papers(feed.papers, _REGISTERED[token], texts)
    tags: dict[str, list[str]] = {}
    for name, ids in found.items():
        for paper_id in ids:
            tags.setdefault(paper_id, []).append(name)
    return feed, {paper.id: tuple(tags.get(paper.id, ())) for paper in feed.papers}, texts


def tag_shard_files(token: int, paths: Sequence[str]) -> dict[str, list[str]]:
    """Tag every paper in these cache shard files: topic name → paper ids."""
    matchers = _REGISTERED[token]
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    for path in paths:
        for name, ids in _tag_week(Path(path), matchers).items():
            found[name] |= ids
    return {name: sorted(ids) for name, ids in found.items()}


def _tag_week(papers_path: Path, matchers: Sequence[TopicMatcher]) -> dict[str, set[str]]:
    """Tag a week from its match file when that was made from the papers file
    as it is; else from rows made from its documents, saved for the next time
    when that is safe (see `feedtui.store.match`)."""
    from feedtui.store.cache import read_documents
    from feedtui.store.match import keep_rebuilt_rows, papers_stamp, read_match_rows

    looked = time.time_ns()
    stamp = papers_stamp(papers_path)
    rows = read_match_rows(papers_path, MATCH_ROWS_VERSION, stamp, width=MatchRows.width)
    if rows is not None:
        try:
            return tag_match_rows(rows, matchers)
        except Exception:  # a row edited by hand: the documents decide
            pass
    maker = MatchRows()
    rows = {paper_id: maker.of_document(paper_id, doc) for paper_id, doc in read_documents(papers_path).items()}
    keep_rebuilt_rows(papers_path, rows, stamp, MATCH_ROWS_VERSION, looked)
    return tag_match_rows(rows, matchers)
