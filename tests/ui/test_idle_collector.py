"""The app's full garbage collections wait for the reader to pause."""

from __future__ import annotations

import gc

from feedtui.memory import IdleCollector
from feedtui.ui.app import FeedtuiApp


async def test_full_collections_are_the_apps_while_it_runs_and_python_s_after(make_engine):
    before = gc.get_threshold()
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert gc.get_threshold()[2] == IdleCollector.OFF
        assert gc.get_threshold()[:2] == (max(before[0], app.idle_collector.young_threshold), before[1])
        stamped = app.idle_collector._last_input
        await pilot.press("j")
        assert app.idle_collector._last_input > stamped  # a key is activity
        await pilot.pause(0.2)
        assert app.idle_collector.young_collections >= 1  # and the young generations go once it is painted
    assert gc.get_threshold() == before


async def test_a_pause_gets_its_full_collection(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        collector = app.idle_collector
        collector.idle_s = 0.2
        gc.collect(1)  # something young was collected since the last full collection
        await pilot.pause(1.5)  # no input: the next tick collects
        assert collector.full_collections >= 1
        assert gc.get_count()[2] <= 1
