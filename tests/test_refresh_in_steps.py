"""A long refresh stores what has come every PERIODIC_COMMIT_S and says so,
so the reader can show it before the slowest source has answered."""

from __future__ import annotations

import asyncio

import pytest

from feedtui import engine as engine_module
from feedtui.config import Config
from feedtui.engine import Engine
from feedtui.model import TopicDefinition
from tests.held_feeds import held_feeds


async def test_papers_from_prompt_sources_land_while_a_slow_one_is_still_fetched(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    landed: list[tuple[int, int, bool]] = []
    with held_feeds(["Prompt widget one", "Prompt widget two"], ["Late gadget"]) as feeds:
        engine.add_topic("Prompt", TopicDefinition(feeds=(feeds.prompt_url,)))
        engine.add_topic("Held", TopicDefinition(feeds=(feeds.held_url,)))

        def on_landed() -> None:
            library = engine.library
            landed.append((library.unread_count("Prompt"), library.unread_count("Held"), feeds.release.is_set()))

        refresh = asyncio.ensure_future(engine.refresh(["Prompt", "Held"], on_landed=on_landed))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if landed:
                break
        assert landed == [(2, 0, False)]
        # On disk too: another process reading the cache now sees them.
        other = Engine(config, tmp_path / "data", background_writes=False)
        assert len(other.library) == 2
        other.close()
        feeds.release.set()
        report = await refresh
    assert report.new_papers == 3
    # The last step is the caller's to show, as before: no call for it.
    assert len(landed) == 1
    assert engine.library.unread_count("Held") == 1


async def test_a_refresh_stopped_stores_what_it_has_fetched(tmp_path, monkeypatch):
    """The reader quitting mid-refresh stops it: sources that had answered were
    lost until fetched again (the periodic store comes only every 10 s)."""
    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 60.0)
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    answered = []
    with held_feeds(["Prompt widget one", "Prompt widget two"], ["Late gadget"]) as feeds:
        engine.add_topic("Prompt", TopicDefinition(feeds=(feeds.prompt_url,)))
        engine.add_topic("Held", TopicDefinition(feeds=(feeds.held_url,)))
        refresh = asyncio.ensure_future(engine.refresh(["Prompt", "Held"], on_progress=answered.append))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if answered and feeds.asked.is_set():
                break
        assert [p.label for p in answered if p.ok] and not feeds.release.is_set()
        refresh.cancel()
        with pytest.raises(asyncio.CancelledError):
            await refresh
    engine.close()
    other = Engine(config, tmp_path / "data", background_writes=False)
    assert len(other.library) == 2
    other.close()
