"""The indexed tagger gives exactly the answers of the plain rule."""

from __future__ import annotations

from datetime import datetime

import pytest

from feedtui.demo.seed import demo_papers
from feedtui.model import UTC, Topic, TopicDefinition
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.query import parse_query
from feedtui.topics.registry import compile_topic
from feedtui.topics.tagging import (
    Tagger,
    build_matchers,
    match_doc_from_paper,
    query_category_gate,
    tag_papers,
)

from tests.factories import make_paper


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


def test_category_gates_of_queries():
    gate = query_category_gate(parse_query("(cat:cs.DC OR cat:cs.AR) AND abs:gpu"))
    assert gate.exact == {"cs.dc", "cs.ar"} and gate.prefixes == ()
    assert query_category_gate(parse_query("cat:cs.DC OR abs:gpu")) is None
    assert query_category_gate(parse_query("abs:gpu ANDNOT cat:cs.LG")) is None
    assert query_category_gate(parse_query("cat:astro-ph* AND abs:dust")).prefixes == ("astro-ph",)


def test_fetched_for_always_tags():
    matchers = build_matchers(topics())
    paper = make_paper("2611.00001", abstract="nothing relevant", fetched_for=("Pipeline Parallelism",))
    assert "2611.00001" in tag_papers([paper], matchers)["Pipeline Parallelism"]
