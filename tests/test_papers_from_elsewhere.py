"""Papers another process stored (cron's `feedtui refresh`, a second reader)
are never taken as loaded by an engine that has not loaded them, however its
own stores and loads interleave with that process's."""

from __future__ import annotations

import asyncio
from pathlib import Path

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition
from tests.factories import make_paper
from tests.held_feeds import held_feeds


def engines(data: Path, topics: dict[str, TopicDefinition]) -> tuple[Engine, Engine]:
    """(the reader, another process), on one data directory, the reader's library loaded."""
    config = Config()
    config.settings.auto_refresh = False
    reader = Engine(config, data, background_writes=False)
    for name, definition in topics.items():
        reader.add_topic(name, definition)
    reader.state.flush()
    reader.load_library()
    return reader, Engine(config, data, background_writes=False)


async def until_asked(feeds) -> None:
    for _ in range(200):
        if feeds.asked.is_set():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the held feed was never asked for")


async def test_a_store_elsewhere_while_a_refresh_runs_is_still_to_be_loaded(tmp_path):
    """The reader's R while cron's refresh ran: the reader's own store took
    the generation the other one made as its own, and never loaded its papers."""
    with held_feeds(["Their widget"], ["My gadget"]) as feeds:
        reader, other = engines(
            tmp_path / "data",
            {"Theirs": TopicDefinition(feeds=(feeds.prompt_url,)), "Mine": TopicDefinition(feeds=(feeds.held_url,))},
        )
        refresh = asyncio.ensure_future(reader.refresh(["Mine"]))
        await until_asked(feeds)
        assert (await other.refresh(["Theirs"])).new_papers == 1
        feeds.release.set()
        assert (await refresh).new_papers == 1
    assert reader.library.unread_count("Mine") == 1
    assert reader.cache_changed_elsewhere()
    reader.load_library()
    assert reader.library.unread_count("Theirs") == 1
    assert not reader.cache_changed_elsewhere()
    for engine in (reader, other):
        engine.close()


async def test_a_store_elsewhere_of_the_papers_a_refresh_then_fetches_is_still_to_be_loaded(tmp_path):
    """Two readers refreshing one new topic at once: the second found every
    paper stored already, wrote nothing, and took the first one's generation
    as seen; its topic stayed empty."""
    with held_feeds(["Shared widget one", "Shared widget two"], []) as feeds:
        reader, other = engines(tmp_path / "data", {"Shared": TopicDefinition(feeds=(feeds.prompt_url,))})
        assert (await other.refresh(["Shared"])).new_papers == 2
        assert (await reader.refresh(["Shared"], force=True)).new_papers == 0
    assert reader.cache_changed_elsewhere()
    reader.load_library()
    assert reader.library.unread_count("Shared") == 2
    for engine in (reader, other):
        engine.close()


def test_a_store_elsewhere_while_the_library_loads_is_still_to_be_loaded(tmp_path, monkeypatch):
    reader, other = engines(tmp_path / "data", {"Widgets": TopicDefinition(query="abs:widget")})
    read_index = reader.cache.load_index

    def index_then_a_store_elsewhere(**how):
        index = read_index(**how)
        other.cache.store([make_paper("2611.00001", abstract="A widget.")], {})
        return index

    monkeypatch.setattr(reader.cache, "load_index", index_then_a_store_elsewhere)
    reader.load_library()
    assert len(reader.library) == 0
    assert reader.cache_changed_elsewhere()
    for engine in (reader, other):
        engine.close()


async def test_the_engines_own_store_is_not_taken_for_one_elsewhere(tmp_path):
    """Without this, every refresh would reload the whole library (half a second at 40,000 papers)."""
    with held_feeds(["My widget"], []) as feeds:
        reader, other = engines(tmp_path / "data", {"Mine": TopicDefinition(feeds=(feeds.prompt_url,))})
        assert (await reader.refresh(["Mine"])).new_papers == 1
    assert not reader.cache_changed_elsewhere()
    for engine in (reader, other):
        engine.close()
