"""A terminal shrunk to a few cells while a dialog is open: Textual 8.2.8
failed to wrap the command palette's options with no cell left for their
text (ValueError in rich's chop_cells) and to draw the topic picker narrower
than its border (IndexError in the compositor). Found by the random-key run
(scripts/monkey.py)."""

from __future__ import annotations

import pytest

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.pick_topic import PickTopicScreen
from tests.ui.test_app import SIZE, ready
from tests.ui.test_fast_keys import no_report


@pytest.mark.parametrize("dialog", ["palette", "picker"])
async def test_a_dialog_lives_through_a_terminal_a_few_cells_wide(make_engine, dialog):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        if dialog == "palette":
            app.action_command_palette()
        else:
            app.push_screen(PickTopicScreen(["Widgets", "Gadgets"]))
        await pilot.pause(0.2)
        opened = app.screen
        for width in range(12, 1, -1):
            await pilot.resize_terminal(width, 12)
            await pilot.pause()
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert app.is_running and app.screen is opened
        assert no_report(app)
