"""Keys typed faster than the reader draws (issue 34): each of the four
exception classes a burst of keys set off, as a burst the terminal sends."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.bindings import all_bindings
from feedtui.ui.screens.help import HelpScreen
from feedtui.ui.screens.pick_topic import PickTopicScreen
from feedtui.ui.screens.topic_form import TopicFormScreen
from feedtui.ui.widgets.topic_list import TopicList
from tests.ui.test_app import SIZE, ready, until


def no_report(app) -> bool:
    """No crash report was written (the boundary is a last resort, not a fix)."""
    boundary = getattr(app, "crash_boundary", None)
    return boundary is None or boundary.reports == []


def burst(app, *keys: str) -> None:
    """Keys as the terminal sends them: all queued before any is handled."""
    for key in keys:
        character = {"escape": "\x1b", "question_mark": "?"}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, character)
        event.set_sender(app)
        app._driver.send_message(event)


async def test_page_keys_in_a_sidebar_that_shows_no_topic(make_engine):
    """IndexError in TopicList.action_page_up: a filter that matches nothing."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("ctrl+f", *"zzzzqq")
        await pilot.pause()
        assert main.query_one(TopicList).rows == []
        main.query_one(TopicList).focus()
        await pilot.press("pageup", "pagedown")
        await pilot.pause()
        assert app.is_running and no_report(app)


async def test_page_keys_in_a_picker_before_its_lines_are_laid_out(make_engine):
    """KeyError in Textual's OptionList._move_page: the list had no lines yet."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for _ in range(3):
            app.push_screen(PickTopicScreen([f"Topic {n}" for n in range(40)]))
            burst(app, "down", "pagedown", "pageup", "pagedown", "escape")
            await pilot.pause()
        await pilot.resize_terminal(40, 3)  # no room: the list's lines are cleared
        app.push_screen(PickTopicScreen([f"Topic {n}" for n in range(40)]))
        await pilot.pause()
        burst(app, "down", "pagedown", "pageup")
        await pilot.pause()
        assert app.is_running and no_report(app)


async def test_a_closing_screen_looks_up_no_widget(make_engine):
    """NoMatches: '#help' on HelpScreen, '#topic-name' on TopicFormScreen
    (typed(), after the form was closed)."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        help_screen = HelpScreen(all_bindings(), {})
        await app.push_screen(help_screen)
        await pilot.pause()
        help_screen.dismiss()
        await pilot.pause()
        help_screen.action_scroll_down()  # a j that was on its way
        form = TopicFormScreen("Add a topic", lambda draft: None)
        await app.push_screen(form)
        await pilot.pause()
        form.query_one("#topic-name", Input).value = "Typed"
        form.action_cancel()
        await pilot.pause()
        assert form.typed().name == ""  # its fields are gone
        form.action_cancel()  # a second escape
        await pilot.pause()
        assert app.screen is app.main_screen
        assert app.is_running and no_report(app)


async def test_a_screen_dismissed_twice_takes_nothing_else_with_it(make_engine):
    """ScreenStackError: the second dismiss popped the main screen, the third failed."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        help_screen = HelpScreen(all_bindings(), {})
        await app.push_screen(help_screen)
        await pilot.pause()
        help_screen.dismiss()
        help_screen.dismiss()
        help_screen.dismiss()
        await pilot.pause()
        assert app.screen is app.main_screen
        # The help opened again is closed by `q`; a second `q` would quit.
        burst(app, "question_mark", "escape", "escape", "escape", "question_mark", "q")
        await until(pilot, lambda: app.screen is app.main_screen, tries=200, step=0.05)
        assert no_report(app)


async def test_the_palette_takes_page_keys_and_closes_under_a_burst(make_engine):
    """KeyError (page keys before the palette's list had lines) and NoMatches
    'CommandList' (its search ending after it closed)."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        for keys in (["ctrl+p", "pagedown", "pageup", "escape"], ["ctrl+p", "t", "pagedown", "escape", "escape"],
                     ["ctrl+p", "down", "pagedown", "pageup", "pagedown", "escape"]):
            burst(app, *keys)
            await until(pilot, lambda: app.screen is app.main_screen, tries=200, step=0.05)
        assert app.is_running and no_report(app)
