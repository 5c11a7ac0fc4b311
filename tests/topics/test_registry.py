from __future__ import annotations

from feedtui.model import Topic, TopicDefinition
from feedtui.topics.registry import compile_topic


def entry(**definition):
    return compile_topic(Topic("Mine", TopicDefinition(**definition)))


def test_a_bare_query_is_fetched_as_it_is():
    mine = entry(query="ti:gpu AND abs:fpga")
    assert mine.error == ""
    assert mine.api_query is not None and mine.api_query.to_api() == "ti:gpu AND abs:fpga"


def test_categories_become_cat_terms_and_narrow_the_query():
    mine = entry(query="abs:fpga OR abs:asic", categories=("cs.AR", "hep-lat"))
    assert mine.api_query.to_api() == "(cat:cs.AR OR cat:hep-lat OR cat:hep-lat.*) AND (abs:fpga OR abs:asic)"
    assert entry(categories=("cs.*",)).api_query.to_api() == "cat:cs.*"


def test_feeds_are_not_fetched_from_the_api_unless_they_come_with_categories():
    assert entry(feeds=("https://example.org/feed.xml",), query="abs:robot").api_query is None
    both = entry(feeds=("https://example.org/feed.xml",), categories=("cs.RO",))
    assert both.api_query.to_api() == "cat:cs.RO"
    assert entry(feeds=("https://example.org/feed.xml",)).fetch_key == ""


def test_a_category_that_is_not_one_is_the_topic_error():
    mine = entry(categories=("cs DC",))
    assert "not an arXiv category" in mine.error and mine.api_query is None
    assert entry(query="ti:(open").api_query is None


def test_fetch_key_names_the_topic_and_changes_with_the_query_sent():
    first = entry(query="abs:widget")
    assert first.fetch_key.startswith("Mine@")
    assert entry(query="abs:widget").fetch_key == first.fetch_key
    assert entry(query="ABS:widget").fetch_key == first.fetch_key  # the same query sent
    assert entry(query="abs:gizmo").fetch_key != first.fetch_key
    assert entry(query="abs:widget", categories=("cs.AR",)).fetch_key != first.fetch_key
