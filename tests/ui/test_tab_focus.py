"""Tab between the sidebar and the list does only what it must: the lists
redraw their cursor, cards keep their layouts, the footer dims the list's
keys without composing itself anew or moving the others, the screen is not redrawn
whole, the lists are neither restyled nor repainted whole (bench/bench_tab.py
times it)."""

from __future__ import annotations

from textual._compositor import Compositor
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.card_layout import CURSOR_BAR
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


def screen_cells(app, widget, text: str):
    """The styles of the cells on screen, inside `widget`, that show `text`."""
    from textual._context import visible_screen_stack

    visible_screen_stack.set(app._background_screens)
    region = widget.region
    found = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        if not region.y <= y < region.bottom:
            continue
        x = 0
        for segment in strip:
            if text in segment.text and region.x <= x < region.right:
                found.append(segment.style)
            x += segment.cell_length
    return found


def list_cursor_colours(app, paper_list) -> set:
    """The colours of the cursor bar at the cards' left, as drawn."""
    return {(style.color, style.bgcolor) for style in screen_cells(app, paper_list, CURSOR_BAR)}


def component(widget, name: str):
    style = widget.get_component_rich_style(name)
    return style.color, style.bgcolor


async def test_tab_shows_the_focus_in_the_cursors_colours_repainting_only_them(make_engine, monkeypatch):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list, topic_list = main.query_one(PaperList), main.query_one(TopicList)
        await pilot.press("tab")
        await pilot.pause()
        bar_colour = {colours[0] for colours in list_cursor_colours(app, paper_list)}
        assert bar_colour == {component(paper_list, "paper-list--cursor")[0]}

        restyled: list[str] = []
        repainted: list[tuple[str, tuple]] = []
        update_nodes, refresh = Stylesheet.update_nodes, Widget.refresh

        def spy_update_nodes(self, nodes, animate=False):
            nodes = list(nodes)
            restyled.extend(type(node).__name__ for node in nodes)
            return update_nodes(self, nodes, animate)

        def spy_refresh(self, *regions, **options):
            if isinstance(self, (PaperList, TopicList)):
                repainted.append((type(self).__name__, regions))
            return refresh(self, *regions, **options)

        monkeypatch.setattr(Stylesheet, "update_nodes", spy_update_nodes)
        monkeypatch.setattr(Widget, "refresh", spy_refresh)
        await pilot.press("tab")
        await pilot.pause()
        assert topic_list.has_focus
        bar_colour = {colours[0] for colours in list_cursor_colours(app, paper_list)}
        assert bar_colour == {component(paper_list, "paper-list--cursor-blurred")[0]}
        assert bar_colour != {component(paper_list, "paper-list--cursor")[0]}
        assert "PaperList" not in restyled and "TopicList" not in restyled, "the lists are not restyled"
        assert repainted and all(regions for _, regions in repainted), "only the cursor's lines are repainted"
        assert {name for name, _ in repainted} == {"PaperList", "TopicList"}

        await pilot.press("tab")
        await pilot.pause()
        assert paper_list.has_focus
        assert {colours[0] for colours in list_cursor_colours(app, paper_list)} == {
            component(paper_list, "paper-list--cursor")[0]
        }


class FocusStyledApp(FeedtuiApp):
    CSS = "PaperList:focus { background: #3050a0; }"


async def test_a_focus_rule_in_the_stylesheet_still_applies(make_engine):
    app = FocusStyledApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert paper_list.styles.background != Color.parse("#3050a0")
        await pilot.press("tab")
        await pilot.pause()
        assert paper_list.has_focus
        assert paper_list.styles.background == Color.parse("#3050a0")
        await pilot.press("tab")
        await pilot.pause()
        assert paper_list.styles.background != Color.parse("#3050a0")
