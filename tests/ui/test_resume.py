"""A restart opens on the topic and card the reader left."""

from __future__ import annotations

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.presenter import STARRED_VIEW
from feedtui.ui.screens.main_parts.resume import PLACE_PREF
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList

from tests.ui.test_app import SIZE, in_view, ready, show, until


async def quit_on(engine, topic: str, cards_down: int) -> None:
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await show(pilot, topic)
        main.query_one(PaperList).focus()
        for _ in range(cards_down):
            await pilot.press("j")
        await pilot.pause()
        await pilot.press("q")
        await until(pilot, lambda: app.leaving.is_set())


async def test_a_restart_opens_on_the_topic_and_card_left(make_engine):
    """It opened on the first followed topic, its first card."""
    engine = make_engine(follows=("Widgets", "Gadgets"))
    await quit_on(engine, "Gadgets", 1)
    assert engine.pref(PLACE_PREF) == {"topic": "Gadgets", "paper": "2611.00003"}
    assert engine.unsaved_changes()[1] == 0
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert in_view(main) == ("Gadgets", "Gadgets", "Gadgets")
        assert main.query_one(PaperList).cursor_card.paper_id == "2611.00003"


async def test_the_reading_list_is_a_place_too(make_engine):
    engine = make_engine()
    engine.star(["2611.00002"])
    await quit_on(engine, STARRED_VIEW, 0)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == STARRED_VIEW
        assert main.query_one(TopicList).current == STARRED_VIEW


async def test_a_topic_gone_since_opens_as_before(make_engine):
    engine = make_engine(follows=("Widgets", "Gadgets"))
    await quit_on(engine, "Gadgets", 1)
    engine.remove_topic("Gadgets")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets"
        assert main.query_one(PaperList).cursor == 0
