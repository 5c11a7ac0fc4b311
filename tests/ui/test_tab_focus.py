"""Tab between the sidebar and the list does only what it must: the lists
redraw their cursor, cards keep their layouts, the footer dims the list's
keys without composing itself anew or moving the others, the screen is not redrawn
whole (bench/bench_tab.py times it)."""

from __future__ import annotations

from textual._compositor import Compositor
from textual.widgets._footer import FooterKey

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.reader_footer import ReaderFooter
from feedtui.ui.widgets.topic_list import TopicList
from tests.ui.test_app import SIZE, ready


def shown_keys(app) -> list[str]:
    """The keys the footer offers (not those hidden or dimmed)."""
    return [key.description for key in app.screen.query(FooterKey) if key.display and not key.has_class("-disabled")]


async def test_tab_moves_the_focus_and_the_footer_follows_without_recomposing(make_engine, monkeypatch):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list, topic_list = main.query_one(PaperList), main.query_one(TopicList)
        await pilot.press("tab")
        await pilot.pause()
        assert paper_list.has_focus
        assert "Details" in shown_keys(app)
        assert shown_keys(app)[:2] == ["Quit", "Help"]
        widgets = list(main.query_one(ReaderFooter).query(FooterKey))
        layout = paper_list._layout(0, paper_list.size.width)

        updated: list[set[str]] = []
        update_widgets = Compositor.update_widgets

        def spy(self, changed):
            updated.append({type(w).__name__ for w in changed})
            return update_widgets(self, changed)

        monkeypatch.setattr(Compositor, "update_widgets", spy)
        for has_focus in (topic_list, paper_list, topic_list):
            await pilot.press("tab")
            await pilot.pause()
            assert has_focus.has_focus
            assert ("Details" in shown_keys(app)) == (has_focus is paper_list)
            assert shown_keys(app)[:2] == ["Quit", "Help"]
        assert list(main.query_one(ReaderFooter).query(FooterKey)) == widgets, "no widget mounted anew"
        assert all(key.display for key in widgets), "dimmed, not hidden: the other keys stay where they are"
        assert paper_list._layout(0, paper_list.size.width) is layout, "the card was not laid out again"
        assert not any("MainScreen" in names for names in updated), "the screen was not redrawn whole"
