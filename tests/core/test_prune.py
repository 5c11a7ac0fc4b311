from __future__ import annotations

from pathlib import Path

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition

from tests.factories import make_paper


def test_prune_drops_the_oldest_unstarred_papers(tmp_path: Path):
    config = Config()
    engine = Engine(config, tmp_path / "data", background_writes=False)
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    papers = [
        make_paper(f"2611.{n:05d}", abstract="a widget", published=f"2026-11-{n + 1:02d}T10:00:00") for n in range(10)
    ]
    engine.cache.store(papers, {})
    engine.load_library()
    engine.retag()
    engine.star(["2611.00000"])  # the oldest, but starred
    engine.mark_read(["2611.00001"])
    assert engine.prune(limit=6) == 4
    remaining = sorted(engine.library.ids)
    assert remaining == ["2611.00000", "2611.00005", "2611.00006", "2611.00007", "2611.00008", "2611.00009"]
    assert len(engine.topic_positions("Widgets")) == 6
    assert engine.paper("2611.00001") is None
    engine.state.flush()
    # Another process sees the same cache and tags.
    again = Engine(config, tmp_path / "data", background_writes=False)
    assert sorted(again.library.ids) == remaining
    assert again.stale_topics == []
    assert len(again.topic_positions("Widgets")) == 6
    assert engine.prune(limit=6) == 0
