"""A refresh computes the papers' vectors and word index beside their parser:
what it writes is what computing them from the stored papers gives, and no
week file is read back for them. A later build takes the unchanged papers
from the stored index and reads only the changed ones. A real refresh
against a loopback server, in small batches (the spool's part is in
test_spool.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from bench.feeds import feed_file_name
from bench.server import FeedServer
from feedtui.config import Config
from feedtui.core.discovery_store import _compact
from feedtui.core.engine import Engine
from feedtui.discovery.word_store import MappedIndex
from feedtui.model import TopicDefinition
from feedtui.topics.registry import HIDE_TOPIC
from tests.factories import make_paper
from tests.held_feeds import generated_feeds

FEEDS = 6
ENTRIES = 40
QUESTIONS = ("sparse attention kernels", "cluster scheduling", "energy", "compiler", "zebra")


@pytest.fixture
def refreshed(tmp_path):
    served = generated_feeds(tmp_path / "served", FEEDS, ENTRIES, seed=5, weeks=6)
    config = Config()
    config.settings.auto_refresh = False
    config.settings.fetch.store_batch = 15  # later batches wait in the spool
    engine = Engine(config, tmp_path / "data", background_writes=False)
    with FeedServer(served, latency_ms=20) as server:
        for index in range(FEEDS):
            engine.add_topic(f"Feed {index}", TopicDefinition(feeds=(server.url(feed_file_name(index)),)))
            engine.follow(f"Feed {index}")
        yield engine, server
    engine.close()


def spy(monkeypatch, engine, name):
    """Record the papers each call of engine.<name> is asked for."""
    calls: list[int] = []
    real = getattr(engine, name)

    def recorded(ids_or_positions, *args, **kwargs):
        ids_or_positions = list(ids_or_positions)
        calls.append(len(ids_or_positions))
        return real(ids_or_positions, *args, **kwargs)

    monkeypatch.setattr(engine, name, recorded)
    return calls


async def test_a_refresh_writes_the_vectors_and_word_index_of_what_it_stored(refreshed, monkeypatch):
    engine, _ = refreshed
    if not engine.vectors_wanted():
        pytest.skip("FEEDTUI_NO_VECTORS is set")
    await engine.refresh()
    assert len(engine.library) == FEEDS * ENTRIES
    read_back = spy(monkeypatch, engine, "_documents_in_steps")
    indexed = spy(monkeypatch, engine, "search_index")
    assert engine.compute_vectors() == FEEDS * ENTRIES
    assert sum(read_back) == 0  # every vector came from the parsers
    assert sum(indexed) == 0  # and every paper's words
    from_refresh = engine._read_vectors()

    # The same as computing both from the stored papers.
    engine.release_discovery()
    (engine.data_dir / "cache" / "vectors.bin").unlink()
    assert engine.compute_vectors() == FEEDS * ENTRIES
    assert sum(read_back) == FEEDS * ENTRIES
    again = engine._read_vectors()
    assert sorted(from_refresh.ids) == sorted(again.ids)
    for paper_id in again.ids:
        assert np.array_equal(from_refresh.codes[from_refresh.pos[paper_id]], again.codes[again.pos[paper_id]])
    engine.release_discovery()
    mapped = engine._whole_index()
    assert isinstance(mapped, MappedIndex)
    built = _compact(engine.search_index(engine._shown_positions()))
    for question in QUESTIONS:
        assert mapped.rank(question, None) == built.rank(question, None)


async def test_a_later_build_reads_only_the_papers_that_changed(refreshed, monkeypatch):
    engine, _ = refreshed
    await engine.refresh()
    engine.store_word_index()
    hidden = engine.library.ids[3]
    now = datetime.now(UTC)
    engine.cache.store([make_paper("2612.00001", title="Zebra crossings for sparse attention", published=now.isoformat())], {}, now)
    engine.load_library()
    engine.library.set_members(HIDE_TOPIC, [hidden])
    engine.release_discovery()
    indexed = spy(monkeypatch, engine, "search_index")
    mapped = engine._whole_index()
    assert indexed == [1]  # the new paper only
    assert isinstance(mapped, MappedIndex)
    assert hidden not in {mapped.paper_id(i) for i in range(mapped.count)}
    built = _compact(engine.search_index(engine._shown_positions()))
    for question in QUESTIONS:
        assert mapped.rank(question, None) == built.rank(question, None)
    assert mapped.rank("zebra", 1)[0][0] == "2612.00001"
