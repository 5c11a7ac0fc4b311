"""The reader shows the papers another feedtui stored (cron's `feedtui
refresh`) also when its own refresh ran at the same time."""

from __future__ import annotations

from feedtui.engine import Engine
from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from tests.held_feeds import held_feeds
from tests.ui.test_app import SIZE, list_title, ready, refresh_over, until


async def test_papers_stored_elsewhere_during_the_readers_refresh_are_shown(make_engine):
    """R while cron's refresh ran: the cron's papers were never shown (the
    topic said "No papers yet"; r got 304s) until the reader was restarted."""
    with held_feeds(["Their widget"], ["My gadget"]) as feeds:
        engine = make_engine(
            topics={"Theirs": TopicDefinition(feeds=(feeds.prompt_url,)), "Mine": TopicDefinition(feeds=(feeds.held_url,))},
            follows=("Mine",),
        )
        cron = Engine(engine.config, engine.data_dir, background_writes=False)
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            await pilot.press("R")
            await until(pilot, feeds.asked.is_set)
            assert (await cron.refresh(["Theirs"])).new_papers == 1
            feeds.release.set()
            await refresh_over(pilot, main)
            main.go_to_topic("Theirs")
            await until(pilot, lambda: list_title(main) == "Latest papers (1)")
            assert list_title(main) == "Latest papers (1)"
            main.go_to_topic("Mine")
            await pilot.pause()
            assert list_title(main) == "Latest papers (1)"
        cron.close()
