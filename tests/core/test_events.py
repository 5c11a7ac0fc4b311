"""The engine's events, and the one step that follows every refresh."""

from __future__ import annotations

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.core.events import (
    EngineEvent,
    MarksSaved,
    PapersStored,
    RefreshProgress,
    SourceFailed,
    StateChangedElsewhere,
    StateRecovered,
)
from feedtui.model import TopicDefinition

from tests.core.test_refresh_match_rows import rss, serve


def test_what_another_process_saved_comes_as_an_event(tmp_path):
    here = Engine(Config(), tmp_path / "data", background_writes=False)
    there = Engine(Config(), tmp_path / "data", background_writes=False)
    seen: list[EngineEvent] = []
    here.subscribe(seen.append, StateChangedElsewhere, MarksSaved)
    there.set_pref("sort", "trending")
    there.flush()
    here.set_pref("theme", "textual-light")
    here.flush()
    assert StateChangedElsewhere() in seen
    assert [e.after_failure for e in seen if isinstance(e, MarksSaved)] == [False]
    assert here.pref("sort") == "trending"


def test_an_unsubscribed_callback_hears_nothing_more(tmp_path):
    engine = Engine(Config(), tmp_path / "data", background_writes=False)
    seen: list[EngineEvent] = []
    unsubscribe = engine.subscribe(seen.append)
    engine.set_pref("sort", "trending")
    engine.flush()
    assert len(seen) == 1
    unsubscribe()
    engine.set_pref("sort", "newest")
    engine.flush()
    assert len(seen) == 1


def test_a_recovery_nobody_hears_is_kept_among_the_problems(tmp_path):
    engine = Engine(Config(), tmp_path / "data", background_writes=False)
    engine._state_recovered("state.json was damaged")
    assert engine.problems.messages[-1] == "state.json was damaged"
    heard: list[EngineEvent] = []
    engine.subscribe(heard.append, StateRecovered)
    engine._state_recovered("again")
    assert heard == [StateRecovered("again")] and "again" not in engine.problems.messages


async def test_a_refresh_publishes_its_steps_and_after_refresh_prunes(tmp_path, httpserver):
    config = Config()
    config.settings.cache_limit = 30
    engine = Engine(config, tmp_path / "data", background_writes=False)
    alpha = serve(httpserver, "/alpha.xml", rss("alpha", 40))
    engine.add_topic("Alpha", TopicDefinition(feeds=(alpha,)))
    engine.add_topic("Gone", TopicDefinition(feeds=(httpserver.url_for("/gone.xml"),)))
    engine.follow("Alpha")
    engine.follow("Gone")
    seen: list[EngineEvent] = []
    engine.subscribe(seen.append, PapersStored, RefreshProgress, SourceFailed)
    assert engine.after_refresh() == 0  # nothing loaded, nothing stored: nothing to do

    report = await engine.refresh()

    assert report.new_papers == 40
    assert PapersStored(40, 0) in seen
    progress = [e for e in seen if isinstance(e, RefreshProgress)]
    assert sorted((p.done, p.total) for p in progress) == [(1, 2), (2, 2)]
    failed = [e for e in seen if isinstance(e, SourceFailed)]
    assert len(failed) == 1 and "gone" in failed[0].label
    assert engine.after_refresh() == 10
    assert len(engine.library) == 30 and engine.stale_topics == []
