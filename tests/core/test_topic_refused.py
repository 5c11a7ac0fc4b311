"""The engine says which part of a topic it refuses (TopicRefused.field), so
the topic form can put the keyboard there and the CLI can keep printing the
same words; a query that does not parse stays a QueryError."""

from __future__ import annotations

import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine, TopicNameTaken, TopicRefused
from feedtui.model import TopicDefinition
from feedtui.topics.query import QueryError
from feedtui.ui.screens.topic_form import FIELDS

MINE = TopicDefinition(query="abs:widget")


@pytest.fixture
def engine(tmp_path):
    engine = Engine(Config(), tmp_path / "data")
    engine.add_topic("Widgets", MINE)
    yield engine
    engine.close()


@pytest.mark.parametrize(
    ("name", "definition", "field", "words"),
    [
        ("", MINE, "name", "needs a name"),
        ("x" * 300, MINE, "name", "at most"),
        ("starred", MINE, "name", "reading list's name"),
        ("widgets", MINE, "name", "there is a topic called 'Widgets' already"),
        ("Gadgets", TopicDefinition(), "query", "needs a query, a category or a feed"),
        ("Gadgets", TopicDefinition(categories=("cs.DC", "not-a-category!")), "categories", "not-a-category!"),
        ("Gadgets", TopicDefinition(feeds=("ftp://example.org/feed.xml",)), "feeds", "http://"),
    ],
)
def test_add_topic_names_the_part_it_refuses(engine, name, definition, field, words):
    with pytest.raises(TopicRefused) as refused:
        engine.add_topic(name, definition)
    assert refused.value.field == field
    assert field in {key for key, _, _ in FIELDS}  # the form puts the keyboard there
    assert words in str(refused.value)
    assert "Gadgets" not in engine.registry.names()


def test_a_name_taken_is_refused_in_the_name_and_says_whose(engine):
    with pytest.raises(TopicNameTaken) as refused:
        engine.add_topic("WIDGETS", TopicDefinition(query="abs:gadget"))
    assert (refused.value.field, refused.value.taken) == ("name", "Widgets")
    assert engine.topic("Widgets").topic.definition == MINE


def test_a_query_that_does_not_parse_is_a_query_error_not_a_refusal(engine):
    with pytest.raises(QueryError) as refused:
        engine.add_topic("Gadgets", TopicDefinition(query="abs:widget AND"))
    assert not isinstance(refused.value, TopicRefused)
    assert refused.value.column > 0


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (dict(query=""), "query", "no query, categories or feeds left"),
        (dict(categories=("nonsense category",)), "categories", "nonsense"),
        (dict(feeds=("not a url",)), "feeds", "not a url"),
        (dict(new_name="Starred"), "name", "reading list's name"),
        (dict(new_name="WIDGETS "), "", ""),  # a change of case is the topic's own name: saved
    ],
)
def test_edit_topic_names_the_part_it_refuses(engine, change, field, words):
    if not field:
        assert engine.edit_topic("Widgets", **change).name == "WIDGETS"
        return
    with pytest.raises(TopicRefused) as refused:
        engine.edit_topic("Widgets", **change)
    assert refused.value.field == field
    assert words in str(refused.value)
    assert engine.topic("Widgets").topic.definition == MINE


def test_renaming_into_another_topics_name_or_a_catalogue_topic_is_refused_in_the_name(engine):
    engine.add_topic("Gadgets", TopicDefinition(query="abs:gadget"))
    with pytest.raises(TopicNameTaken) as taken:
        engine.edit_topic("Gadgets", new_name="widgets")
    assert taken.value.field == "name"
    catalogue = sorted(engine.registry.catalogue_names)[0]
    with pytest.raises(TopicRefused) as refused:
        engine.edit_topic(catalogue, new_name="My own name")
    assert refused.value.field == "name"
    assert "catalogue topic" in str(refused.value)
