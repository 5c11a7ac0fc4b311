from __future__ import annotations

from datetime import UTC, datetime

from feedtui.model import Author, Paper, Topic, TopicDefinition
from feedtui.topics.registry import compile_topic
from feedtui.topics.tagging import build_matchers, tag_documents, tag_papers
from feedtui.store.codec import paper_to_doc

MOMENT = datetime(2026, 9, 28, tzinfo=UTC)
BLOG = "https://example.org/blog/feed.xml"


def topic(name: str, **definition) -> Topic:
    return Topic(name, TopicDefinition(**definition))


TOPICS = [
    topic("Widgets", query="abs:widget"),
    topic("Chips", categories=("cs.AR",)),
    topic("Chip widgets", categories=("cs.AR",), query="abs:widget"),
    topic("Lattice", categories=("hep-lat",)),
    topic("Blog", feeds=(BLOG + "/",)),
    topic("Blog widgets", feeds=(BLOG,), query="ti:widget"),
    topic("Broken", query="ti:(open"),
]
ENTRIES = [compile_topic(t) for t in TOPICS]
WIDGETS_KEY = ENTRIES[0].fetch_key


def paper(pid: str, *, title="A title", abstract="An abstract.", categories=("cs.DC",), sources=(), fetched_for=()):
    return Paper(
        id=pid, version=1, title=title, abstract=abstract, published=MOMENT, updated=MOMENT,
        authors=(Author("Ada Quill"),), categories=categories, sources=sources, fetched_for=fetched_for,
    )


PAPERS = [
    paper("2609.00001", abstract="A widget for chips.", categories=("cs.AR", "cs.DC")),
    paper("2609.00002", abstract="Widgetry, which arXiv would stem.", fetched_for=(WIDGETS_KEY,)),
    paper("2609.00003", abstract="Widgetry again, fetched for an older query.", fetched_for=("Widgets@0123456789ab",)),
    paper("2609.00004", categories=("hep-lat",)),
    paper("2609.00005", categories=("hep-lattice",)),
    paper("web:1", title="A widget on the blog", sources=(BLOG,)),
    paper("web:2", title="Elsewhere, a widget", sources=("https://example.org/other.xml",)),
]
EXPECTED = {
    "Widgets": {"2609.00001", "2609.00002"},
    "Chips": {"2609.00001"},
    "Chip widgets": {"2609.00001"},
    "Lattice": {"2609.00004"},
    "Blog": {"web:1"},
    "Blog widgets": {"web:1"},
}


def test_tag_papers_by_query_category_feed_and_the_apis_answer():
    assert tag_papers(PAPERS, build_matchers(ENTRIES)) == EXPECTED


def test_cached_documents_are_tagged_the_same():
    documents = [(p.id, paper_to_doc(p, "2026-09-28T00:00:00+00:00")) for p in PAPERS]
    assert tag_documents(documents, build_matchers(ENTRIES)) == EXPECTED


def test_a_topic_with_an_error_has_no_matcher():
    assert [m.name for m in build_matchers(ENTRIES)] == list(EXPECTED)
