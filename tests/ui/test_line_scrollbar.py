"""LineScrollBar draws exactly what Textual's own scrollbar draws, for the paper list and the topic list."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.scrollbar import ScrollBar

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.line_scrollbar import LineScrollBar
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList

from tests.ui.test_paper_list import make_card, run


def same_as_textuals(scrollbar: ScrollBar) -> list:
    """The bar's rows (asserting they match Textual's, whole and cropped)."""
    assert isinstance(scrollbar, LineScrollBar)
    whole = Region(0, 0, *scrollbar.size)
    ours = scrollbar.render_lines(whole)
    textuals = ScrollBar.render_lines(scrollbar, whole)
    assert len(ours) == scrollbar.size.height
    assert [list(line) for line in ours] == [list(line) for line in textuals]
    # A crop (the compositor asks for the rows it repaints) is the same rows.
    crop = Region(0, 3, scrollbar.size.width, 5)
    assert [list(line) for line in scrollbar.render_lines(crop)] == [list(line) for line in textuals[3:8]]
    return ours


def thumb_rows(lines: list) -> list[int]:
    """Rows of the thumb: reverse video, or a partial-block glyph."""
    return [row for row, line in enumerate(lines) if any(seg.style and (seg.style.reverse or seg.text.strip()) for seg in line)]


@pytest.mark.parametrize("presses", [0, 1, 7, 400, 9_999])
async def test_the_line_scrollbar_draws_what_textuals_scrollbar_draws(presses):
    app, running = run([make_card(n) for n in range(10_000)], size=(80, 30))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        if presses == 9_999:
            await pilot.press("end")
        else:
            for _ in range(presses):
                paper_list.action_next()
        await pilot.pause()
        ours = same_as_textuals(paper_list.vertical_scrollbar)
        assert len(ours) == 30
        # The thumb moves down the track as the list scrolls.
        thumb = thumb_rows(ours)
        assert thumb
        if presses == 0:
            assert thumb[0] == 0
        if presses == 9_999:
            assert thumb[-1] == 29


async def test_the_topic_list_scrollbar_is_one_too(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(100, 14)) as pilot:
        await pilot.pause()
        topics = app.screen.query_one(TopicList)
        assert topics.max_scroll_y > 0  # the catalogue overflows a 14-row terminal
        top = thumb_rows(same_as_textuals(topics.vertical_scrollbar))
        topics.focus()
        await pilot.press("end")
        await pilot.pause()
        bottom = thumb_rows(same_as_textuals(topics.vertical_scrollbar))
        assert top[0] == 0 and bottom[-1] == topics.vertical_scrollbar.size.height - 1



async def test_a_faded_list_gets_textuals_blended_scrollbar():
    app, running = run([make_card(n) for n in range(500)], size=(80, 30))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        paper_list.styles.opacity = 0.5
        await pilot.pause()
        scrollbar = paper_list.vertical_scrollbar
        whole = Region(0, 0, *scrollbar.size)
        faded = [list(line) for line in scrollbar.render_lines(whole)]
        assert faded == [list(line) for line in ScrollBar.render_lines(scrollbar, whole)]
        paper_list.styles.opacity = 1.0
        await pilot.pause()
        assert [list(line) for line in scrollbar.render_lines(whole)] != faded
