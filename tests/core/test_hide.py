"""The config's `hide` query: its papers are left out of every topic, its
counts and its momentum, by the core (so the reader and the CLI agree), and
the momentum sentence says how many it did not count."""

from __future__ import annotations

from datetime import datetime

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition

from tests.factories import make_paper

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)


def papers():
    return [
        make_paper("2611.00001", title="Widget sorting", abstract="A widget.", published="2026-11-25T10:00:00"),
        make_paper("2611.00002", title="A survey of widgets", abstract="Every widget.", published="2026-11-24T10:00:00"),
        make_paper("2611.00003", title="Widget gadgets", abstract="A widget and a gadget.", published="2026-11-20T10:00:00"),
        make_paper("2610.00004", title="Widgets, surveyed again", abstract="A widget survey.", published="2026-10-20T10:00:00"),
    ]


def engine_with(tmp_path, hide: str) -> Engine:
    config = Config()
    config.settings.hide = hide
    engine = Engine(config, tmp_path / "data", clock=lambda: NOW)
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.add_topic("Gadgets", TopicDefinition(query="abs:gadget"))
    engine.cache.store(papers(), {}, NOW)
    engine.load_library()
    engine.ensure_tagged()  # the topics and the hide query, as the CLI does
    return engine


def ids(engine: Engine, name: str) -> list[str]:
    return [engine.library.ids[i] for i in engine.topic_positions(name)]


def test_hidden_papers_are_left_out_of_topics_counts_and_momentum(tmp_path):
    engine = engine_with(tmp_path, "ti:survey*")
    library = engine.library
    assert ids(engine, "Widgets") == ["2611.00001", "2611.00003"]
    assert ids(engine, "Gadgets") == ["2611.00003"]
    assert library.unread_count("Widgets") == 2 and library.hidden_count("Widgets") == 2
    momentum = engine.momentum("Widgets")
    assert (momentum.last4, momentum.hidden) == (2, 2)
    assert momentum.sentence.startswith(
        "2 papers in the last four weeks, against 0 the four weeks before (2 hidden, not counted)."
    )
    assert momentum.to_json()["hidden"] == 2
    # A hidden paper's read mark changes no count.
    engine.mark_read(["2611.00002"])
    assert library.unread_count("Widgets") == 2
    engine.mark_read(["2611.00001"])
    assert library.unread_count("Widgets") == 1
    engine.close()


def test_nothing_hidden_says_nothing_and_the_tags_on_disk_keep_every_match(tmp_path):
    hiding = engine_with(tmp_path, "ti:survey*")
    hiding.close()
    # The same data without a hide query: every paper is back, from the
    # stored tags (the hide query never narrowed what they hold).
    engine = Engine(Config(), tmp_path / "data", clock=lambda: NOW)
    engine.load_library()
    assert engine.stale_topics == []
    assert ids(engine, "Widgets") == ["2611.00001", "2611.00002", "2611.00003", "2610.00004"]
    assert "hidden" not in engine.momentum("Widgets").sentence
    engine.close()


def test_a_new_paper_matching_the_hide_query_is_hidden_as_it_arrives(tmp_path):
    engine = engine_with(tmp_path, "ti:survey*")
    library = engine.library
    new = make_paper("2611.00009", title="Widget survey, the third", abstract="A widget.", published="2026-11-26T10:00:00")
    library.upsert_rows({new.id: library.rows[0]._replace(published=int(new.published.timestamp()))})
    changed = library.update_tags([new.id], {"\x00hide": {new.id}, "Widgets": {new.id}, "Gadgets": set()})
    assert "Widgets" in changed
    assert new.id not in ids(engine, "Widgets") and library.hidden_count("Widgets") == 3
    # Its next version no longer matches: it is shown again.
    library.update_tags([new.id], {"\x00hide": set(), "Widgets": {new.id}, "Gadgets": set()})
    assert ids(engine, "Widgets")[0] == new.id and library.hidden_count("Widgets") == 2
    engine.close()
