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
from feedtui.topics.query import MatchDoc, compile_query
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
    fetched_by = _fetch_keys(matchers)
    for paper_id, doc in documents:
        match_doc = match_doc_from_document(paper_id, doc)
        categories = doc.get("categories", ())
        sources = doc.get("sources", ())
        for key in doc.get("fetched_for", ()):
            name = fetched_by.get(key)
            if name is not None:
                found[name].add(paper_id)
        for matcher in matchers:
            if matcher.matches(match_doc, categories, sources):
                found[matcher.name].add(paper_id)
    return found


def tag_papers(papers: Iterable[Paper], matchers: Sequence[TopicMatcher]) -> dict[str, set[str]]:
    """topic name → ids of the given papers that belong to it."""
    found: dict[str, set[str]] = {m.name: set() for m in matchers}
    fetched_by = _fetch_keys(matchers)
    for paper in papers:
        match_doc = match_doc_from_paper(paper)
        for key in paper.fetched_for:
            name = fetched_by.get(key)
            if name is not None:
                found[name].add(paper.id)
        for matcher in matchers:
            if matcher.matches(match_doc, paper.categories, paper.sources):
                found[matcher.name].add(paper.id)
    return found


def _fetch_keys(matchers: Sequence[TopicMatcher]) -> dict[str, str]:
    return {m.fetch_key: m.name for m in matchers if m.fetch_key}
