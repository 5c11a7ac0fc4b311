"""The crash boundary (ui/crash.py): a bug in a key action, a message
handler or a worker is written to a crash report and the reader goes on; where it cannot
go on, the marks are saved first and the app ends, saying where the report is.
The bug is made on purpose by monkeypatching one method of the screen."""

from __future__ import annotations

import json

import pytest
from textual import __version__ as textual_version

from feedtui import __version__
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.crash import BURST, KEYS_KEPT
from feedtui.ui.screens.main import MainScreen
from feedtui.ui.widgets.paper_list import PaperList
from tests.ui.test_app import SIZE, ready


class Planted(RuntimeError):
    """The bug planted for the test."""


def plant(monkeypatch, name: str) -> None:
    def broken(self, *args, **kwargs):
        raise Planted(f"planted in {name}")

    monkeypatch.setattr(MainScreen, name, broken)


def reports(engine) -> list:
    return sorted((engine.data_dir / "crash-reports").glob("crash-*.txt"))


def error_notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications if n.severity == "error"]


async def test_a_key_action_that_raises_is_reported_and_the_reader_goes_on(make_engine, monkeypatch):
    engine = make_engine()
    plant(monkeypatch, "action_star")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        typed = ["j", "k"] * 30
        await pilot.press(*typed, "s")
        await pilot.pause()
        (report,) = reports(engine)
        notes = error_notes(app)
        assert len(notes) == 1 and str(report) in notes[0] and "Planted" in notes[0]
        text = report.read_text()
        assert f"feedtui: {__version__}" in text and f"textual: {textual_version}" in text
        assert "Planted: planted in action_star" in text and "Traceback" in text
        keys = text.split("oldest first: ", 1)[1].splitlines()[0].split()
        assert keys == (typed + ["s"])[-KEYS_KEPT:]
        # The reader goes on: m still marks the paper under the cursor.
        await pilot.press("m")
        await pilot.pause()
        assert main.query_one(PaperList).cursor_card.read
        assert app.is_running and app.return_code is None


async def test_a_message_handler_that_raises_is_reported_and_the_screen_goes_on(make_engine, monkeypatch):
    engine = make_engine()
    plant(monkeypatch, "open_detail")  # called by on_paper_opened, a message handler
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("enter")  # PaperList.Opened, handled by the main screen
        await pilot.pause()
        assert len(reports(engine)) == 1 and len(error_notes(app)) == 1
        # The screen's message loop still runs: m (an action) and its repaint.
        await pilot.press("m")
        await pilot.pause()
        assert main.query_one(PaperList).cursor_card.read
        assert app.is_running


async def test_where_it_cannot_go_on_marks_are_saved_and_the_report_named(make_engine, monkeypatch):
    """The same bug again and again, at once: the reader stops, but not
    before the read mark made just before is on disk."""
    engine = make_engine()
    plant(monkeypatch, "action_star")
    app = FeedtuiApp(engine)
    with pytest.raises(Planted):
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            main.query_one(PaperList).focus()
            await pilot.press("m")
            paper = main.query_one(PaperList).cursor_card.paper_id
            await pilot.press(*["s"] * BURST)
            await pilot.pause()
    assert app.return_code == 1
    assert len(reports(engine)) == BURST
    boundary = app.crash_boundary
    assert str(boundary.fatal_report) in boundary.stopped_message()
    assert paper in json.loads((engine.data_dir / "state.json").read_text())["read"]


async def test_a_worker_that_raises_is_reported_and_the_reader_goes_on(make_engine, monkeypatch):
    """A worker's exception reaches the app (Textual's exit_on_error): the
    boundary reports it instead of ending the reader."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)

        def broken() -> None:
            raise Planted("planted in a thread worker")

        main.run_worker(broken, thread=True, group="planted")
        for _ in range(100):
            if reports(engine):
                break
            await pilot.pause(0.02)
        (report,) = reports(engine)
        assert "planted in a thread worker" in report.read_text()
        assert len(error_notes(app)) == 1
        main.query_one(PaperList).focus()
        await pilot.press("m")
        await pilot.pause()
        assert main.query_one(PaperList).cursor_card.read
        assert app.is_running and app.return_code is None
