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
  `feedtui.refresh`). The key carries a digest of the query sent: after the
  topic's query changes, what the old query fetched no longer counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from feedtui.model import Paper
from feedtui.topics.query import MatchDoc, Query, compile_queries, compile_query
from feedtui.topics.registry import TopicEntry

# Bump when local matching changes meaning, so stored tags are recomputed.
MATCHER_VERSION = "1"


def normalise_feed_url(url: str) -> str:
    return url.strip().rstrip("/")


@dataclass(slots=True)
class TopicMatcher:
    name: str
    signature: str
    query: object | None  # a compiled matcher: MatchDoc -> bool
    exact_categories: frozenset[str]
    category_prefixes: tuple[str, ...]
    feeds: frozenset[str]
    has_scope: bool = False
    # `TopicEntry.fetch_key`: papers fetched for this topic alone carry it.
    fetch_key: str = ""
    # For a topic without feeds, its whole test as one query (its categories
    # as `cat:` terms AND its query), so many topics can be compiled into one
    # function; None for feed topics, which need the paper's sources.
    whole_query: Query | None = None

    @classmethod
    def for_entry(cls, entry: TopicEntry) -> TopicMatcher | None:
        """None for a topic that cannot match anything (its query has an error)."""
        if entry.error:
            return None
        definition = entry.topic.definition
        exact: set[str] = set()
        prefixes: list[str] = []
        for category in definition.categories:
            if category.endswith(".*"):
                prefixes.append(category[:-1])
            elif "." not in category:
                prefixes.append(category + ".")
                exact.add(category)
            else:
                exact.add(category)
        return cls(
            name=entry.name,
            signature=entry.signature,
            query=compile_query(entry.query) if entry.query is not None else None,
            exact_categories=frozenset(exact),
            category_prefixes=tuple(prefixes),
            feeds=frozenset(normalise_feed_url(f) for f in definition.feeds),
            has_scope=bool(exact or prefixes or definition.feeds),
            fetch_key=entry.fetch_key,
            whole_query=None if definition.feeds else entry.api_query,
        )

    def matches(self, doc: MatchDoc, categories: Sequence[str], sources: Sequence[str]) -> bool:
        if self.has_scope and not self._in_scope(categories, sources):
            return False
        if self.query is None:
            return self.has_scope
        return self.query(doc)  # type: ignore[operator]

    def _in_scope(self, categories: Sequence[str], sources: Sequence[str]) -> bool:
        for category in categories:
            if category in self.exact_categories or (
                self.category_prefixes and category.startswith(self.category_prefixes)
            ):
                return True
        if self.feeds:
            return any(normalise_feed_url(s) in self.feeds for s in sources)
        return False


def build_matchers(entries: Iterable[TopicEntry]) -> list[TopicMatcher]:
    return [m for m in (TopicMatcher.for_entry(e) for e in entries) if m is not None]


class _Judge:
    """Which of the matchers' topics one paper belongs to.

    Topics without feeds are tested together by one generated function
    (`compile_queries`): one call per paper, not one per paper and topic.
    Feed topics, which also look at where the paper came from, are tested
    one by one."""

    def __init__(self, matchers: Sequence[TopicMatcher]) -> None:
        together = [m for m in matchers if m.whole_query is not None]
        self.names = [m.name for m in together]
        self.match_all = compile_queries(tuple(m.whole_query for m in together)) if together else None
        self.one_by_one = [m for m in matchers if m.whole_query is None]
        self.fetched_by = {m.fetch_key: m.name for m in matchers if m.fetch_key}

    def topics(
        self, doc: MatchDoc, categories: Sequence[str], sources: Sequence[str], fetched_for: Iterable[str]
    ) -> list[str]:
        names = self.names
        found = [names[position] for position in self.match_all(doc)] if self.match_all else []
        for matcher in self.one_by_one:
            if matcher.matches(doc, categories, sources):
                found.append(matcher.name)
        for key in fetched_for:
            name = self.fetched_by.get(key)
            if name is not None:
                found.append(name)
        return found


def match_doc_from_document(paper_id: str, doc: Mapping) -> MatchDoc:
    return MatchDoc.build(
        id=paper_id,
        title=doc.get("title_display") or doc.get("title", ""),
        abstract=doc.get("abstract_display") or doc.get("abstract", ""),
        authors=[a[0] for a in doc.get("authors", ())],
        categories=doc.get("categories", ()),
        comment=doc.get("comment", ""),
        journal_ref=doc.get("journal_ref", ""),
    )


def match_doc_from_paper(paper: Paper) -> MatchDoc:
    return MatchDoc.from_paper(paper)


def tag_documents(
    documents: Iterable[tuple[str, Mapping]], matchers: Sequence[TopicMatcher]
) -> dict[str, set[str]]:
    """topic name → ids of the given cached documents that belong to it."""
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    judge = _Judge(matchers)
    for paper_id, doc in documents:
        match_doc = match_doc_from_document(paper_id, doc)
        for name in judge.topics(match_doc, doc.get("categories", ()), doc.get("sources", ()), doc.get("fetched_for", ())):
            found[name].add(paper_id)
    return found


def tag_papers(papers: Iterable[Paper], matchers: Sequence[TopicMatcher]) -> dict[str, set[str]]:
    """topic name → ids of the given papers that belong to it."""
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    judge = _Judge(matchers)
    for paper in papers:
        for name in judge.topics(match_doc_from_paper(paper), paper.categories, paper.sources, paper.fetched_for):
            found[name].add(paper.id)
    return found
