"""ctrl+z after D: the removal is what is taken back, never an older mark."""

from __future__ import annotations

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.topic_form import ConfirmScreen
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList

from tests.ui.test_app import SIZE, ready, show, until


def messages(app) -> list[str]:
    return [n.message for n in app._notifications]


async def remove_shown_topic(pilot) -> None:
    await pilot.press("D")
    await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
    await pilot.press("y")
    await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen))
    await pilot.pause()


async def test_undo_after_removing_a_topic_brings_it_back_and_leaves_older_marks(make_engine):
    """ctrl+z after D y undid a read mark made earlier on another topic."""
    engine = make_engine(follows=("Widgets", "Gadgets"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("m")  # the first Widgets paper read
        await pilot.pause()
        read_first = main.query_one(PaperList).cursor_card.paper_id
        assert engine.is_read(read_first)
        await show(pilot, "Gadgets")
        await remove_shown_topic(pilot)
        assert not engine.has_topic("Gadgets")
        assert "Removed Gadgets — ctrl+z to undo" in messages(app)
        app.clear_notifications()

        await pilot.press("ctrl+z")
        await until(pilot, lambda: engine.has_topic("Gadgets"))
        assert engine.is_read(read_first)  # the older mark is untouched
        assert engine.is_following("Gadgets")
        assert engine.topic("Gadgets").topic.definition.query == "abs:gadget"
        await until(pilot, lambda: main.current == "Gadgets")
        assert "Gadgets" in main.query_one(TopicList).row_text("Gadgets")
        assert messages(app) == ["Gadgets is back, followed", "Undone: removed the topic Gadgets"]

        app.clear_notifications()
        await pilot.press("ctrl+z")  # now the read mark, and said so
        await pilot.pause()
        assert not engine.is_read(read_first)
        assert messages(app)[-1].startswith("Undone: marked “")


async def test_undo_brings_back_a_hidden_catalogue_topic_followed_as_it_was(make_engine):
    engine = make_engine(follows=("Widgets",))
    name = next(n for n in engine.topic_names() if engine.is_catalogue_topic(n))
    engine.follow(name)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await show(pilot, name)
        await remove_shown_topic(pilot)
        assert not engine.has_topic(name)
        await pilot.press("ctrl+z")
        await until(pilot, lambda: engine.has_topic(name) and main.current == name)
        assert engine.is_following(name)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert messages(app)[-1] == "Nothing to undo"


async def test_undo_of_a_removal_the_other_process_undid_already_says_why(make_engine):
    engine = make_engine(follows=("Widgets",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await show(pilot, "Gadgets")
        await remove_shown_topic(pilot)
        other = TopicDefinition(query="abs:gizmo")
        engine.add_topic("Gadgets", other)  # as another feedtui would have
        app.clear_notifications()
        await pilot.press("ctrl+z")
        await pilot.pause()
        said = messages(app)
        assert len(said) == 1 and said[0].startswith("Could not undo (removed the topic Gadgets): "), said
        assert engine.topic("Gadgets").topic.definition == other
