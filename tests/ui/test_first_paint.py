"""What the reader holds back until its first frame is on screen, and lets go
of once it is (a real app on Textual's headless driver, checked by what is on
screen): the collector, paused by run_tui through the start."""

from __future__ import annotations

import gc

from feedtui.memory import gc_paused
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.main import MainScreen
from tests.ui.test_app import list_title


async def test_the_collector_runs_again_once_the_first_frame_is_painted(make_engine):
    engine = make_engine()
    engine.load_library()
    app = FeedtuiApp(engine)
    app.until_first_paint.enter_context(gc_paused())  # as run_tui does
    try:
        assert not gc.isenabled()
        async with app.run_test(size=(160, 48)) as pilot:
            for _ in range(200):
                if isinstance(app.screen, MainScreen) and gc.isenabled():
                    break
                await pilot.pause(0.02)
            assert list_title(app.screen).startswith("Latest papers")
            assert gc.isenabled()
    finally:
        app.until_first_paint.close()
    assert gc.isenabled()


async def test_a_start_without_the_pause_paints_all_the_same(make_engine):
    engine = make_engine()
    engine.load_library()
    app = FeedtuiApp(engine)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert list_title(app.screen).startswith("Latest papers")
        assert gc.isenabled()


async def test_the_dialog_sheets_are_read_when_the_detail_view_opens_and_style_it(make_engine):
    """styles/screens/ is left out of the start (see ui/styles.py) yet styles
    the detail view: its padding and its authors' are those the sheet gives."""
    from feedtui.ui.screens.detail import DetailScreen
    from feedtui.ui.styles import screen_sheets
    from tests.ui.test_app import open_detail, ready

    sheets = [str(path) for path in screen_sheets()]
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(160, 48)) as pilot:
        main = await ready(pilot)
        assert not any(app.stylesheet.has_source(sheet, "") for sheet in sheets)
        detail = await open_detail(pilot, main)
        assert isinstance(detail, DetailScreen)
        assert all(app.stylesheet.has_source(sheet, "") for sheet in sheets)
        box = detail.query_one("#detail")
        assert (box.styles.padding.top, box.styles.padding.left) == (1, 2)
        assert detail.query_one("#detail-authors").styles.padding.left == 2
