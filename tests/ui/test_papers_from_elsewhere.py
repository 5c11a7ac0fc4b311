"""The reader shows the papers another feedtui stored (cron's `feedtui
refresh`) also when its own refresh ran at the same time."""

from __future__ import annotations

from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.paper_list import PaperList
from tests.factories import make_paper
from tests.held_feeds import held_feeds
from tests.ui.conftest import NOW
from tests.ui.test_app import SIZE, lines_of, list_title, ready, refresh_over, until


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


async def test_a_paper_stored_elsewhere_shows_its_abstract_on_its_card(make_engine):
    """Papers cron's `feedtui refresh` stored in a week whose cards were on
    screen came with a blank gap for their abstract until they were opened:
    the reader kept that week's abstract heads as it had read them."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic("Widgets")
        await until(pilot, lambda: list_title(main) == "Latest papers (4)")
        assert any("Widgets sorted by a widget network." in line for line in lines_of(main.query_one(PaperList)))
        cron = Engine(engine.config, engine.data_dir, background_writes=False, clock=lambda: NOW)
        cron.load_library()
        late = make_paper("2611.00009", title="A widget from cron", abstract="Cron found this widget overnight.", published="2026-11-26T10:00:00")
        cron.cache.store([late], {}, NOW)
        cron.retag(["Widgets"])
        cron.close()
        main.refresher.check_cache_elsewhere()
        await until(pilot, lambda: list_title(main) == "Latest papers (5)")
        main.query_one(PaperList).focus()
        await pilot.press("home")
        cards = lines_of(main.query_one(PaperList))
        title_at = next(n for n, line in enumerate(cards) if "A widget from cron" in line)
        assert any("Cron found this widget overnight." in line for line in cards[title_at + 1 : title_at + 4])
