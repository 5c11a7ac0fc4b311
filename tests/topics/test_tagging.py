"""The indexed tagger gives exactly the answers of the plain rule."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from feedtui.demo.seed import demo_papers
from feedtui.model import UTC, Author, Paper, Topic, TopicDefinition
from feedtui.store.codec import paper_to_doc
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.query import MatchDoc, compile_query, parse_query
from feedtui.topics.registry import compile_topic
from feedtui.topics.tagging import (
    MatchRows,
    Tagger,
    build_matchers,
    match_doc_from_paper,
    query_category_gate,
    tag_documents,
    tag_match_rows,
    tag_papers,
)


@pytest.fixture(scope="module")
def papers():
    return demo_papers(datetime(2026, 11, 27, tzinfo=UTC))


def topics():
    extra = [
        Topic("Feed only", TopicDefinition(feeds=("https://example.org/feed.xml/",))),
        Topic("Feed and query", TopicDefinition(feeds=("https://example.org/feed.xml",), query="abs:inference")),
        Topic("Category", TopicDefinition(categories=("cs.DC",))),
        Topic("Archive", TopicDefinition(categories=("quant-ph", "math"))),
        Topic("Category and query", TopicDefinition(categories=("cs.LG",), query="ti:edge")),
        Topic("Wildcard", TopicDefinition(query="cat:cs.* AND abs:memory")),
        Topic("Negated", TopicDefinition(query="abs:inference ANDNOT cat:cs.LG")),
        Topic("Either", TopicDefinition(query="cat:cs.AR OR abs:gradient")),
    ]
    return [compile_topic(t) for t in [*load_catalogue(), *extra]]


def test_the_index_agrees_with_the_plain_rule(papers):
    papers = list(papers)
    papers[0].sources = ("https://example.org/feed.xml",)
    papers[1].sources = ("https://example.org/feed.xml/",)
    matchers = build_matchers(topics())
    tagger = Tagger(matchers)
    checked = 0
    for paper in papers:
        doc = match_doc_from_paper(paper)
        plain = [m.name for m in matchers if m.matches(doc, paper.categories, paper.sources)]
        assert sorted(tagger.topics_of(doc, paper.categories, paper.sources)) == sorted(plain), paper.id
        checked += bool(plain)
    assert checked > 100


def test_papers_tagged_against_many_topics_at_once_get_the_plain_rules_answers(papers):
    from feedtui.topics.tagging import WORD_SET_TOPICS

    matchers = build_matchers(topics())
    tagger = Tagger(matchers)
    eager = 0
    for paper in papers:
        plain_doc, tagged_doc = match_doc_from_paper(paper), match_doc_from_paper(paper)
        plain = [m.name for m in matchers if m.matches(plain_doc, paper.categories, paper.sources)]
        assert sorted(tagger.topics_of(tagged_doc, paper.categories, paper.sources)) == sorted(plain), paper.id
        eager += tagged_doc.abs.words is not None and plain_doc.abs.words is None
    assert WORD_SET_TOPICS > 1
    assert eager  # the word set built at once, where the plain rule searched the text


def test_category_gates_of_queries():
    gate = query_category_gate(parse_query("(cat:cs.DC OR cat:cs.AR) AND abs:gpu"))
    assert gate.exact == {"cs.dc", "cs.ar"} and gate.prefixes == ()
    assert query_category_gate(parse_query("cat:cs.DC OR abs:gpu")) is None
    assert query_category_gate(parse_query("abs:gpu ANDNOT cat:cs.LG")) is None
    assert query_category_gate(parse_query("cat:astro-ph* AND abs:dust")).prefixes == ("astro-ph",)




# -- the API's answer, categories, feeds: hand-checked cases ---------------------
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


def test_match_rows_are_tagged_the_same():
    documents = {p.id: paper_to_doc(p, "2026-09-28T00:00:00+00:00") for p in PAPERS}
    rows = {pid: MatchRows().of_document(pid, doc) for pid, doc in documents.items()}
    assert tag_match_rows(rows, build_matchers(ENTRIES)) == EXPECTED


def test_match_rows_of_papers_and_of_their_documents_are_equal(papers):
    maker = MatchRows()
    for paper in papers:
        assert maker.of_paper(paper) == maker.of_document(paper.id, paper_to_doc(paper, "2026-11-27T00:00:00+00:00"))


def test_a_paper_with_only_a_primary_category_is_tagged_alike_from_papers_documents_and_rows():
    lone = paper("2609.00009", categories=())
    lone.primary_category = "hep-lat"
    doc = paper_to_doc(lone, "2026-09-28T00:00:00+00:00")
    by_category = Topic("Lattice", TopicDefinition(categories=("hep-lat",)))
    by_query = Topic("Lattice query", TopicDefinition(query="cat:hep-lat"))
    matchers = build_matchers([compile_topic(by_category), compile_topic(by_query)])
    expected = {"Lattice": {"2609.00009"}, "Lattice query": {"2609.00009"}}
    assert tag_papers([lone], matchers) == expected
    assert tag_documents([(lone.id, doc)], matchers) == expected
    assert tag_match_rows({lone.id: MatchRows().of_document(lone.id, doc)}, matchers) == expected


def test_prepared_texts_answer_every_query_as_the_paper_does(papers):
    queries = [
        'abs:"sparse attention"',
        "ti:gpu OR abs:memory",
        "au:chen",
        "all:scheduler ANDNOT cat:cs.LG",
        "cat:cs.* AND abs:comput*",
        "co:pages OR jr:journal",
        f"id:{papers[3].id}",
    ]
    answered = 0
    for text in queries:
        query = compile_query(parse_query(text))
        for paper in papers:
            built = match_doc_from_paper(paper)
            categories = paper.categories or (paper.primary_category,)
            prepared = MatchDoc.prepared(paper.id, *built.texts(), categories)
            assert query(prepared) == query(match_doc_from_paper(paper)), (text, paper.id)
            answered += query(prepared)
    assert answered > 20


def test_texts_from_the_parse_workers_are_used_only_for_that_very_paper():
    original = paper("2609.00001", title="Widget chips")
    same_again = paper("2609.00001", title="Widget chips")
    made_up = ("", " made up ", "", "", "")
    maker = MatchRows({original.id: (original, made_up)})
    assert maker.of_paper(original)[:5] == list(made_up)
    assert maker.of_paper(same_again)[:5] == list(match_doc_from_paper(same_again).texts())


def test_parse_and_tag_returns_the_texts_of_every_paper():
    from feedtui.topics.tagging import forget_topics, parse_and_tag, register_topics, topic_specs

    data = (Path(__file__).parents[1] / "data" / "feeds" / "arxiv_api_page.xml").read_bytes()
    register_topics(991, topic_specs(ENTRIES))
    try:
        feed, tags, texts = parse_and_tag(991, data, "https://export.arxiv.org/api/query", "", None)
    finally:
        forget_topics(991)
    assert feed.papers and set(texts) == set(tags) == {p.id for p in feed.papers}
    for paper_ in feed.papers:
        assert texts[paper_.id] == match_doc_from_paper(paper_).texts()


def test_a_topic_with_an_error_has_no_matcher():
    assert [m.name for m in build_matchers(ENTRIES)] == list(EXPECTED)
