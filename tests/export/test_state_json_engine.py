"""`import_state` on a live engine: topics, unread counts and follows are current at once."""

from __future__ import annotations

from feedtui.config import load_config
from feedtui.core.engine import open_engine
from feedtui.export.state_json import export_state, import_state
from feedtui.model import TopicDefinition

from tests.factories import make_paper


def test_import_into_a_running_engine_updates_what_the_ui_reads(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("")
    engine = open_engine(load_config(config), tmp_path / "data", background_writes=False)
    engine.cache.store(
        [
            make_paper("2609.01234", abstract="Quantum widgets."),
            make_paper("2609.01240", abstract="Classical widgets."),
        ],
        known={},
    )
    engine.add_topic("Widgets", TopicDefinition(query="abs:widgets"))
    engine.load_library()
    engine.retag(["Widgets"])
    assert engine.library.unread_count("Widgets") == 2

    document = export_state(engine)
    document["read"] = {"2609.01234": {"at": "2026-10-01T00:00:00+00:00"}}
    document["topics"]["Lab blog"] = {"feeds": ["https://lab.example.org/atom.xml"], "description": ""}
    since = {"since": "2026-10-01T00:00:00+00:00"}
    document["follows"] = {"Lab blog": since, "Only In Their Config": since}
    summary = import_state(engine, document, source="moved.json")

    assert engine.library.unread_count("Widgets") == 1
    assert "Lab blog" in engine.registry
    assert summary.topics_added == ["Lab blog"]
    assert [e.name for e in engine.followed()] == ["Lab blog"]
    assert summary.notes == [
        "you follow topics that do not exist here: Only In Their Config "
        "(topics from a config file need that config.toml copied too)"
    ]
    engine.close()
