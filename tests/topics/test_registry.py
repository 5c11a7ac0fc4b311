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


def test_queries_are_parsed_when_first_asked_for_and_catalogue_errors_cost_none(monkeypatch):
    """A registry of the whole catalogue parses nothing until a topic's query
    is wanted: a refresh of 304s or the reader's first screen never pay for it.
    A topic the user wrote is parsed for its error; a catalogue topic's error
    is known to be empty (the catalogue is tested to compile)."""
    from feedtui.topics import registry
    from feedtui.topics.catalogue import load_catalogue

    parsed: list[str] = []
    real_parse = registry.parse_query
    monkeypatch.setattr(registry, "parse_query", lambda text: parsed.append(text) or real_parse(text))
    catalogue = load_catalogue()
    mine = {"query": "ti:(open"}
    topics = registry.TopicRegistry(catalogue, [], {"Mine": mine}, set())

    assert topics.problems() == [topics.get("Mine").error]
    assert "unbalanced parenthesis" in topics.get("Mine").error
    assert all(entry.error == "" for entry in topics if entry.name != "Mine")
    assert parsed == ["ti:(open"]

    first = catalogue[0]
    entry = topics.get(first.name)
    assert entry.query is not None and entry.api_query is not None
    assert parsed == ["ti:(open", first.definition.query]
    assert entry.query == compile_topic(first).query


def test_a_later_spelling_of_a_name_takes_the_earlier_ones_place_built_or_put():
    """Config over catalogue, the user's over both, and `put` (a topic added in
    a batch) follow one rule: the later spelling wins, where the earlier stood."""
    from feedtui.topics.registry import TopicRegistry

    def topic(name: str) -> Topic:
        return Topic(name, TopicDefinition(query=f'abs:"{name}"'))

    catalogue = [topic("Alpha"), topic("Beta"), topic("Gamma")]
    built = TopicRegistry(catalogue, [topic("BETA")], {"gamma": {"query": "abs:gamma"}}, set())
    assert built.names() == ["Alpha", "BETA", "gamma"]
    assert built.same_name("beta") == "BETA"

    put = TopicRegistry(catalogue, [], {}, set())
    put.put(topic("BETA"))
    put.put(topic("Delta"))
    assert put.names() == ["Alpha", "BETA", "Gamma", "Delta"]
    assert put.get("BETA").topic == topic("BETA") and put.get("Beta") is None
    assert put.same_name("beta") == "BETA"
