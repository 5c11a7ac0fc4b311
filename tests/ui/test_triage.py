"""Triage at speed: d marks read and moves on; J and K step through the
papers in the detail view."""

from __future__ import annotations

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.widgets.paper_list import PaperList

from tests.ui.test_app import SIZE, detail_text, open_detail, ready, show, until


async def test_d_marks_read_and_moves_to_the_next_paper(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        ids = [paper_list.source.paper_id(i) for i in range(paper_list.card_count)]
        await pilot.press("d", "d")
        await pilot.pause()
        assert [engine.is_read(pid) for pid in ids] == [True, True, False, False]
        assert paper_list.cursor_card.paper_id == ids[2]
        assert paper_list.cursor_card.read is False
        await pilot.press("k", "d")  # a read paper stays read
        await pilot.pause()
        assert engine.is_read(ids[1]) and paper_list.cursor_card.paper_id == ids[2]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not engine.is_read(ids[1]) and engine.is_read(ids[0])
        await pilot.press("G", "d")
        await pilot.pause()
        assert engine.is_read(ids[-1])
        assert app._notifications and list(app._notifications)[-1].message == "That was the last paper here"


async def test_j_and_k_in_the_detail_view_step_through_the_list(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Widgets")
        await ready(pilot)
        paper_list = main.query_one(PaperList)
        detail = await open_detail(pilot, main)
        assert "Widget sorting at scale" in detail_text(detail)
        await pilot.press("J")
        await until(pilot, lambda: detail.paper is not None and detail.paper.id == "2611.00002")
        await pilot.pause()
        assert "Gadgets and widgets together" in detail_text(detail)
        assert engine.is_read("2611.00002")  # opened, so read, as enter does
        assert paper_list.cursor_card.paper_id == "2611.00002"
        await pilot.press("K")
        await until(pilot, lambda: detail.paper is not None and detail.paper.id == "2611.00001")
        await pilot.press("K")  # at the top: said, and stays
        await pilot.pause()
        assert detail.paper.id == "2611.00001"
        assert list(app._notifications)[-1].message == "No previous paper in the list"
        await pilot.press("J", "J")
        await until(pilot, lambda: detail.paper is not None and detail.paper.id == "2611.00004")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, DetailScreen))
        assert paper_list.cursor_card.paper_id == "2611.00004"
