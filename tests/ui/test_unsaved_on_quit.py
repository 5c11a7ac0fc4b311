"""Quitting while changes cannot be saved (a read-only or full data
directory): the reader asks first, and the last word says what was lost."""

from __future__ import annotations

import gc

import pytest
from textual.widgets import Static

from feedtui.store import tinydb_io
from feedtui.store.files import StoreError
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.run import run_tui
from feedtui.ui.screens.main import MainScreen
from feedtui.ui.screens.topic_form import ConfirmScreen
from tests.ui.test_app import SIZE, ready, until


def read_only(self) -> None:
    raise StoreError("could not save state.json: the file system is read-only")


@pytest.fixture
def saves_fail(monkeypatch):
    """Call to make every save fail from then on."""
    return lambda: monkeypatch.setattr(tinydb_io.Database, "flush", read_only)


def said(screen) -> str:
    return " ".join(str(static.render()) for static in screen.query(Static))


async def test_q_with_changes_that_cannot_be_saved_asks_first(make_engine, saves_fail):
    """q quit at once, and the marks were lost with only "could not save …" said."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert engine.state.wait_durable()
        saves_fail()
        await pilot.press("J", "m", "j", "m", "f")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert said(app.screen) == (
            "2 read marks and 1 unfollow are not saved: quit anyway? "
            "Could not save state.json: the file system is read-only. Left open, feedtui saves them once it can. "
            "y: yes · n: no"
        )
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen) and app.return_code is None
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.return_code is not None)
        assert app.return_code == 0


@pytest.mark.parametrize(
    ("keymap", "quit_key"),
    [({}, "q"), ({"app.quit": "ctrl+q,x"}, "x")],
    ids=["q", "quit moved by a keymap"],
)
async def test_quit_twice_quits_all_the_same(make_engine, saves_fail, keymap, quit_key):
    """With a keymap that moves quit, its key answers the question too."""
    engine = make_engine()
    engine.settings.keymap = keymap
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert engine.state.wait_durable()
        saves_fail()
        await pilot.press("J", "m", quit_key)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert said(app.screen).startswith("1 read mark is not saved: quit anyway? ")
        await pilot.press(quit_key)
        await until(pilot, lambda: app.return_code is not None)
        assert app.return_code == 0


async def test_q_with_changes_saved_at_last_quits_at_once(make_engine, saves_fail, monkeypatch):
    """The disk writable again before the store's next try: q saves and quits."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert engine.state.wait_durable()
        saves_fail()
        await pilot.press("J", "m")
        monkeypatch.undo()
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None)
        assert app.return_code == 0
        assert not isinstance(app.screen, ConfirmScreen)
    assert not engine.state.dirty


def test_the_last_word_says_what_could_not_be_saved(make_engine, monkeypatch, capsys, tmp_path):
    """It said only "could not save …/state.json: …"."""
    seeded = make_engine()
    seeded.close()

    def session(app) -> None:  # the reader, as the user leaves it
        monkeypatch.setattr(tinydb_io.Database, "flush", read_only)
        app.engine.mark_read(["2611.00001", "2611.00002"])
        app.engine.unfollow("Widgets")
        app.engine.star(["2611.00003"])
        app.engine.unstar(["2611.00003"])  # undone before it was saved: nothing lost

    monkeypatch.setattr(FeedtuiApp, "run", session)
    try:
        assert run_tui(seeded.config, tmp_path / "data") == 1
    finally:
        gc.unfreeze()
    assert capsys.readouterr().err.splitlines() == [
        "feedtui: could not save state.json: the file system is read-only",
        "feedtui: 2 read marks and 1 unfollow were not saved",
    ]
