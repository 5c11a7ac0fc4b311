"""The reader driven by keys, checked by what is on screen and in the database."""

from __future__ import annotations

import asyncio

import inspect
import json
import os
import re
import shlex
import threading
import webbrowser
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widgets import Input

from feedtui.model import TopicDefinition
from feedtui.store.lock import DataDirLock
from feedtui.store.state import StateStore
from feedtui.ui import paper_actions
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.presenter import STARRED_VIEW, VIRTUAL_VIEWS
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.screens.main import MainScreen
from feedtui.ui.screens.main_parts.refresh import Refresher
from feedtui.ui.screens.main_parts.sidebar import Sidebar
from feedtui.ui.widgets.paper_list import CARD_HEIGHT, PaperList
from feedtui.ui.widgets.status_line import StatusLine
from feedtui.ui.widgets.topic_header import TopicHeader
from feedtui.ui.widgets.topic_list import TopicList

SIZE = (120, 40)


def lines_of(widget) -> list[str]:
    region = Region(0, 0, widget.size.width, widget.size.height)
    return [strip.text for strip in widget.render_lines(region)]


def terminal_lines(app) -> list[str]:
    """The terminal's lines as drawn: the screen on top, and through a modal
    screen's translucent background the screens under it."""
    from textual._context import visible_screen_stack

    visible_screen_stack.set(app._background_screens)
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def bottom_line(app) -> str:
    """The terminal's last line, where the footer is ("" before the first layout)."""
    lines = terminal_lines(app)
    return lines[-1] if lines else ""


def list_title(main) -> str:
    """The list's title as it is on screen."""
    return lines_of(main.query_one("#list-title"))[0].rstrip()


def detail_text(detail) -> str:
    """The detail view's text as it is on screen, line by line."""
    return "\n".join(line.rstrip() for static in detail.query("#detail > Static") for line in lines_of(static))


def sidebar_row(app, name: str) -> str:
    return app.screen.query_one(TopicList).row_text(name)


def told(app, words: str) -> bool:
    """Whether a notification with these words has reached the app (notify
    posts a message: it lands after what the code did next)."""
    return any(words in notification.message for notification in app._notifications)


def in_view(main: MainScreen) -> tuple[str | None, str | None, str]:
    """The topic shown, as the reader sees it: (the screen's current topic, the
    sidebar's cursor row, the header's first line)."""
    header = main.query_one(TopicHeader).text.splitlines()
    return main.current, main.query_one(TopicList).current, header[0].split("  ")[0].strip() if header else ""


def unread_shown(app, name: str) -> int:
    """The unread count the sidebar row shows (none shown: 0)."""
    last = sidebar_row(app, name).split()[-1]
    return int(last.replace(",", "")) if last.replace(",", "").isdigit() else 0


async def ready(pilot) -> MainScreen:
    main = pilot.app.main_screen
    await until(pilot, lambda: main.ready and main.current)
    await pilot.pause()
    return main


async def open_detail(pilot, main: MainScreen) -> DetailScreen:
    """The paper under the list's cursor, opened with enter and loaded."""
    main.query_one(PaperList).focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, DetailScreen) and pilot.app.screen.paper is not None, tries=50)
    return pilot.app.screen


async def refresh_over(pilot, main: MainScreen, limit_s: float = 10.0) -> None:
    """Wait until the refresh under way has ended (its worker too), `limit_s` at most."""
    await until(pilot, lambda: not main.refresher.busy, tries=int(limit_s / 0.05), step=0.05)
    await pilot.pause()


async def show(pilot, name: str) -> MainScreen:
    main = pilot.app.main_screen
    main.go_to_topic(name)
    await pilot.pause()
    return main


async def until(pilot, holds, *, tries: int = 100, step: float = 0.02, or_go_on: bool = False) -> None:
    """Let the app run until `holds()` is true; after `tries` pauses the test
    fails, naming what was awaited, unless `or_go_on` (wait at most that long)."""
    for _ in range(tries):
        if holds():
            return
        await pilot.pause(step)
    if not or_go_on and not holds():
        raise AssertionError(f"never held: {awaited(holds)}")


def awaited(holds) -> str:
    """The condition `until` waited for, as written where it was given."""
    try:
        return inspect.getsource(holds).strip()
    except (OSError, TypeError):
        return repr(holds)


@contextmanager
def prompt_and_held_feeds(make_engine, prompt: list[str], held: list[str], *, others: dict | None = None, **options):
    """(engine, feeds): an engine following two feed topics served on 127.0.0.1,
    "Prompt", answered at once, and "Held", whose answer waits for
    `feeds.release`; `others` are topics beside them."""
    from feedtui.model import TopicDefinition

    from tests.held_feeds import held_feeds

    with held_feeds(prompt, held) as feeds:
        topics = {
            **(others or {}),
            "Prompt": TopicDefinition(feeds=(feeds.prompt_url,)),
            "Held": TopicDefinition(feeds=(feeds.held_url,)),
        }
        yield make_engine(topics=topics, follows=("Prompt", "Held"), **options), feeds


async def test_starts_on_the_first_followed_topic_with_cards(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets"
        assert "Widgets" in main.query_one(TopicHeader).text
        assert "Following" in main.query_one(TopicHeader).text
        text = "\n".join(lines_of(main.query_one(PaperList)))
        assert "Widget sorting at scale" in text
        assert "Nov 25, 2026 · cs.DC" in text
        assert sidebar_row(app, "Widgets").startswith("★ Widgets")
        assert sidebar_row(app, "Widgets").rstrip().endswith("4")


async def test_the_follow_hint_stays_on_the_title_line_or_is_left_out(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(120, 30)) as pilot:
        main = await ready(pilot)
        title = main.query_one(TopicHeader).query_one("#header-title")
        assert [line.rstrip() for line in lines_of(title)] == ["Widgets    ★ Following   f unfollows"]
        await pilot.resize_terminal(48, 30)
        await pilot.pause()
        assert [line.rstrip() for line in lines_of(title)] == ["Widgets    ★ Following"]
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert [line.rstrip() for line in lines_of(title)] == ["Widgets    ★ Following   f unfollows"]


async def test_f_follows_persists_at_once_and_reorders_the_sidebar(make_engine, tmp_path):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Gadgets")
        await ready(pilot)
        main = await show(pilot, "Gadgets")
        topic_list = main.query_one(TopicList)
        names = topic_list.names()
        assert names.index("Gadgets") > names.index("::Topics")
        await pilot.press("f")
        await pilot.pause()
        names = topic_list.names()
        assert names.index("Gadgets") < names.index("::Topics")
        assert "Following" in main.query_one(TopicHeader).text
        assert engine.state.wait_durable(timeout=1.0)
        # Another process sees it.
        other = StateStore(tmp_path / "data" / "state.json", DataDirLock(tmp_path / "data"), background=False)
        assert other.is_following("Gadgets")
        await pilot.press("f")
        await pilot.pause()
        assert not engine.state.is_following("Gadgets")


async def test_a_scrolled_sidebar_repaints_the_rows_whose_counts_change(make_engine):
    """With the sidebar scrolled, `m` repainted the wrong screen line (the
    scroll was taken off twice), so the changed counts stayed stale on screen
    until the cursor moved there."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=(120, 24)) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        index = topic_list.names().index("Gadgets")
        topic_list.scroll_to(y=index - 3, animate=False)
        await pilot.pause()
        assert int(topic_list.scroll_y) == index - 3 > 0
        repainted: list[int] = []
        real_refresh = topic_list.refresh

        def refresh(*regions, **options):
            repainted.extend(y for region in regions for y in range(region.y, region.bottom))
            return real_refresh(*regions, **options)

        topic_list.refresh = refresh
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        before = int(sidebar_row(app, "Gadgets").split()[-1])
        await pilot.press("j")  # "Gadgets and widgets together": in both topics
        await pilot.press("m")
        await pilot.pause()
        assert int(sidebar_row(app, "Gadgets").split()[-1]) == before - 1
        assert 3 in repainted  # the screen line Gadgets is drawn on


async def test_m_dims_the_card_and_every_count_drops(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("j")  # "Gadgets and widgets together": in both topics
        card = paper_list.cursor_card
        assert card.paper_id == "2611.00002" and not card.read
        widgets_before = engine.library.unread_count("Widgets")
        gadgets_before = engine.library.unread_count("Gadgets")
        await pilot.press("m")
        await pilot.pause()
        assert paper_list.cursor_card.read
        assert engine.library.unread_count("Widgets") == widgets_before - 1
        assert engine.library.unread_count("Gadgets") == gadgets_before - 1
        assert sidebar_row(app, "Gadgets").rstrip().endswith(str(gadgets_before - 1))
        assert sidebar_row(app, "Widgets").rstrip().endswith(str(widgets_before - 1))
        title_y = paper_list.card_region(1).y - int(paper_list.scroll_y) + 1
        style = paper_list.get_style_at(6, title_y)
        assert style.dim or (style.color and style.color.triplet and sum(style.color.triplet) < 600)
        await pilot.press("m")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == widgets_before


async def test_n_goes_to_the_next_unread_across_topics(make_engine):
    engine = make_engine(read=("2611.00001", "2611.00002", "2611.00004", "2610.00005"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert engine.library.unread_count("Widgets") == 0
        main.query_one(PaperList).focus()
        await pilot.press("n")
        await pilot.pause()
        assert main.current == "Gadgets"
        assert main.query_one(PaperList).cursor_card.paper_id == "2611.00003"


async def test_n_goes_to_the_next_topic_down_the_sidebar_followed_ones_first(make_engine):
    """n went to the next topic by name: from Gadgets to Sprockets, far down
    under "Topics", past Widgets followed right below it."""
    from feedtui.model import TopicDefinition

    topics = {
        "Gadgets": TopicDefinition(query="abs:gadget"),
        "Sprockets": TopicDefinition(query="abs:older"),
        "Widgets": TopicDefinition(query="abs:widget"),
    }
    engine = make_engine(topics=topics, follows=("Gadgets", "Widgets"), read=("2611.00002", "2611.00003"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Gadgets" and engine.library.unread_count("Sprockets") == 1
        names = [name for name in main.query_one(TopicList).names() if name not in VIRTUAL_VIEWS]
        assert names[:4] == ["::Following", "Gadgets", "Widgets", "::Topics"] and "Sprockets" in names
        main.query_one(PaperList).focus()
        await pilot.press("n")
        await pilot.pause()
        assert main.current == "Widgets"
        assert main.query_one(PaperList).cursor_card.paper_id == "2611.00001"


async def test_n_rounds_to_an_unread_paper_above_the_cursor_in_the_same_topic(make_engine):
    engine = make_engine(read=("2611.00002", "2611.00003", "2611.00004", "2610.00005"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets" and engine.library.unread_count("Widgets") == 1
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("j", "j")
        assert paper_list.cursor_card.paper_id == "2611.00004"
        await pilot.press("n")
        await pilot.pause()
        assert main.current == "Widgets"
        assert paper_list.cursor_card.paper_id == "2611.00001"


async def test_n_on_the_last_unread_paper_says_so(make_engine):
    engine = make_engine(read=("2611.00002", "2611.00003", "2611.00004", "2610.00005"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("n")
        await pilot.pause()
        assert paper_list.cursor_card.paper_id == "2611.00001"
        await pilot.press("n")
        await until(pilot, lambda: told(app, "This is the last unread paper"))
        assert paper_list.cursor_card.paper_id == "2611.00001"
        paper_list.focus()
        await pilot.press("m", "n")
        await until(pilot, lambda: told(app, "No unread papers left"))


async def test_n_in_a_filtered_sidebar_says_the_filter_hides_the_rest(make_engine):
    engine = make_engine(read=("2611.00002", "2611.00004", "2610.00005"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert engine.library.unread_count("Gadgets") == 1  # n would go there, were it shown
        await pilot.press("ctrl+f", *"widg", "enter")
        await pilot.pause()
        assert main.current == "Widgets"
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        assert paper_list.cursor_card.paper_id == "2611.00001"
        await pilot.press("n")
        await until(pilot, lambda: told(app, "This is the last unread paper in the topics the sidebar filter shows"))
        await pilot.press("m", "n")
        await until(pilot, lambda: told(app, "No unread papers left in the topics the sidebar filter shows"))
        assert main.current == "Widgets"


async def test_n_in_the_reading_list_rounds_within_it(make_engine):
    engine = make_engine()
    engine.star(["2611.00001", "2611.00003"])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.show_topic(STARRED_VIEW)
        await pilot.pause()
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        assert [paper_list.cursor_card.paper_id, len(main.topic_view.cards)] == ["2611.00001", 2]
        await pilot.press("j")
        assert paper_list.cursor_card.paper_id == "2611.00003"
        await pilot.press("n")  # nothing unread below: back to the top of the list, not to a topic
        await pilot.pause()
        assert main.current == STARRED_VIEW
        assert paper_list.cursor_card.paper_id == "2611.00001"
        engine.mark_read(["2611.00001", "2611.00003"])
        main.show_topic(STARRED_VIEW)
        await pilot.press("n")
        await pilot.pause()
        assert main.current == STARRED_VIEW
        assert "No unread papers left in the reading list" in [n.message for n in app._notifications]


async def test_the_reading_list_says_how_many_starred_papers_are_not_in_the_cache(make_engine):
    """Stars imported from another machine for papers this cache lacks were
    left out of the reading list without a word."""
    engine = make_engine()
    engine.state.star(["2601.00042", "2601.00043"])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.show_topic(STARRED_VIEW)
        await pilot.pause()
        header = main.query_one(TopicHeader).text
        assert "2 starred papers are not in the cache, so not listed; R fetches the arXiv ones." in header
        assert main.query_one(PaperList).empty_message == "None of your starred papers is in the cache (see above)"
        engine.star(["2611.00001", "web:0123456789abcdef"])
        engine.state.unstar(["2601.00042", "2601.00043"])
        main.show_topic(STARRED_VIEW)
        await pilot.pause()
        assert len(main.topic_view.cards) == 1
        assert main.query_one(TopicHeader).text.endswith("1 starred paper is not in the cache, so not listed.")


async def test_the_reading_lists_row_counts_its_unread_papers_as_topic_rows_do(make_engine):
    """It counted every starred paper, read or not, beside rows counting unread ones."""
    engine = make_engine()
    engine.star(["2611.00001", "2611.00002"])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "2"
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        assert paper_list.cursor_card.paper_id == "2611.00001"
        await pilot.press("m")
        await pilot.pause()
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "1"
        await pilot.press("m")  # unread again
        await pilot.pause()
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "2"
        await pilot.press("M")  # the whole topic, both starred papers in it
        await pilot.pause()
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "·"
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "2"
        main.rebuild_sidebar()
        await pilot.pause()
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "2"


async def test_the_trending_sort_breaks_ties_as_the_cli_does(make_engine, capsys, monkeypatch, closed_port):
    """Equal scores went by name in the sidebar but by volume in `feedtui topics`."""
    from feedtui.cli import main as cli_main
    from feedtui.model import TopicDefinition

    from tests.factories import make_paper
    from tests.ui.conftest import NOW

    papers = [
        make_paper("2611.00101", abstract="A balanced view.", published="2026-11-20T10:00:00"),
        make_paper("2610.00102", abstract="A balanced view again.", published="2026-10-20T10:00:00"),
    ]
    topics = {"Aardvark": TopicDefinition(query="abs:aardvark"), "Balanced": TopicDefinition(query="abs:balanced")}
    engine = make_engine(papers=papers, topics=topics, follows=())
    engine.state.set_pref("sort", "trending")
    engine.state.flush()
    momenta = engine.momenta(["Aardvark", "Balanced"])
    assert momenta["Aardvark"].score == momenta["Balanced"].score == 0
    assert (momenta["Aardvark"].last4, momenta["Balanced"].last4) == (0, 1)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        shown = [name for name in main.query_one(TopicList).names() if name in topics]
    assert shown == ["Balanced", "Aardvark"]
    engine.close()
    # Offline: the past window's count of arXiv's new papers is not had, as in the reader.
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    argv = ["--data-dir", str(engine.data_dir), "topics", "--sort", "trending", "--json", "--as-of", NOW.isoformat()]
    assert await asyncio.to_thread(cli_main, argv) == 0  # the CLI runs its own event loop
    ranked = [t["name"] for t in json.loads(capsys.readouterr().out) if t["name"] in topics]
    assert ranked == shown


async def test_the_followed_marker_stays_visible_on_the_selected_topic(make_engine):
    """In the default theme the marker's colour is the cursor's: it vanished."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        for focused in (False, True):
            if focused:
                topic_list.focus()
                await pilot.pause()
            lines = lines_of(topic_list)
            y = next(i for i, line in enumerate(lines) if "★ Widgets" in line)
            style = topic_list.get_style_at(lines[y].index("★"), y)
            assert style.color is not None and style.bgcolor is not None
            assert style.color.triplet != style.bgcolor.triplet, focused


@pytest.mark.parametrize("theme", ["textual-dark", "tokyo-night"])
async def test_the_sidebar_cursor_row_is_a_tint_of_the_accent_darker_when_blurred(make_engine, theme):
    """The cursor row was drawn on the solid accent (1.03:1 against the text in
    tokyo-night) and the same focused or not: the stylesheet's alpha was dropped."""
    from textual.color import Color

    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        variables = app.get_css_variables()
        surface, accent = Color.parse(variables["surface"]), Color.parse(variables["accent"])
        backgrounds = {}
        for focused in (False, True):
            (topic_list if focused else main.query_one(PaperList)).focus()
            await pilot.pause()
            lines = lines_of(topic_list)
            y = next(i for i, line in enumerate(lines) if "★ Widgets" in line)
            backgrounds[focused] = Color.from_rich_color(topic_list.get_style_at(lines[y].index("Widgets"), y).bgcolor)
    assert backgrounds[True] == surface.blend(accent, 0.6)
    assert backgrounds[False] == surface.blend(accent, 0.25)
    assert accent not in backgrounds.values()

async def test_mark_all_read_then_undo(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert [unread_shown(app, name) for name in ("Widgets", "Gadgets")] == [4, 2]
        await pilot.press("M")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == 0
        assert engine.library.unread_count("Gadgets") == 1  # only 2611.00003 left
        assert [unread_shown(app, name) for name in ("Widgets", "Gadgets")] == [0, 1]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == 4
        assert engine.library.unread_count("Gadgets") == 2
        assert [unread_shown(app, name) for name in ("Widgets", "Gadgets")] == [4, 2]
        assert not any(engine.state.is_read(pid) for pid in ("2611.00001", "2611.00002"))
        # One paper left unread: said in the singular.
        await pilot.press("J", "m", "j", "m", "j", "m")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == 1
        app.clear_notifications()
        await pilot.press("M")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["Marked 1 paper read — ctrl+z to undo"]


async def test_undo_takes_back_marks_and_stars_one_at_a_time_latest_first(make_engine):
    """ctrl+z took back only M: after m or s it undid an older M, or nothing."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("M")  # four Widgets papers read
        await pilot.press("j", "m")  # the second one unread again
        await pilot.press("k", "s")  # the first one starred
        await pilot.pause()
        assert engine.state.is_starred("2611.00001") and not engine.state.is_read("2611.00002")
        app.clear_notifications()
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not engine.state.is_starred("2611.00001")
        assert not paper_list.cursor_card.starred
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert engine.state.is_read("2611.00002")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == 4
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "Undone: starred “Widget sorting at scale”",
            "Undone: marked “Gadgets and widgets together” unread",
            "Undone: marked 4 papers read in Widgets",
            "Nothing to undo",
        ]


async def test_a_mark_made_in_the_detail_view_is_undone_too(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("enter")  # opening it marks it read
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen) and engine.state.is_read("2611.00001")
        await pilot.press("m", "escape")
        await pilot.pause()
        assert not engine.state.is_read("2611.00001")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert engine.state.is_read("2611.00001")


async def test_ctrl_z_works_in_the_detail_view_and_its_marks_follow(make_engine):
    """It did nothing there, while the "ctrl+z to undo" notice was still on screen."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("M", "enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert "● unread" not in str(app.screen.query_one("#detail-body").render())
        app.clear_notifications()
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert not engine.state.is_read("2611.00001")
        assert "● unread" in str(app.screen.query_one("#detail-body").render())
        assert [n.message for n in app._notifications] == ["Undone: marked 4 papers read in Widgets"]


async def test_the_read_mark_that_opening_a_paper_gives_is_undone_by_ctrl_z(make_engine):
    """Opening a paper marks it read, but ctrl+z right after said "Nothing to undo"."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        detail = await open_detail(pilot, main)
        assert engine.state.is_read("2611.00001") and "● unread" not in detail_text(detail)
        app.clear_notifications()
        await pilot.press("ctrl+z")  # in the detail view
        await pilot.pause()
        assert app.screen is detail and not engine.state.is_read("2611.00001")
        assert "● unread" in detail_text(detail)
        assert [n.message for n in app._notifications] == ["Undone: marked “Widget sorting at scale” read"]
        await pilot.press("escape")
        await pilot.pause()
        paper_list = main.query_one(PaperList)
        assert not paper_list.cursor_card.read
        assert sidebar_row(app, "Widgets").rstrip().endswith("4")
        # The next paper opened, then undone back in the list.
        await pilot.press("j")
        await open_detail(pilot, main)
        await pilot.press("escape")
        await pilot.pause()
        assert paper_list.cursor_card.read and sidebar_row(app, "Widgets").rstrip().endswith("3")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not engine.state.is_read("2611.00002") and not paper_list.cursor_card.read
        assert sidebar_row(app, "Widgets").rstrip().endswith("4")
        # A paper read already, opened, gives nothing to undo: ctrl+z takes back the mark before it.
        await pilot.press("m")
        await open_detail(pilot, main)
        app.clear_notifications()
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            "Undone: marked “Gadgets and widgets together” read",
            "Nothing to undo",
        ]
        assert not engine.state.is_read("2611.00002")


@pytest.fixture
def held_index_build(monkeypatch):
    """Ask's index builds wait until the test sets the event (5 s at most).
    `calls` counts the builds of Ask's thread only: after a refresh the
    reader also stores the whole cache's word index, in a worker of its own."""
    import threading

    from feedtui.search import SearchIndex

    built = threading.Event()
    built.calls = 0
    build = SearchIndex.build

    def slow_build(papers):
        if threading.current_thread().name == "feedtui-ask":
            built.calls += 1
            built.wait(5)
        return build(papers)

    monkeypatch.setattr(SearchIndex, "build", staticmethod(slow_build))
    yield built
    built.set()


async def test_an_ask_left_while_its_index_is_built_does_not_take_over_the_list(make_engine, held_index_build, words_only):
    """Its results landed later over whatever was shown (another topic's list,
    thousands of papers under a five-paper header), and M then marked them."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("slash", *"widget", "enter")
        await pilot.pause()
        assert list_title(main) == "Asking about Widgets…"
        await pilot.press("escape")
        await show(pilot, "Gadgets")
        held_index_build.set()
        for _ in range(20):
            await pilot.pause(0.05)
        assert list_title(main) == "Latest papers (2)"
        await pilot.press("M")
        await pilot.pause()
        assert engine.library.unread_count("Gadgets") == 0
        assert engine.library.unread_count("Widgets") == 3  # only the one it shares with Gadgets
        # The index built meanwhile answers the next question about Widgets at once.
        await show(pilot, "Widgets")
        await pilot.press("slash", *"sorting", "enter")
        await pilot.pause()
        assert list_title(main) == "Ask: sorting — 1 paper, best match first  (esc: back)"


async def test_keys_typed_while_an_ask_is_answered_do_not_go_into_the_question(make_engine, held_index_build):
    """The box kept the focus until the answer came (seconds at 10,000 papers):
    `u` typed meanwhile became part of the question ("federated optimiseru")."""
    app = FeedtuiApp(make_engine(read=("2611.00002",)))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("slash", *"widget", "enter", "u")
        await pilot.pause()
        assert main.query_one("#ask", Input).value == "widget"
        assert main.unread_only
        held_index_build.set()
        await until(pilot, lambda: list_title(main).startswith("Ask:"))
        assert list_title(main) == "Ask: widget — 3 unread of 4 papers  (u shows all)  (esc: back)"


async def test_a_question_asked_again_while_the_index_is_built_shares_that_build(make_engine, held_index_build, words_only):
    """A question asked again before the index was ready started a second
    build of it (seconds at 10,000 papers, both fighting for the keys' thread)."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("slash", *"widget", "enter")
        await pilot.pause()
        assert list_title(main) == "Asking about Widgets…"
        await pilot.press("slash", *"sorting", "enter")
        await pilot.pause()
        held_index_build.set()
        await until(pilot, lambda: list_title(main).startswith("Ask:"))
        assert list_title(main) == "Ask: sorting — 1 paper, best match first  (esc: back)"
        assert held_index_build.calls == 1


async def test_an_index_build_stopped_by_a_base_exception_is_built_again_at_the_next_question(
    make_engine, monkeypatch, words_only):
    """Its future stayed pending for ever, and every Ask on the topic said
    "Asking about …" for ever."""
    from feedtui.search import SearchIndex

    class Stopped(BaseException):
        pass

    build = SearchIndex.build
    calls = []

    def stopped_once(papers):
        calls.append(papers)
        if len(calls) == 1:
            raise Stopped
        return build(papers)

    monkeypatch.setattr(SearchIndex, "build", staticmethod(stopped_once))
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert await asked(pilot, main, "sorting") == "Latest papers (4)"
        assert any(n.startswith("Could not search Widgets: ") for n in notifications(app))
        assert await asked(pilot, main, "sorting") == "Ask: sorting — 1 paper, best match first  (esc: back)"
        assert len(calls) == 2


async def test_an_index_build_left_unanswered_does_not_hold_up_quitting(make_engine, held_index_build):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"widget", "enter")
        await pilot.pause()
        await pilot.press("escape")
        builders = [t for t in threading.enumerate() if t.name == "feedtui-ask"]
        assert builders and all(t.daemon for t in builders)


async def test_an_ask_shown_is_not_built_again_when_a_refresh_stores_other_topics_papers(
    make_engine, monkeypatch, held_index_build, words_only):
    """Every step a long refresh stored (every 10 s of an arXiv query) built
    the Ask's index again, seconds of CPU at 10,000 papers, though the topic
    had the same papers."""
    from feedtui.core import refresh as engine_module
    from feedtui.model import TopicDefinition

    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    held_index_build.set()
    widgets = {"Widgets": TopicDefinition(query="abs:widget")}
    with prompt_and_held_feeds(make_engine, ["Prompt gizmo one", "Prompt gizmo two"], ["Late gizmo"], others=widgets) as (
        engine,
        feeds,
    ):
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            main = await show(pilot, "Widgets")
            assert await asked(pilot, main, "sorting") == "Ask: sorting — 1 paper, best match first  (esc: back)"
            await pilot.press("R")
            await until(pilot, lambda: len(engine.library) == 7, step=0.05)
            assert len(engine.library) == 7 and not feeds.release.is_set()  # a step landed
            feeds.release.set()
            await refresh_over(pilot, main, 5.0)
            assert len(engine.library) == 8
            assert list_title(main) == "Ask: sorting — 1 paper, best match first  (esc: back)"
            assert held_index_build.calls == 1


async def test_papers_landing_while_an_index_is_built_wait_for_that_build_then_build_once(
    make_engine, monkeypatch, held_index_build, words_only):
    """A second build of the topic started beside the first, both competing
    for the keys' thread."""
    from feedtui.core import refresh as engine_module
    from feedtui.model import TopicDefinition

    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    widgets = {"Widgets": TopicDefinition(query="ti:widget")}
    with prompt_and_held_feeds(make_engine, ["Prompt widget one"], ["Late gizmo"], others=widgets) as (engine, feeds):
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            main = await show(pilot, "Widgets")
            await pilot.press("slash", *"prompt", "enter")
            await pilot.pause()
            assert list_title(main) == "Asking about Widgets…"
            await pilot.press("R")
            await until(pilot, lambda: len(engine.library.topic_positions("Widgets")) == 4, step=0.05)
            assert len(engine.library.topic_positions("Widgets")) == 4  # the new paper landed in it
            await pilot.pause(0.1)
            assert held_index_build.calls == 1
            held_index_build.set()
            await until(pilot, lambda: list_title(main).startswith("Ask:"))
            assert list_title(main) == "Ask: prompt — 1 paper, best match first  (esc: back)"
            assert held_index_build.calls == 2
            feeds.release.set()
            await refresh_over(pilot, main, 5.0)


async def test_an_ask_finds_the_new_version_of_one_of_its_papers(make_engine, httpserver, held_index_build, words_only):
    from werkzeug import Response

    from feedtui.model import TopicDefinition

    from tests.atom import Entry, api_feed

    versions = [Entry("2611.09999", title="A fresh widget", summary="New widget results.", published="2026-11-26T09:00:00Z")]
    httpserver.expect_request("/good.xml").respond_with_handler(
        lambda request: Response(api_feed(versions[-1:]), content_type="application/atom+xml")
    )
    held_index_build.set()
    engine = make_engine(topics={"Good feed": TopicDefinition(feeds=(httpserver.url_for("/good.xml"),))}, follows=("Good feed",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("r")
        await refresh_over(pilot, main)
        assert await asked(pilot, main, "sprocket") == "Ask: sprocket — no paper matches  (esc: back)"
        versions.append(replace(versions[0], version=2, summary="New widget results, with a sprocket."))
        await pilot.press("r")
        await refresh_over(pilot, main)
        await until(pilot, lambda: list_title(main) == "Ask: sprocket — 1 paper, best match first  (esc: back)")
        assert list_title(main) == "Ask: sprocket — 1 paper, best match first  (esc: back)"
        assert held_index_build.calls == 2


async def test_ask_ranks_and_highlights(make_engine, words_only):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("slash")
        await pilot.press(*"gadget")
        await pilot.press("enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        title = list_title(main)
        assert title == "Ask: gadget — 1 paper, best match first  (esc: back)"
        paper_list = main.query_one(PaperList)
        assert paper_list.cursor_card.paper_id == "2611.00002"
        assert paper_list.cursor_card.highlight == ("gadget",)
        await pilot.press("escape")
        await pilot.pause()
        assert paper_list.card_count == 4
        assert "Latest papers" in list_title(main)
        # Nothing found: said in words, and the way back fits on the line.
        await pilot.press("slash", *"zeppelin", "enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        assert list_title(main) == "Ask: zeppelin — no paper matches  (esc: back)"
        assert main.query_one(PaperList).empty_message == "No paper in this topic matches those words"
        # Only stopwords: said why nothing matched.
        await pilot.press("escape", "slash", *"the of and", "enter")
        await until(pilot, lambda: "Ask: the" in list_title(main), tries=50)
        assert main.query_one(PaperList).empty_message.startswith("Only common words")
        # A long question is cut, not the count or the way back.
        await pilot.press("escape", "slash", *("gadget " * 10), "enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        assert list_title(main).endswith("… — 1 paper  (esc: back)")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("!!!", "The question has no words to search for: ask with words"),
        ("the of and", "Only common words (the, of, papers…) were asked: ask with others"),
    ],
)
async def test_an_ask_with_nothing_to_search_for_says_why(make_engine, question, said):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("slash", *question, "enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        await pilot.pause()
        assert any(line.strip() == said for line in lines_of(main.query_one(PaperList)))


@pytest.mark.parametrize("width", [60, 80, 100])
async def test_the_ask_title_keeps_the_count_and_the_way_back_in_view(make_engine, width):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(width, 30)) as pilot:
        main = await ready(pilot)
        await pilot.press("slash", *"widget sorting network scale calibration", "enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        title = list_title(main)
        assert title.startswith("Ask: widg")
        assert title.endswith(" — 4 papers  (esc: back)") or title.endswith(" — 4 papers, best match first  (esc: back)")
        assert len(title) <= main.query_one("#list-title").size.width
        # Resized, the title is fitted again.
        await pilot.resize_terminal(160, 30)
        await pilot.pause()
        assert list_title(main) == "Ask: widget sorting network scale calibration — 4 papers, best match first  (esc: back)"


async def asked(pilot, main, question: str) -> str:
    """The list's title once the question typed in the Ask box is answered."""
    await pilot.press("slash", *question, "enter")
    # Answered, or said it could not be.
    await until(pilot, lambda: "Ask:" in list_title(main) or any(n.startswith("Could not search") for n in notifications(main.app)), tries=50)
    await pilot.pause()
    return list_title(main)


@pytest.mark.parametrize("width", [60, 160])
async def test_an_ask_with_unread_only_says_so_and_that_the_papers_it_hides_are_read(make_engine, width, words_only):
    """Matches all read were "No paper in this topic matches those words"."""
    app = FeedtuiApp(make_engine(read=("2611.00001", "2611.00002")))
    async with app.run_test(size=(width, 30)) as pilot:
        main = await ready(pilot)
        await pilot.press("u")
        title = await asked(pilot, main, "gadget")
        assert title.startswith("Ask: ") and "none unread" in title and title.endswith("  (esc: back)")
        assert len(title) <= main.query_one("#list-title").size.width
        said = "The paper that matches those words is read — u shows it"
        if width > 100:
            assert title == "Ask: gadget — 1 paper, none unread  (u shows all)  (esc: back)"
            assert any(line.strip() == said for line in lines_of(main.query_one(PaperList)))
        assert main.query_one(PaperList).empty_message == said
        await pilot.press("escape")
        title = await asked(pilot, main, "widget")
        if width > 100:
            assert title == "Ask: widget — 2 unread of 4 papers, best match first  (u shows all)  (esc: back)"
        else:  # what does not fit goes, not the count or the way back
            assert title.startswith("Ask: widg") and title.endswith(" — 2 unread  (esc: back)")
            assert len(title) <= main.query_one("#list-title").size.width


async def test_an_ask_with_unread_only_offers_to_show_all_only_when_it_hides_a_paper(make_engine, words_only):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("u")
        assert await asked(pilot, main, "sorting") == "Ask: sorting — 1 unread of 1 paper, best match first  (esc: back)"


async def test_moving_to_another_topic_in_the_sidebar_closes_the_ask_box(make_engine):
    """The box stayed, holding the question, over the next topic's papers."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("slash", *"gadget", "enter")
        await pilot.pause()
        assert main.query_one("#ask").display
        main.query_one(TopicList).focus()
        await pilot.press("j")
        await pilot.pause()
        assert main.current != "Widgets"
        assert not main.query_one("#ask").display and main.asking.question == ""


async def test_a_sidebar_move_made_as_a_retag_ends_is_kept(make_engine):
    """A retag (a topic saved, another feedtui's change) ends with catch_up,
    which rebuilt the sidebar on the topic shown. A j pressed just before,
    whose topic was not shown yet, was undone: the cursor went back and the
    key was lost (seen in tmux after saving a topic, at 100 topics)."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        sidebar = main.query_one(TopicList)
        sidebar.focus()
        await pilot.pause()
        shown_before = main.current
        sidebar.action_next()  # j: the cursor moves; the topic is shown when its message is handled
        moved_to = sidebar.current
        assert moved_to != shown_before and main.current == shown_before
        main.refresher.catch_up()  # the retag ends first
        await pilot.pause()
        assert in_view(main) == (moved_to, moved_to, moved_to)
        await pilot.press("j")
        await pilot.pause()
        assert main.current not in (shown_before, moved_to)


@pytest.mark.parametrize("from_sidebar", [True, False])
async def test_escape_in_the_ask_box_gives_the_focus_back_where_slash_was_pressed(make_engine, from_sidebar, words_only):
    """/ then escape from the sidebar left the focus in the list, where no
    other dialog leaves it; among the answers escape stays in the list."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list, paper_list = main.query_one(TopicList), main.query_one(PaperList)
        (topic_list if from_sidebar else paper_list).focus()
        await pilot.press("slash", *"gad", "escape")
        await pilot.pause()
        assert not main.query_one("#ask").display
        assert (topic_list.has_focus, paper_list.has_focus) == (from_sidebar, not from_sidebar)
        (topic_list if from_sidebar else paper_list).focus()
        assert await asked(pilot, main, "gadget") == "Ask: gadget — 1 paper, best match first  (esc: back)"
        await pilot.press("escape")
        await pilot.pause()
        assert paper_list.has_focus and paper_list.card_count == 4


@pytest.mark.parametrize(
    ("question", "paper_id", "line", "marked", "plain"),
    [
        # An author's name, on the authors line (every invented paper has her: any may come first).
        ("quill", None, "Ada Quill", "Quill", "Ada"),
        # `gadgets` ranked the paper that says `gadget` and marked nothing in it.
        ("gadgets", "2611.00002", "A gadget meets a widget.", "gadget", "meets"),
    ],
)
async def test_ask_highlights_the_words_it_found_on_the_card(make_engine, question, paper_id, line, marked, plain, words_only):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert (await asked(pilot, main, question)).startswith(f"Ask: {question}")
        paper_list = main.query_one(PaperList)
        if paper_id is not None:
            assert paper_list.cursor_card.paper_id == paper_id
        assert paper_list.cursor_card.highlight == (question,)
        lines = lines_of(paper_list)
        y = next(i for i, text in enumerate(lines) if line in text)
        word, other = lines[y].index(marked), lines[y].index(plain)
        assert paper_list.get_style_at(word, y) != paper_list.get_style_at(other, y)
        assert paper_list.get_style_at(word, y) == paper_list.get_style_at(word + len(marked) - 1, y)


async def test_an_ask_card_shows_the_match_that_is_past_its_abstracts_head(make_engine, words_only):
    """`scheduler` found papers whose cards showed none of it: the word was
    past the head of the abstract a card is drawn from. The card now reads the
    whole abstract and shows it from just before the match."""
    from tests.factories import make_paper
    from tests.ui.conftest import invented_papers

    filler = " ".join(f"Widget sentence {n} says nothing of note." for n in range(1, 30))
    # More of them than the list shows, so that the cards laid out ahead of
    # the view ask too: those on screen are read first.
    deep = [
        make_paper(
            f"2611.{40 + n:05d}", title=f"A long widget report {n}",
            abstract=f"{filler} Then a zeppelin scheduler runs the widgets.", published=f"2026-11-{26 - n % 3}T10:00:00",
        )
        for n in range(30)
    ]
    app = FeedtuiApp(make_engine(papers=[*invented_papers(), *deep]))
    # A tall terminal: the cards laid out ahead of the view outnumber a read's batch.
    async with app.run_test(size=(120, 100)) as pilot:
        main = await ready(pilot)
        assert (await asked(pilot, main, "zeppelin")).startswith("Ask: zeppelin — 30 papers")
        paper_list = main.query_one(PaperList)
        # Down the list in one go: every card passed asks for its abstract.
        await pilot.press(*["j"] * 20)
        shown = len(paper_list.visible_range())
        assert 1 < shown < 30

        def snippets() -> int:
            return sum("zeppelin scheduler" in line for line in lines_of(paper_list))

        await until(pilot, lambda: snippets() >= shown - 1)
        lines = lines_of(paper_list)
        y = next(i for i, line in enumerate(lines) if "zeppelin" in line)
        assert "…" in lines[y] or "…" in lines[y - 1]
        word, plain = lines[y].index("zeppelin"), lines[y].index("scheduler")
        assert paper_list.get_style_at(word, y) != paper_list.get_style_at(plain, y)


async def test_t_jumps_to_the_papers_other_topic(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("j", "t")
        await pilot.pause()
        assert in_view(main) == ("Gadgets", "Gadgets", "Gadgets")


async def test_escape_comes_back_from_tag_jumps_to_the_topic_and_card_they_left(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("j")
        left = paper_list.cursor_card.paper_id
        await pilot.press("t")
        await pilot.pause()
        assert in_view(main) == ("Gadgets", "Gadgets", "Gadgets")
        await pilot.press("escape")
        await pilot.pause()
        assert in_view(main) == ("Widgets", "Widgets", "Widgets")
        assert paper_list.cursor_card.paper_id == left and paper_list.has_focus
        await pilot.press("escape")  # nothing left to go back to: it stays
        await pilot.pause()
        assert main.current == "Widgets"
        # Gone elsewhere by the sidebar, escape does not take the reader back along the trail.
        await pilot.press("t")
        await pilot.pause()
        assert main.current == "Gadgets"
        main.go_to_topic("Widgets")
        await pilot.pause()
        main.go_to_topic("Gadgets")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert main.current == "Gadgets"


@pytest.mark.parametrize("by", ["t", "tag"])
async def test_a_tag_jump_from_an_ask_closes_its_box_and_one_escape_comes_back_to_the_answer(make_engine, by):
    """The box stayed open over the next topic, holding the question: the
    first escape only closed it, the second came back to the plain list."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert await asked(pilot, main, "widget") == "Ask: widget — 4 papers, best match first  (esc: back)"
        paper_list = main.query_one(PaperList)
        while paper_list.cursor_card.paper_id != "2611.00002":  # the card also tagged Gadgets
            await pilot.press("j")
        if by == "t":
            await pilot.press("t")
        else:
            paper_list.select_tag(paper_list.cursor_card.tags.index("Gadgets"))
        await pilot.pause()
        assert main.current == "Gadgets"
        assert not main.query_one("#ask").display and list_title(main) == "Latest papers (2)"
        await pilot.press("escape")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        assert main.current == "Widgets"
        assert list_title(main) == "Ask: widget — 4 papers, best match first  (esc: back)"
        assert main.query_one("#ask", Input).display and main.query_one("#ask", Input).value == "widget"
        assert paper_list.cursor_card.paper_id == "2611.00002" and paper_list.has_focus
        await pilot.press("escape")  # the Ask closes, as it does when no jump was made
        await pilot.pause()
        assert main.current == "Widgets" and list_title(main) == "Latest papers (4)"
        assert not main.query_one("#ask").display


async def test_enter_opens_the_detail_and_marks_read(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await open_detail(pilot, main)
        assert isinstance(app.screen, DetailScreen)
        body = detail_text(app.screen)
        assert "Widget sorting at scale" in body
        assert "Ada Quill — Institute of Nowhere" in body
        assert "https://arxiv.org/abs/2611.00001v1" in body
        assert engine.state.is_read("2611.00001")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main


async def test_open_and_copy_use_only_http_links(make_engine, monkeypatch):
    engine = make_engine()
    app = FeedtuiApp(engine)
    opened: list[str] = []
    monkeypatch.setattr("feedtui.ui.services.subprocess.Popen", lambda argv, **kw: opened.append(argv[-1]))
    app.browser.command = "true"  # found on PATH; Popen records instead of starting it
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("o")
        await pilot.pause()
        assert opened == ["https://arxiv.org/abs/2611.00001v1"]
        await pilot.press("c")
        await pilot.pause()
        assert app.copier.copied == ["https://arxiv.org/abs/2611.00001v1"]
        await pilot.press("b")
        await pilot.pause()
        assert app.copier.copied[-1].startswith("@misc{quill2026widget,")
        paper_actions.open_abstract(app, replace(engine.paper("2611.00001"), abs_url="javascript:alert(1)"))
        await pilot.pause()
        assert opened == ["https://arxiv.org/abs/2611.00001v1"]
        assert any(n.message.startswith("Refused to open a javascript: link") for n in app._notifications)


async def test_with_no_browser_to_open_a_link_o_says_so(make_engine, monkeypatch):
    """Python's webbrowser answers False when it finds no browser (no display,
    no $BROWSER): the reader said "Opened …" all the same."""
    monkeypatch.delenv("BROWSER", raising=False)

    def no_browser(using=None):
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr("feedtui.ui.services.webbrowser.get", no_browser)
    app = FeedtuiApp(make_engine())
    said = await notifications_after_o(app)
    assert not any(m.startswith("Opened") for m in said)
    assert "Could not start the browser: no browser was found: set browser in the config file, or $BROWSER" in said


def install_program(bin_dir: Path, name: str, script: str) -> None:
    """A shell script `name` in bin_dir, a stand-in for a program on PATH."""
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / name
    program.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    program.chmod(0o755)


def writes_its_arguments(record: Path) -> str:
    return f'printf "%s\\n" "$@" > {shlex.quote(str(record))}\n'


@pytest.fixture
def console_browser(tmp_path, monkeypatch):
    """A headless machine whose only browser is lynx, as Python's webbrowser
    finds it: no display, no $BROWSER, `lynx` on PATH. The stand-in is a
    script that writes its arguments to a file and exits."""
    argv_file = tmp_path / "lynx-argv.txt"
    install_program(tmp_path / "bin", "lynx", writes_its_arguments(argv_file))
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    # webbrowser looks for browsers once: make it look again, here.
    monkeypatch.setattr(webbrowser, "_browsers", {})
    monkeypatch.setattr(webbrowser, "_tryorder", None)
    monkeypatch.setattr(webbrowser, "_os_preferred_browser", None)
    return argv_file


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


async def notifications_after_o(app) -> list[str]:
    """What the reader said after `o` on its first card, once the browser's
    work has ended."""
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        return notifications(app)


def hand_over_recorder(app, monkeypatch, browser_wrote: Path) -> list[tuple[str, bool]]:
    """Replaces the app's suspend with one that records when the reader gave
    the terminal away and took it back, and whether the browser had written
    `browser_wrote` by then."""
    handed_over: list[tuple[str, bool]] = []

    @contextmanager
    def suspend():
        handed_over.append(("suspended", browser_wrote.exists()))
        yield
        handed_over.append(("resumed", browser_wrote.exists()))

    monkeypatch.setattr(app, "suspend", suspend)
    return handed_over


async def test_a_terminal_browser_gets_the_terminal_with_the_reader_suspended(make_engine, console_browser, monkeypatch):
    """lynx ran on the event loop, drawing into the reader's screen, and the
    reader froze until it exited."""
    app = FeedtuiApp(make_engine())
    handed_over = hand_over_recorder(app, monkeypatch, console_browser)
    said = await notifications_after_o(app)
    assert "Opened https://arxiv.org/abs/2611.00001v1" in said
    assert handed_over == [("suspended", False), ("resumed", True)]
    assert console_browser.read_text().split() == ["https://arxiv.org/abs/2611.00001v1"]


async def test_a_terminal_browser_is_not_run_where_the_reader_cannot_hand_over_the_terminal(
    make_engine, console_browser
):
    """Under a driver that cannot suspend (here the test's headless one) the
    reader says why nothing opened, and lynx never runs."""
    app = FeedtuiApp(make_engine())
    said = await notifications_after_o(app)
    assert (
        "Could not start the browser: lynx runs in the terminal, which feedtui cannot hand over here; "
        "set browser in the config file, or $BROWSER"
    ) in said
    assert not any(m.startswith("Opened") for m in said)
    assert not console_browser.exists()


async def test_a_terminal_browser_in_the_browser_variable_gets_the_terminal(make_engine, tmp_path, monkeypatch):
    """`BROWSER=w3m` was started in the background with no terminal: w3m
    opened nothing, and the reader said "Opened"."""
    ran = tmp_path / "w3m-argv.txt"
    install_program(tmp_path / "bin", "w3m", writes_its_arguments(ran))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("BROWSER", "w3m")
    app = FeedtuiApp(make_engine())
    handed_over = hand_over_recorder(app, monkeypatch, ran)
    said = await notifications_after_o(app)
    assert "Opened https://arxiv.org/abs/2611.00001v1" in said
    assert handed_over == [("suspended", False), ("resumed", True)]
    assert ran.read_text().split() == ["https://arxiv.org/abs/2611.00001v1"]


async def test_the_reader_keeps_running_while_a_terminal_browser_has_the_terminal(make_engine, tmp_path, monkeypatch):
    """lynx ran on the event loop: a refresh under way stopped until it
    exited, and its requests could time out. Here the stand-in browser exits
    only once the reader's event loop has run a timer set as the terminal
    was handed over."""
    tick = tmp_path / "tick"
    waits_for_tick = f"for _ in $(seq 500); do [ -e {shlex.quote(str(tick))} ] && exit 0; sleep 0.01; done\nexit 1\n"
    install_program(tmp_path / "bin", "lynx", waits_for_tick)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    app = FeedtuiApp(make_engine())
    app.browser.command = "lynx {url}"
    handed_over: list[str] = []

    @contextmanager
    def suspend():
        handed_over.append("suspended")
        app.set_timer(0.1, tick.touch)
        yield
        handed_over.append("resumed")

    monkeypatch.setattr(app, "suspend", suspend)
    said = await notifications_after_o(app)
    assert "Opened https://arxiv.org/abs/2611.00001v1" in said
    assert handed_over == ["suspended", "resumed"]


class SlowBrowser(webbrowser.BaseBrowser):
    """A graphical browser that takes its time to answer (webbrowser waits up
    to five seconds for some); it answers when the test says so."""

    def __init__(self) -> None:
        super().__init__("slowbrowser")
        self.answer = threading.Event()
        self.asked: list[str] = []

    def open(self, url, new=0, autoraise=True):
        self.asked.append(url)
        return self.answer.wait(timeout=5)


async def test_the_reader_keeps_going_while_the_system_browser_starts(make_engine, monkeypatch):
    monkeypatch.delenv("BROWSER", raising=False)
    browser = SlowBrowser()
    monkeypatch.setattr("feedtui.ui.services.webbrowser.get", lambda using=None: browser)
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("o", "j")
        await pilot.pause()
        assert paper_list.cursor == 1  # moved while the browser had not answered
        browser.answer.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Opened https://arxiv.org/abs/2611.00001v1" in notifications(app)
    assert browser.asked == ["https://arxiv.org/abs/2611.00001v1"]


class RecordingBrowser(webbrowser.BaseBrowser):
    """The system's browser, as webbrowser finds it: notes each URL it is asked to open."""

    def __init__(self) -> None:
        super().__init__("recording")
        self.asked: list[str] = []

    def open(self, url, new=0, autoraise=True):
        self.asked.append(url)
        return True


async def click_on(pilot, widget, words: str) -> None:
    """A click on the first character of `words` where the widget shows them."""
    lines = lines_of(widget)
    y = next(i for i, line in enumerate(lines) if words in line)
    await pilot.click(widget, offset=(lines[y].index(words), y))


async def test_links_and_topics_in_the_detail_view_answer_a_click(make_engine, monkeypatch):
    """A click on the abstract page, the PDF or a topic in the detail view did
    nothing, though `o` and `O` open the links and a click on a card's tag goes
    to its topic."""
    monkeypatch.delenv("BROWSER", raising=False)
    browser = RecordingBrowser()
    monkeypatch.setattr("feedtui.ui.services.webbrowser.get", lambda using=None: browser)
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("j")
        detail = await open_detail(pilot, main)
        assert detail.paper.id == "2611.00002"
        facts = detail.query_one("#detail-facts")
        for words in ("https://arxiv.org/abs/", "https://arxiv.org/pdf/"):
            await click_on(pilot, facts, words)
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert browser.asked == ["https://arxiv.org/abs/2611.00002v1", "https://arxiv.org/pdf/2611.00002v1"]
        assert {"Opened https://arxiv.org/abs/2611.00002v1", "Opened https://arxiv.org/pdf/2611.00002v1"} <= set(notifications(app))

        await click_on(pilot, facts, "Gadgets")
        await until(pilot, lambda: app.screen is main and main.current == "Gadgets")
        await pilot.press("escape")
        await until(pilot, lambda: main.current == "Widgets")
        assert main.query_one(PaperList).cursor_card.paper_id == "2611.00002"

async def test_a_star_given_in_the_detail_view_shows_on_its_card_and_the_reading_list(make_engine):
    """The detail view starred the paper and left the card and the reading
    list's count as they were until a restart."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        paper_id = paper_list.cursor_card.paper_id
        assert not engine.state.is_starred(paper_id)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        await pilot.press("s")
        await pilot.press("escape")
        await pilot.pause()
        assert engine.state.is_starred(paper_id)
        assert paper_list.cursor_card.starred
        # Opened, so read: the row counts no unread paper, but holds one.
        assert sidebar_row(app, STARRED_VIEW).split()[-1] == "·"
        assert [r.papers for r in main.query_one(TopicList).rows if r.name == STARRED_VIEW] == [1]


async def test_a_feed_items_detail_shows_no_internal_id_and_no_empty_authors_heading(make_engine):
    """A blog post's detail printed `web:dfb36cca…` (feedtui's own hash) in its
    header and in "Copied BibTeX for …", and an Authors heading over nothing."""
    from tests.factories import make_paper

    post = replace(
        make_paper(
            "web:0a1b2c3d4e5f", title="Lab notes on widget sorting", abstract="A widget post.",
            published="2026-11-25T10:00:00", authors=(), categories=(),
        ),
        abs_url="https://example.org/post", pdf_url="",
    )
    app = FeedtuiApp(make_engine(papers=[post]))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, DetailScreen)
        body = detail_text(app.screen)
        assert "Lab notes on widget sorting" in body
        assert "web:" not in body and "Authors" not in body
        await pilot.press("b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Copied BibTeX for “Lab notes on widget sorting” (through the terminal, OSC 52)" in [n.message for n in app._notifications]


async def test_b_on_a_paper_known_only_from_a_post_says_its_title_and_authors_are_left_out(make_engine):
    """`b` copied the post's title and `Anonymous` as the paper's, and said
    only "Copied BibTeX for 2612.00077v1"."""
    from tests.factories import make_paper

    post = make_paper(
        "2612.00077", title="A post about a brand new paper", abstract="A widget post.", authors=(), categories=(),
        published="2026-11-25T10:00:00", secondhand=True, sources=("https://blog.example.org/feed.xml",),
    )
    app = FeedtuiApp(make_engine(papers=[post]))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "title" not in app.copier.copied[-1] and "eprint = {2612.00077}" in app.copier.copied[-1]
        assert app._notifications and list(app._notifications)[-1].message == (
            "Copied BibTeX for 2612.00077, known only from a post that links it: "
            "written without the post's title and authors until its arXiv record arrives (through the terminal, OSC 52)"
        )


async def test_a_detail_without_an_abstract_has_no_gap_for_one(make_engine):
    """Two empty lines stood where the abstract would be."""
    from feedtui.model import TopicDefinition
    from tests.factories import make_paper

    post = make_paper("web:0a1b2c3d4e5f", title="Lab notes on widget sorting", abstract="", published="2026-11-25T10:00:00")
    app = FeedtuiApp(make_engine(papers=[post], topics={"Lab": TopicDefinition(query="ti:widget")}, follows=("Lab",)))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        detail = await open_detail(pilot, main)
        lines = detail_text(detail).splitlines()
        title = lines.index("Lab notes on widget sorting")
        assert lines[title + 1 : title + 3] == ["", "Authors"]


async def test_a_paper_without_a_title_is_shown_as_untitled(make_engine):
    """A feed item with no title had a blank title line on its card and in its
    detail view, and "Copied BibTeX for “”"."""
    from tests.factories import make_paper

    post = replace(
        make_paper(
            "web:0a1b2c3d4e5f", title="", abstract="A widget post without a title.",
            published="2026-11-25T10:00:00", authors=(), categories=(),
        ),
        abs_url="https://example.org/post", pdf_url="",
    )
    engine = make_engine(papers=[post])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        card = [line.rstrip() for line in lines_of(main.query_one(PaperList))]
        assert card[:4] == ["▌● Nov 25, 2026", "▌  (untitled)", "▌", "▌  A widget post without a title."], card
        detail = await open_detail(pilot, main)
        assert "\n\n(untitled)\n\nA widget post without a title." in detail_text(detail)
        await pilot.press("b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Copied BibTeX for “(untitled)” (through the terminal, OSC 52)" in [n.message for n in app._notifications]
        assert "title = {{(untitled)}}" in app.copier.copied[-1]
    assert engine.paper("web:0a1b2c3d4e5f").title == ""


async def test_a_wrapped_affiliation_keeps_the_authors_indent(make_engine):
    from tests.factories import make_paper

    affiliations = ("School of Widget Science, Aldermoor University", "Department of Gadget Studies, Orlu Heights University")
    paper = make_paper(
        "2611.00009", title="Widgets in depth", abstract="A widget paper.", published="2026-11-25T10:00:00",
        authors=(("Zainab Fjeldstad", affiliations), ("Bo Lindqvist", ())),
    )
    engine = make_engine(papers=[paper])
    app = FeedtuiApp(engine)
    async with app.run_test(size=(80, 40)) as pilot:
        main = await ready(pilot)
        await open_detail(pilot, main)
        await pilot.pause()
        screen_lines = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
        first = next(i for i, line in enumerate(screen_lines) if "Zainab Fjeldstad — School" in line)
        indent = screen_lines[first].index("Zainab")
        assert indent > screen_lines[first - 1].index("Authors")
        assert "Orlu Heights University" in screen_lines[first + 1]
        assert screen_lines[first + 1].index(screen_lines[first + 1].strip()) == indent
        assert screen_lines[first + 2].index("Bo Lindqvist") == indent


async def test_authors_past_the_limit_are_counted_on_the_card_in_the_detail_and_in_bibtex(make_engine):
    """A collaboration's paper past MAX_AUTHORS read `+1` on its card, ended its
    detail's authors without a word, and looked complete in BibTeX."""
    from tests.factories import make_paper

    names = ("The Widget Collaboration", "Ada Quill", "Bo Lantern", "Cy Marsh")
    paper = make_paper(
        "2611.00009", title="Widgets at scale", abstract="A widget paper.", published="2026-11-25T10:00:00",
        authors=tuple((name, ()) for name in names), authors_omitted=298,
    )
    app = FeedtuiApp(make_engine(papers=[paper]))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert "The Widget Collaboration, Ada Quill, Bo Lantern +299" in "\n".join(lines_of(main.query_one(PaperList)))
        detail = await open_detail(pilot, main)
        assert "  Bo Lantern\n  Cy Marsh\n  … and 298 more authors\n" in detail_text(detail)
        await pilot.press("b")
        await pilot.pause()
        assert "author = {{The Widget Collaboration} and Ada Quill and Bo Lantern and Cy Marsh and others}" in app.copier.copied[-1]


async def test_a_collaborations_detail_shows_its_first_authors_and_counts_the_rest(make_engine):
    """All 3,000 authors of an ATLAS paper were laid out on the UI thread as the
    detail opened (a second at 10,000), and again at every resize."""
    from tests.factories import make_paper

    names = [f"Author {i:04d}" for i in range(3000)]
    paper = make_paper(
        "2611.00009", title="Widgets at scale", abstract="A widget paper.", published="2026-11-25T10:00:00",
        authors=tuple((name, ("CERN",)) for name in names), authors_omitted=7,
    )
    app = FeedtuiApp(make_engine(papers=[paper]))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        detail = await open_detail(pilot, main)
        shown = detail_text(detail)
        assert "  Author 0249 — CERN\n  … and 2,757 more authors (a shows all 3,000 kept; it takes a moment)\n" in shown
        assert "Author 0250" not in shown
        await pilot.press("b")
        await pilot.pause()
        assert "Author 0249 and Author 0250 and " in app.copier.copied[-1]
        assert "Author 2999 and others}" in app.copier.copied[-1]
        await pilot.press("a")
        await pilot.pause()
        assert "  Author 2998 — CERN\n  Author 2999 — CERN\n  … and 7 more authors\n" in detail_text(detail)


async def test_space_g_and_G_page_through_the_detail_view_as_in_the_list(make_engine):
    from tests.factories import make_paper

    abstract = " ".join(f"Widget sentence {n} of a long abstract." for n in range(200))
    paper = make_paper("2611.00009", title="A long widget paper", abstract=abstract, published="2026-11-25T10:00:00")
    app = FeedtuiApp(make_engine(papers=[paper]))
    async with app.run_test(size=(80, 24)) as pilot:
        main = await ready(pilot)
        await open_detail(pilot, main)
        await pilot.pause()

        def screen() -> str:
            return "\n".join(strip.text for strip in app.screen._compositor.render_strips())

        assert "A long widget paper" in screen() and "Topics: Widgets" not in screen()
        await pilot.press("space")
        await pilot.pause()
        assert "A long widget paper" not in screen() and "Widget sentence 0 " not in screen()
        await pilot.press("G")
        await pilot.pause()
        assert "Topics: Widgets" in screen()
        await pilot.press("g")
        await pilot.pause()
        assert "A long widget paper" in screen() and "Topics: Widgets" not in screen()


async def test_the_detail_view_says_what_the_list_says_of_a_paper_without_links(make_engine):
    """O in the detail view said "no http or https link" of a paper without a
    PDF, where the list says it has no PDF link; c said nothing at all. Then
    o said "this paper has no http or https link to open" and c "This paper
    has no http(s) link to copy": now the same words, capitalised alike."""
    from tests.factories import make_paper

    papers = [make_paper("2611.00009", title="Linkless widget", abstract="A widget.", published="2026-11-25T10:00:00")]
    engine = make_engine(papers=[replace(p, abs_url="", pdf_url="") for p in papers])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        for key in ("o", "O", "c"):
            await pilot.press(key)
            await pilot.pause()
        on_the_list = [n.message for n in app._notifications]
        app.clear_notifications()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        for key in ("o", "O", "c"):
            await pilot.press(key)
            await pilot.pause()
        assert [n.message for n in app._notifications] == on_the_list
        assert on_the_list == [
            "This paper has no http or https link to open",
            "This paper has no PDF link",
            "This paper has no http or https link to copy",
        ]


async def test_markup_in_a_title_is_shown_literally(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("j", "j")
        await pilot.pause()
        text = "\n".join(lines_of(paper_list))
        assert "[bold red]x[/] and [@click=app.quit]" in text
        assert app.is_running


async def test_unread_only_hides_read_papers(make_engine):
    engine = make_engine(read=("2611.00001",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.query_one(PaperList).card_count == 4
        await pilot.press("u")
        await pilot.pause()
        assert main.query_one(PaperList).card_count == 3
        assert "unread only: 3 left" in list_title(main)
        # A card marked read stays until the topic is shown again; the count follows.
        main.query_one(PaperList).focus()
        await pilot.press("m")
        await pilot.pause()
        assert main.query_one(PaperList).card_count == 3
        assert "unread only: 2 left" in list_title(main)


async def test_star_shows_in_the_reading_list(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        paper_list = main.query_one(PaperList)
        first_card = CARD_HEIGHT
        assert unread_shown(app, "★ Starred") == 0
        assert "★" not in "".join(lines_of(paper_list)[:first_card])
        await pilot.press("s")
        await pilot.pause()
        assert engine.state.is_starred("2611.00001")
        assert paper_list.cursor_card.starred
        assert "★" in "".join(lines_of(paper_list)[:first_card])
        assert unread_shown(app, "★ Starred") == 1
        main.go_to_topic("★ Starred")
        main.show_topic("★ Starred")
        await pilot.pause()
        assert main.query_one(PaperList).card_count == 1


async def test_ten_thousand_cards_scroll_to_the_end(make_engine):
    from tests.factories import make_paper

    papers = [
        make_paper(f"2611.{n:05d}", title=f"Widget study {n}", abstract="A widget.", published=f"2026-11-{1 + n % 26:02d}T{n % 24:02d}:00:00")
        for n in range(10_000)
    ]
    engine = make_engine(papers=papers)
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert paper_list.card_count == 10_000
        paper_list.focus()
        await pilot.press("end")
        await pilot.pause()
        assert paper_list.cursor == 9_999
        last = paper_list.cursor_card.title
        assert last in "\n".join(lines_of(paper_list))
        assert "Latest papers (10,000)" in list_title(main)


async def test_background_refresh_with_a_failing_source_toasts_and_stays_usable(make_engine, httpserver):
    from feedtui.model import TopicDefinition

    from tests.atom import Entry, api_feed

    feed = api_feed([Entry("2611.09999", title="A fresh widget", summary="New widget results.", published="2026-11-26T09:00:00Z")])
    httpserver.expect_request("/good.xml").respond_with_data(feed, content_type="application/atom+xml")
    topics = {
        "Widgets": TopicDefinition(query="abs:widget"),
        "Good feed": TopicDefinition(feeds=(httpserver.url_for("/good.xml"),)),
        "Dead feed": TopicDefinition(feeds=("http://127.0.0.1:9/dead.xml",)),
    }
    engine = make_engine(topics=topics, follows=("Good feed", "Dead feed"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("R")
        await until(
            pilot, lambda: not main.refresher.refreshing and engine.library.row_of("2611.09999") is not None and told(app, "127.0.0.1:9"), tries=200, step=0.05
        )
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert any("127.0.0.1:9" in m for m in errors), errors
        assert engine.library.row_of("2611.09999") is not None
        assert "Good feed" in engine.library.tags[engine.library.pos["2611.09999"]]
        assert "Widgets" in engine.library.tags[engine.library.pos["2611.09999"]]
        # Still usable: keys move and mark.
        main.go_to_topic("Good feed")
        await pilot.pause()
        assert main.query_one(PaperList).cursor_card.paper_id == "2611.09999"
        await pilot.press("m")
        assert engine.state.is_read("2611.09999")


async def test_an_empty_topic_being_fetched_says_so(make_engine):
    """It said "No papers yet — press r to fetch this topic" while r's refresh
    was fetching it."""
    with prompt_and_held_feeds(make_engine, ["Prompt widget one"], ["Late widget"], papers=[]) as (engine, feeds):
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            main = await show(pilot, "Held")
            paper_list = main.query_one(PaperList)
            assert "Never refreshed — press r to fetch this topic" in "\n".join(lines_of(paper_list))
            await pilot.press("R")
            await until(pilot, feeds.asked.is_set)
            await pilot.pause()
            assert "No papers yet — fetching this topic now" in "\n".join(lines_of(paper_list))
            feeds.release.set()
            await refresh_over(pilot, main, 5.0)
            assert "Late widget" in "\n".join(lines_of(paper_list))


async def test_a_long_refresh_shows_what_it_has_stored_before_it_ends(make_engine, monkeypatch):
    """One source held: the other's papers show in the list and the sidebar as
    soon as they are stored; the cursor stays on its paper when the rest lands."""
    from feedtui.core import refresh as engine_module

    monkeypatch.setattr(engine_module, "PERIODIC_COMMIT_S", 0.2)
    with prompt_and_held_feeds(make_engine, ["Prompt widget one", "Prompt widget two"], ["Late widget"], papers=[]) as (
        engine,
        feeds,
    ):
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            main = await show(pilot, "Prompt")
            paper_list = main.query_one(PaperList)
            await pilot.press("R")
            await until(pilot, lambda: "Prompt widget one" in "\n".join(lines_of(paper_list)), step=0.05)
            assert main.refresher.refreshing and feeds.asked.is_set() and not feeds.release.is_set()
            assert "Prompt widget two" in "\n".join(lines_of(paper_list))
            assert sidebar_row(app, "Prompt").rstrip().endswith("2")
            status = str(main.query_one(StatusLine).query_one("#status-text").render())
            assert "2 papers cached" in status and "refreshing…" in status
            paper_list.focus()
            await pilot.press("j")
            chosen = paper_list.cursor_card.paper_id
            feeds.release.set()
            await refresh_over(pilot, main, 5.0)
            assert sidebar_row(app, "Held").rstrip().endswith("1")
            assert paper_list.cursor_card.paper_id == chosen


async def test_the_status_line_says_what_a_refresh_waits_for_at_80_columns(make_engine, monkeypatch):
    """It said "refreshing… 0%" through arXiv's Retry-After and "refreshing… 50%"
    while a query paged for minutes."""
    from feedtui.model import TopicDefinition
    from feedtui.sources.http import pacing

    from tests.held_feeds import held_api

    monkeypatch.setattr(pacing, "WAIT_WORTH_TELLING_S", 0.5)
    with held_api(30, held_start=20, retry_after="3") as api:
        engine = make_engine(papers=[], topics={"Paged": TopicDefinition(query="ti:paged")}, follows=("Paged",))
        engine.settings.arxiv.api_url = api.url
        engine.settings.arxiv.page_size = 10
        app = FeedtuiApp(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            main = await ready(pilot)
            await pilot.press("R")
            said = []
            for _ in range(200):
                await pilot.pause(0.05)
                said.append(terminal_lines(app)[-2].strip())
                if api.asked.is_set() and "Paged: 20" in said[-1]:
                    break
            counted = {int(m[1]) for line in said if (m := re.match(r"refreshing… waiting (\d) s: arXiv asked \(Retry-After\)", line))}
            assert 3 in counted and min(counted) < 3, said  # it counts down
            assert said[-1].startswith("refreshing… Paged: 20 of ~30 papers ") and said[-1].endswith("%")
            api.release.set()
            await refresh_over(pilot, main)
            assert terminal_lines(app)[-2].strip().endswith("30 new papers")


async def test_a_topic_added_and_tagged_by_another_process_shows_its_papers(make_engine, tmp_path):
    """The new topic showed in the sidebar with no papers until a restart: the
    CLI had tagged it, and the reader took those tags for its own, empty ones."""
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.model import TopicDefinition

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        other = Engine(Config(), tmp_path / "data", background_writes=False)
        other.add_topic("Calibration", TopicDefinition(query="abs:calibrating"))
        other.follow("Calibration")
        other.retag(["Calibration"])
        other.state.flush()
        await until(pilot, lambda: "Calibration" in main.query_one(TopicList).names(), step=0.05)
        await pilot.pause(0.2)
        assert engine.library.unread_count("Calibration") == 1
        assert sidebar_row(app, "Calibration").rstrip().endswith("1")
        await show(pilot, "Calibration")
        assert "Gadget calibration" in "\n".join(lines_of(main.query_one(PaperList)))
        other.close()


async def test_sources_failing_the_same_way_are_one_notification_not_one_each(make_engine, closed_port):
    """A server down took 200 feeds with it: 200 notifications covered the list
    for 20 s, and keys stalled while they piled up."""
    from feedtui.model import TopicDefinition

    feeds = tuple(f"http://127.0.0.1:{closed_port}/feed-{n}.xml" for n in range(12))
    engine = make_engine(topics={"Down": TopicDefinition(feeds=feeds)}, follows=("Down",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("R")
        await refresh_over(pilot, main)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        refused = f"could not connect to 127.0.0.1:{closed_port}: connection refused"
        assert len(errors) == 2
        assert errors[0].startswith("Down (http://127.0.0.1:") and errors[0].endswith(f"): {refused}")
        first = errors[0].removeprefix("Down (").removesuffix(f"): {refused}")
        others = [f"Down ({url})" for url in feeds if url != first]
        assert errors[1] == f"“{others[0]}”, “{others[1]}” and 9 more sources failed the same way: {refused}"


async def test_one_topic_offline_is_one_source_failed_and_the_count_of_new_papers_goes_unnamed(make_engine, closed_port):
    """First run, one topic followed, no network: "refresh failed · 2 sources
    failed", and "“arXiv new-paper count” failed the same way", a source the
    user never added."""
    from feedtui.model import TopicDefinition

    engine = make_engine(topics={"Widgets": TopicDefinition(query="abs:widget")}, follows=("Widgets",))
    engine.settings.arxiv.api_url = f"http://127.0.0.1:{closed_port}/api/query"
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("R")
        await refresh_over(pilot, main)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert errors == [f"Widgets: could not connect to 127.0.0.1:{closed_port}: connection refused"]
        assert not [n.message for n in app._notifications if "count" in n.message]
        status = str(main.query_one(StatusLine).query_one("#status-text").render())
        assert "1 topic not refreshed" in status and "2 " not in status, status


async def test_one_query_for_two_topics_offline_is_counted_once_by_topic(make_engine, closed_port):
    """Offline, the notification said "2 topics (…): could not resolve host"
    while the status line said "1 source failed": two counts of one event."""
    from feedtui.model import TopicDefinition

    topics = {"Widgets": TopicDefinition(query="abs:widget"), "Gadgets": TopicDefinition(query="abs:gadget")}
    engine = make_engine(topics=topics, follows=("Widgets", "Gadgets"))
    engine.settings.arxiv.api_url = f"http://127.0.0.1:{closed_port}/api/query"
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("R")
        await refresh_over(pilot, main)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert len(errors) == 1 and errors[0].startswith("2 topics ("), errors
        status = str(main.query_one(StatusLine).query_one("#status-text").render())
        assert "2 topics not refreshed" in status and "source" not in status, status


async def test_quitting_during_a_refresh_keeps_what_it_had_fetched(make_engine, tmp_path):
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    with prompt_and_held_feeds(make_engine, ["Prompt widget one", "Prompt widget two"], ["Late widget"], papers=[]) as (
        engine,
        feeds,
    ):
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            status = main.query_one(StatusLine)
            await pilot.press("R")
            await until(pilot, lambda: feeds.asked.is_set() and status.query_one("#status-progress").progress == 1, step=0.05)
            assert main.refresher.busy
            await pilot.press("q")
            await pilot.pause()
        assert not feeds.release.is_set()
    engine.close()
    after = Engine(Config(), tmp_path / "data", background_writes=False)
    assert len(after.library) == 2
    after.close()


async def test_the_topic_on_screen_removed_by_another_process_is_said(make_engine, tmp_path):
    """The reader moved to another topic without a word, and the next f unfollowed that one."""
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.model import TopicDefinition

    engine = make_engine(topics={"Widgets": TopicDefinition(query="abs:widget"), "Mine": TopicDefinition(query="abs:gadget")})
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = await show(pilot, "Mine")
        other = Engine(Config(), tmp_path / "data", background_writes=False)
        other.remove_topic("Mine")
        other.state.flush()
        # The notice is a message to the app: it lands after the view has changed.
        await until(pilot, lambda: main.current != "Mine" and told(app, "by another feedtui"), step=0.05)
        assert main.current == "Widgets"
        assert "Mine was removed by another feedtui" in [n.message for n in app._notifications]
        other.close()


async def test_the_topic_on_screen_renamed_by_another_process_stays_in_view(make_engine, tmp_path):
    """A rename elsewhere was told as a removal, the view moved to another
    topic, and the keys typed next (m, f) marked and unfollowed that one."""
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.model import TopicDefinition

    topics = {"Widgets": TopicDefinition(query="abs:widget"), "Mine": TopicDefinition(query="abs:widget OR abs:gadget")}
    engine = make_engine(topics=topics, follows=("Widgets", "Mine"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = await show(pilot, "Mine")
        other = Engine(Config(), tmp_path / "data", background_writes=False)
        other.edit_topic("Mine", new_name="Renamed mine")
        other.state.flush()
        await until(pilot, lambda: main.current != "Mine" and told(app, "by another feedtui"), step=0.05)
        assert main.current == "Renamed mine"
        messages = [n.message for n in app._notifications]
        assert "Mine was renamed Renamed mine by another feedtui" in messages
        assert not any("removed" in message for message in messages)
        assert "Renamed mine" in main.query_one(TopicHeader).text
        await pilot.press("f")  # meant for the topic on screen, which it still is
        await pilot.pause()
        assert not engine.state.is_following("Renamed mine")
        assert engine.state.is_following("Widgets")
        other.close()


def test_a_rename_note_stays_out_of_the_state_export(tmp_path):
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.export.state_json import export_state
    from feedtui.model import TopicDefinition

    engine = Engine(Config(), tmp_path / "data", background_writes=False)
    engine.add_topic("Mine", TopicDefinition(query="abs:gadget"), "mine")
    engine.edit_topic("Mine", new_name="Ours")
    assert engine.state.renamed_from("Ours") == "Mine"
    assert set(export_state(engine)["topics"]["Ours"]) == {"query", "description", "updated"}
    engine.edit_topic("Ours", description="ours")  # its next change: the note goes
    assert engine.state.renamed_from("Ours") == ""
    engine.close()


async def test_changes_made_by_another_process_show_up(make_engine, tmp_path):
    from feedtui.config import Config
    from feedtui.core.engine import Engine

    from tests.factories import make_paper

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        before = engine.library.unread_count("Widgets")
        # Another feedtui (the CLI in another shell) marks a paper read and follows a topic...
        other = Engine(Config(), tmp_path / "data", background_writes=False)
        other.mark_read(["2611.00001"])
        other.follow("Gadgets")
        other.state.flush()
        await until(pilot, lambda: engine.library.unread_count("Widgets") == before - 1, step=0.05)
        await pilot.pause(0.1)
        assert engine.library.unread_count("Widgets") == before - 1
        assert sidebar_row(app, "Widgets").rstrip().endswith(str(before - 1))
        names = main.query_one(TopicList).names()
        assert names.index("Gadgets") < names.index("::Topics")
        # ...and stores new papers (a refresh of its own).
        other.cache.store([make_paper("2611.00042", title="Widget news", abstract="A widget arrives.", published="2026-11-26T08:00:00")], {})
        other.load_library()
        other.retag(["Widgets", "Gadgets"])
        await until(pilot, lambda: engine.library.row_of("2611.00042") is not None and engine.library.tags[engine.library.pos["2611.00042"]], step=0.05)
        assert "Widgets" in engine.library.tags[engine.library.pos["2611.00042"]]
        assert main.query_one(PaperList).card_count == 5
        other.close()


async def test_small_terminals_keep_room_for_cards(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(60, 20)) as pilot:
        main = await ready(pilot)
        paper_list = main.query_one(PaperList)
        assert main.query_one("#chart").size.height == 4  # its compact form
        assert paper_list.size.height >= 8
        assert "Widget sorting at scale" in "\n".join(lines_of(paper_list))
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert main.query_one("#chart").size.height >= 6



async def test_a_very_small_terminal_shows_a_card_under_a_short_topic_header(make_engine):
    """At 40x12 the header (name, following state, the momentum sentence
    wrapped over nine lines) took the whole pane: no card was on screen."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(40, 12)) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        assert main.query_one(TopicHeader).size.height <= 2
        assert "Widgets" in main.query_one(TopicHeader).text
        card = " ".join(lines_of(main.query_one(PaperList))).replace("▌", " ").split()
        assert card[:4] == ["●", "Nov", "25,", "2026"]  # the first card
        assert "Widget" in card[4:8]  # its title

async def test_first_run_welcome_follows_the_chosen_topics(tmp_path, httpserver):
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.ui.screens.welcome import WelcomeScreen

    from tests.atom import api_feed

    httpserver.expect_request("/api/query").respond_with_data(api_feed([]), content_type="application/atom+xml")
    config = Config()
    config.settings.arxiv.api_url = httpserver.url_for("/api/query")
    config.settings.arxiv.rss_url = httpserver.url_for("/rss/")
    config.settings.arxiv.min_interval = 0.01
    engine = Engine(config, tmp_path / "fresh")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if isinstance(app.screen, WelcomeScreen) and any(b.region for b in app.screen.query("#welcome-follow")):
                break  # composed and laid out: its button is there to press
        assert isinstance(app.screen, WelcomeScreen)
        # Follow with nothing picked says how to pick, and stays.
        await pilot.click("#welcome-follow")
        await until(pilot, lambda: app._notifications, tries=50)
        assert isinstance(app.screen, WelcomeScreen)
        assert "No topic picked yet: space toggles the one under the cursor" in [n.message for n in app._notifications]
        await pilot.press("space", "down", "space")
        await pilot.click("#welcome-follow")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, WelcomeScreen)
        assert len(engine.state.follows()) == 2
        # The first topic chosen is the one shown.
        assert app.main_screen.current in engine.state.follows()
        await until(pilot, lambda: httpserver.log, step=0.05)
        assert httpserver.log, "following from the welcome screen fetches the topics"
    engine.close()


async def test_a_welcome_left_with_escape_is_not_shown_again(tmp_path):
    """"Browse without following anything" came back at every start."""
    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.ui.screens.welcome import WelcomeScreen

    async def welcomed(*, expected: bool) -> bool:
        engine = Engine(Config(), tmp_path / "fresh")
        app = FeedtuiApp(engine)
        async with app.run_test(size=SIZE) as pilot:
            await ready(pilot)
            # Not expected: given the same time to come, then looked for.
            await until(pilot, lambda: isinstance(app.screen, WelcomeScreen), tries=50, or_go_on=not expected)
            shown = isinstance(app.screen, WelcomeScreen)
            if shown:
                await pilot.press("escape")
                await pilot.pause()
        engine.close()
        return shown

    assert await welcomed(expected=True)
    assert not await welcomed(expected=False)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_welcome_shows_topics_to_pick_on_a_small_terminal(tmp_path, size):
    """At 80x24 the intro once took every row, and the list of topics was an
    empty box; space toggled topics nobody could see."""
    from textual.widgets import SelectionList

    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.ui.screens.welcome import WelcomeScreen

    engine = Engine(Config(), tmp_path / "fresh")
    app = FeedtuiApp(engine)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WelcomeScreen) and any(b.region for b in app.screen.query("#welcome-follow")))
        screen = app.screen
        topics = screen.query_one(SelectionList)
        names = [e.name for e in engine.topics()]
        assert topics.region.height >= 5
        assert names[0] in "\n".join(lines_of(topics))
        assert screen.query_one("#welcome-follow").region.bottom <= size[1]
        await pilot.press("j", "j", "k")
        assert topics.highlighted == 1
    engine.close()


@pytest.mark.parametrize(
    ("keys", "screen", "footer"),
    [
        (("question_mark",), "HelpScreen", "esc Close help"),
        (("a",), "TopicFormScreen", "esc Cancel"),
        (("E",), "TopicFormScreen", "esc Cancel"),
        (("D",), "ConfirmScreen", "y Yes n No"),
        (("J", "j", "t"), "PickTopicScreen", "esc Cancel"),
    ],
)
async def test_the_footer_under_a_dialog_shows_the_dialogs_keys(make_engine, keys, screen, footer):
    """The reader's footer (f Unfollow m Read …) showed through every dialog,
    where none of its keys work, and the dialog's own keys were not shown."""
    from feedtui.model import TopicDefinition

    from tests.ui.conftest import TOPICS

    # "Gadgets and widgets together", the second Widgets card, has two other topics: t asks which.
    engine = make_engine(topics={**TOPICS, "Together": TopicDefinition(query="ti:together")})
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "Unfollow" in bottom_line(app)
        await pilot.press(*keys)
        await until(pilot, lambda: type(app.screen).__name__ == screen and bottom_line(app), tries=50)
        assert type(app.screen).__name__ == screen
        assert bottom_line(app) == footer


@pytest.mark.parametrize("width", [120, 81, 80, 70, 40])
async def test_the_footer_ends_with_the_palette_key_at_any_width(make_engine, width):
    """At 81 columns or fewer a letter of the keys under the palette key showed
    after it (`^p palettei`): Textual's compact footer left a margin on its right."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(width, 30)) as pilot:
        await ready(pilot)
        await until(pilot, lambda: "palette" in bottom_line(app))
        line = bottom_line(app)
        assert len(line) == width and line.endswith("▏^p palette"), line


async def test_keys_that_act_on_a_paper_say_so_when_there_is_none(make_engine):
    """m, s, o, c, b, t and M did nothing and said nothing on an empty list."""
    app = FeedtuiApp(make_engine(papers=[]))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        for key in ("m", "s", "o", "O", "c", "b", "t", "M"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert [n.message for n in app._notifications] == ["No paper here"], key


async def test_mark_all_read_on_a_topic_read_already_says_so(make_engine):
    engine = make_engine(read=("2611.00001", "2611.00002", "2611.00004", "2610.00005"))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets" and engine.library.unread_count("Widgets") == 0
        main.query_one(PaperList).focus()
        await pilot.press("M")
        await pilot.pause()
        assert [n.message for n in app._notifications] == ["Every paper here is read already"]


async def test_the_palette_offers_the_actions_of_the_screen_it_was_opened_on(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        on_main = {c.title: c for c in app.get_system_commands(main)}
        assert {"Mark all read", "Unfollow", "Expand", "Details"} <= set(on_main)  # Widgets is followed
        # The sidebar's actions too (they were missing: "next topic" found nothing).
        assert {"Next topic", "Previous topic", "First topic", "Last topic", "Open topic"} <= set(on_main)
        at = main.query_one(TopicList).cursor
        await on_main["Next topic"].callback()
        await pilot.pause()
        assert main.query_one(TopicList).cursor > at
        main.go_to_topic("Widgets")
        await pilot.pause()
        main.query_one(PaperList).focus()
        await pilot.press("enter")
        await pilot.pause(0.2)
        detail = app.screen
        assert detail is not main
        on_detail = {c.title: c for c in app.get_system_commands(detail)}
        assert not {"Mark all read", "Follow", "Unfollow"} & set(on_detail)
        assert {"Open abstract page", "Read/unread"} <= set(on_detail)
        unread = engine.library.unread_count("Widgets")
        await on_detail["Read/unread"].callback()
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == unread + 1  # the detail's paper, marked unread again


async def test_the_palette_offers_undo_with_its_key_and_quit_and_help_once(make_engine):
    """The README says the palette lists every action, but it had no Undo:
    the App's own keys were left out of it."""
    from feedtui.ui.bindings import all_bindings
    from feedtui.ui.screens.help import HelpScreen
    from feedtui.ui.screens.welcome import WelcomeScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("M")
        await pilot.pause()
        assert engine.library.unread_count("Widgets") == 0
        await pilot.press("ctrl+p", *"undo")
        await until(pilot, lambda: "^z · app.undo" in "\n".join(terminal_lines(app)), tries=50)
        shown = "\n".join(terminal_lines(app))
        assert "Undo" in shown and "^z · app.undo" in shown
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert app.screen is main
        assert engine.library.unread_count("Widgets") == 4
        for screen in (main, await open_detail(pilot, main)):
            titles = [c.title for c in app.get_system_commands(screen)]
            assert titles.count("Undo") == titles.count("Quit") == titles.count("Help: every key") == 1
            assert "Help" not in titles
        # Not where ctrl+z does nothing; and the welcome's own help and quit keys are offered once too.
        assert "Undo" not in [c.title for c in app.get_system_commands(HelpScreen(all_bindings()))]
        titles = [c.title for c in app.get_system_commands(WelcomeScreen([]))]
        assert "Undo" not in titles and "Help" not in titles and titles.count("Quit") == 1


async def wait_for_members(pilot, engine, name: str) -> list[str]:
    await until(pilot, lambda: name in engine.library.members and not pilot.app.main_screen.workers)
    return sorted(engine.library.ids[i] for i in engine.library.topic_positions(name))


async def test_a_topic_is_added_edited_and_removed_in_the_app(make_engine):
    from feedtui.ui.screens.topic_form import ConfirmScreen, TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, TopicFormScreen)
        await pilot.press(*"Calibration", "tab", *"abs:(calib", "enter")
        await pilot.pause()
        error = str(app.screen.query_one("#topic-form-error").render())
        assert "unbalanced parenthesis" in error and "Calibration" not in engine.registry
        app.screen.query_one("#topic-query").value = "abs:calibrating"
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, TopicFormScreen)
        assert main.current == "Calibration"
        assert await wait_for_members(pilot, engine, "Calibration") == ["2611.00003"]
        assert "Calibration" in main.query_one(TopicList).row_text("Calibration")

        await pilot.press("E")
        await pilot.pause()
        assert app.screen.query_one("#topic-name").value == "Calibration"
        assert app.screen.query_one("#topic-query").value == "abs:calibrating"
        app.screen.query_one("#topic-query").value = "abs:gadget"
        await pilot.press("enter")
        await pilot.pause()
        assert engine.topic("Calibration").topic.definition.query == "abs:gadget"
        assert await wait_for_members(pilot, engine, "Calibration") == ["2611.00002", "2611.00003"]

        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert "Calibration" in engine.registry
        await pilot.press("D", "y")
        await pilot.pause()
        assert "Calibration" not in engine.registry
        assert main.current != "Calibration"
        assert "Calibration" not in "\n".join(lines_of(main.query_one(TopicList)))


async def test_ask_after_the_topic_is_edited_searches_its_new_papers(make_engine, words_only):
    """Ask's index of a topic was kept by name: after E changed the query it
    still answered with papers no longer in the topic."""

    async def ask(pilot, main, question: str) -> list[str]:
        await pilot.press("slash", *question, "enter")
        await until(pilot, lambda: "Ask:" in list_title(main), tries=50)
        paper_list = main.query_one(PaperList)
        found = sorted(paper_list.source.card(i).paper_id for i in range(paper_list.card_count))
        await pilot.press("escape")
        await pilot.pause()
        return found

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets"
        main.query_one(PaperList).focus()
        assert await ask(pilot, main, "gadget") == ["2611.00002"]
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#topic-query").value = "abs:calibrating"
        await pilot.press("enter")
        assert await wait_for_members(pilot, engine, "Widgets") == ["2611.00003"]
        assert await ask(pilot, main, "gadget") == ["2611.00003"]


async def test_adding_a_topic_under_a_name_taken_says_so_and_changes_nothing(make_engine):
    from feedtui.ui.screens.topic_form import TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a", *"Gadgets", "tab", *"abs:other", "enter")
        await pilot.pause()
        assert isinstance(app.screen, TopicFormScreen)
        assert "already" in str(app.screen.query_one("#topic-form-error").render())
        assert engine.topic("Gadgets").topic.definition.query == "abs:gadget"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TopicFormScreen)


async def test_a_form_closed_with_its_edits_unsaved_says_so(make_engine):
    """In E, shift+tab from the first field (past the name) lands on Cancel;
    enter there threw the edits away without a word, under a hint saying
    "enter saves"."""
    from textual.widgets import Label

    from feedtui.model import TopicDefinition
    from feedtui.ui.screens.topic_form import TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, TopicFormScreen)
        labels = [str(label.render()) for label in app.screen.query(Label)]
        assert labels[0] == "Name"
        await pilot.press(*" OR abs:expert*", "tab", *"cs.LG", "shift+tab", "shift+tab", "shift+tab")
        await pilot.pause()
        assert app.screen.focused.id == "topic-form-cancel"
        app.clear_notifications()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is main
        assert engine.topic("Widgets").topic.definition == TopicDefinition(query="abs:widget")
        assert [n.message for n in app._notifications] == ["Edits discarded: the topic was not saved"]
        # Escape says so too; a form left as it was opened, or saved, says nothing of the kind.
        for keys, said in (
            (("a", *"Half typed", "escape"), ["Edits discarded: the topic was not saved"]),
            (("E", "escape"), []),
            (("a", "escape"), []),
        ):
            app.clear_notifications()
            await pilot.press(*keys)
            await pilot.pause()
            assert app.screen is main and [n.message for n in app._notifications] == said, keys
        await pilot.press("a")
        await pilot.pause()
        assert [str(label.render()) for label in app.screen.query(Label)][0] == "Name"


async def test_typing_in_the_edit_form_adds_to_the_field_instead_of_replacing_it(make_engine):
    """The focused field's whole text was selected: the first key typed erased the query."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("E")
        await pilot.pause()
        await pilot.press(*" OR abs:gizmo", "enter")
        await pilot.pause()
    assert engine.topic("Widgets").topic.definition.query == "abs:widget OR abs:gizmo"


async def test_a_topic_of_your_own_is_renamed_in_the_edit_form_and_stays_followed(make_engine):
    """The form said "can't be renamed", though `feedtui topic edit --name` renames it."""
    engine = make_engine(follows=("Widgets",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#topic-name").value = "Widget studies"
        app.clear_notifications()
        await pilot.press("enter")
        await until(pilot, lambda: "Widget studies" in main.query_one(TopicList).names())
        assert main.current == "Widget studies"
        assert "Widgets" not in main.query_one(TopicList).names()
        assert await wait_for_members(pilot, engine, "Widget studies") == ["2610.00005", "2611.00001", "2611.00002", "2611.00004"]
        assert notifications(app) == ["Saved Widget studies"]
    assert engine.state.is_following("Widget studies") and not engine.state.is_following("Widgets")
    assert "Widgets" not in engine.registry


async def test_the_edit_form_says_why_a_catalogue_topics_name_cannot_change(make_engine):
    from textual.widgets import Label

    engine = make_engine()
    name = sorted(engine.registry.catalogue_names)[0]
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic(name)
        await pilot.pause()
        await pilot.press("E")
        await pilot.pause()
        assert str(app.screen.query(Label).first().render()) == "Name (a catalogue topic keeps its name)"
        assert app.screen.query_one("#topic-name").disabled


async def test_the_edit_form_names_the_config_file_of_a_config_topic_as_it_is(tmp_path):
    """The reason was a markup string: a config file under a folder named
    `[/x]` crashed the reader on E (MarkupError), one under `[bold]` was bolded."""
    from textual.widgets import Label

    from feedtui.config import load_config
    from feedtui.core.engine import Engine

    folder = tmp_path / "notes [" / "x] [bold]"  # .../notes [/x] [bold]/config.toml
    folder.mkdir(parents=True)
    path = folder / "config.toml"
    path.write_text('[general]\nauto_refresh = false\n[[topic]]\nname = "Lab"\nquery = "abs:widget"\n', encoding="utf-8")
    engine = Engine(load_config(path), tmp_path / "data")
    engine.follow("Lab")  # else the first-run welcome screen comes first
    app = FeedtuiApp(engine)
    try:
        async with app.run_test(size=SIZE) as pilot:
            main = await ready(pilot)
            main.go_to_topic("Lab")
            await pilot.pause()
            await pilot.press("E")
            await until(pilot, lambda: bool(app.screen.query("#topic-name")))
            label = str(app.screen.query(Label).first().render())
            assert label == f"Name (rename its [[topic]] table in {path})"
            assert app.screen.query_one("#topic-name").disabled
    finally:
        engine.close()


async def test_s_cycles_orders_that_differ_and_keeps_followed_topics_first(make_engine):
    """SPEC §2: followed topics first, then the rest, in every order."""
    engine = make_engine(follows=("Widgets",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=(120, 90)) as pilot:  # every topic on screen
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        seen = []
        for _ in range(4):
            seen.append(main.sidebar.sort)
            names = topic_list.names()
            assert names[0] == "::Following" and names.index("Widgets") < names.index("::Topics")
            await pilot.press("S")
            await pilot.pause()
        assert seen == ["followed", "unread", "trending", "followed"]


async def test_the_topic_form_refuses_names_taken_in_another_spelling_or_reserved(make_engine):
    from feedtui.ui.screens.topic_form import TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        reserved = "'★ Starred' is the reading list's name; choose another name for a topic"
        for typed, message in (
            ("  widgets ", "There is a topic called Widgets already: E edits it."),
            ("LLM  Inference", "There is a topic called LLM Inference already: E edits it."),
            # E on the reading list refuses: the message may not point to it.
            ("★ Starred", reserved[0].upper() + reserved[1:]),
            ("Starred", reserved[0].upper() + reserved[1:]),
        ):
            await pilot.press("a")
            await pilot.pause()
            app.screen.query_one("#topic-name").value = typed
            app.screen.query_one("#topic-query").value = "abs:other"
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TopicFormScreen), typed
            assert str(app.screen.query_one("#topic-form-error").render()) == message
            await pilot.press("escape")
            await pilot.pause()
        assert engine.topic("Widgets").topic.definition.query == "abs:widget"
        assert engine.topic("LLM Inference").topic.origin == "catalogue"


async def test_the_topic_forms_message_is_on_screen_at_80x24(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("a", *"New one", "tab", *"abs:(broken", "enter")
        await pilot.pause(0.2)
        error = app.screen.query_one("#topic-form-error")
        assert "unbalanced" in str(error.render())
        assert app.screen.region.contains_region(error.region)


async def test_the_topic_forms_message_takes_the_keyboard_to_the_field_to_mend(make_engine):
    """After a query that did not parse, the keyboard stayed in the name
    field, and the corrected query was typed into the name."""
    from feedtui.ui.screens.topic_form import TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        form.query_one("#topic-query").value = "abs:widget AND"
        await pilot.press(*"Fixed later", "enter")
        await pilot.pause()
        assert "expected a term after AND" in str(form.query_one("#topic-form-error").render())
        assert form.focused.id == "topic-query"
        await pilot.press(*" abs:gadget", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, TopicFormScreen)
        assert engine.topic("Fixed later").topic.definition.query == "abs:widget AND abs:gadget"
        # A name that cannot be used, typed while in the query: back to the name.
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        form.query_one("#topic-name").value = "Starred"
        form.query_one("#topic-query").focus()
        await pilot.press(*"abs:other", "enter")
        await pilot.pause()
        assert "reading list's name" in str(form.query_one("#topic-form-error").render())
        assert form.focused.id == "topic-name"
        # Nothing to fetch: the query is where to say what.
        form.query_one("#topic-name").value = "Empty"
        form.query_one("#topic-query").value = ""
        form.query_one("#topic-description").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "needs a query, a category or a feed" in str(form.query_one("#topic-form-error").render())
        assert form.focused.id == "topic-query"
        # A category or a feed URL that cannot be used: its own field.
        for field, value in (("categories", "cs.DC not-a-category!"), ("feeds", "http://127.0.0.1:99999/x")):
            form.query_one("#topic-query").value = ""
            form.query_one("#topic-categories").value = value if field == "categories" else ""
            form.query_one("#topic-feeds").value = value if field == "feeds" else ""
            form.query_one("#topic-name").focus()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TopicFormScreen), field
            assert form.focused.id == f"topic-{field}", str(form.query_one("#topic-form-error").render())


def send_burst(app, keys: list[tuple[str, str | None]]) -> None:
    """Keys as a terminal delivers a paste or fast typing: all at once, with no
    wait for the app between them (Pilot's press waits after each key)."""
    from textual import events

    for key, character in keys:
        event = events.Key(key, character)
        event.set_sender(app)
        app._driver.send_message(event)


def typed_keys(text: str) -> list[tuple[str, str | None]]:
    from textual.keys import _character_to_key

    return [(char if char.isalnum() else _character_to_key(char), char) for char in text]


async def test_a_tab_typed_fast_in_the_topic_form_moves_the_text_after_it_to_the_next_field(make_engine):
    """"XY⇥abs:z" in one burst (a paste, a fast typist) put "XYabs:z" in the
    name: the tab, left to bubble up from the field, was lost on the form's
    pushed screen while the keys after it went on into the name."""
    from feedtui.ui.screens.topic_form import TopicFormScreen

    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, TopicFormScreen)
        send_burst(app, [*typed_keys("XY"), ("tab", "\t"), *typed_keys("abs:z"), ("shift+tab", None), *typed_keys("Q")])
        await until(pilot, lambda: form.query_one("#topic-name", Input).value == "XYQ", step=0.05)
        assert form.query_one("#topic-query", Input).value == "abs:z"
        assert form.focused.id == "topic-name"


async def test_keys_typed_fast_after_a_focus_key_go_where_it_put_the_focus(make_engine):
    """K j in one burst: the j went to the widget focused before K
    (Widget.focus() waits for the app's next turn, behind the j), so it moved
    the list, not the sidebar."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.pause()
        names = [row.name for row in main.query_one(TopicList).rows]
        first = main.current
        after_first = names[names.index(first) + 1]
        send_burst(app, typed_keys("Kj"))
        await until(pilot, lambda: main.current == after_first, or_go_on=True)
        assert in_view(main) == (after_first, after_first, after_first)


async def test_keys_typed_right_after_saving_a_topic_move_on_from_it(make_engine):
    """Enter saves the topic and shows it; K j typed straight after (in one
    burst, as a fast typist's keys come) move the sidebar on from it. The
    topic used to be shown by a callback of the form's dismissal, which ran
    after K j and took the sidebar back (seen in tmux with keys 0-0.15 s
    after enter)."""
    from feedtui.ui.screens.topic_form import TopicFormScreen

    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, TopicFormScreen)
        form.query_one("#topic-name", Input).value = "Vole studies"
        form.query_one("#topic-query", Input).value = "abs:gadget"
        form.query_one("#topic-query", Input).focus()
        await pilot.pause()
        send_burst(app, [("enter", "\r"), *typed_keys("Kj")])
        await until(pilot, lambda: app.screen is main and main.current != "Vole studies", step=0.05, or_go_on=True)
        await pilot.pause()
        names = [row.name for row in main.query_one(TopicList).rows]
        after_saved = names[names.index("Vole studies") + 1]
        assert in_view(main) == (after_saved, after_saved, after_saved)
        assert main.engine.topic("Vole studies") is not None


async def test_the_topic_form_refuses_a_feed_url_that_could_never_be_fetched(make_engine):
    """The form's feeds go through the check of `topic add --feed`."""
    from feedtui.ui.screens.topic_form import TopicFormScreen

    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await pilot.pause()
        app.screen.query_one("#topic-name").value = "My lab blog"
        app.screen.query_one("#topic-feeds").value = "http://127.0.0.1:99999/x"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TopicFormScreen)
        assert str(app.screen.query_one("#topic-form-error").render()) == (
            "Feed URL has an invalid port (a port is a number from 1 to 65535): http://127.0.0.1:99999/x"
        )
        app.screen.query_one("#topic-feeds").value = "HTTP://lab.example.org/feed.xml"
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, TopicFormScreen)
        assert engine.topic("My lab blog").topic.definition.feeds == ("http://lab.example.org/feed.xml",)


async def test_removing_the_topic_shown_closes_its_question(make_engine):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic("Gadgets")
        await pilot.press("slash", *"calibration", "enter")
        await pilot.pause(0.2)
        assert main.asking.question
        await pilot.press("D")
        await pilot.pause()
        await pilot.press("enter")  # not an answer
        await pilot.pause()
        assert "Gadgets" in engine.registry
        await pilot.press("y")
        await pilot.pause()
        assert "Gadgets" not in engine.registry
        assert main.asking.question == "" and not main.query_one("#ask").display
        assert "Ask:" not in list_title(main)


def test_feed_urls_keep_their_commas_and_categories_split_on_them():
    from feedtui.ui.screens.topic_form import split_list

    assert split_list("https://e.org/f?tags=ai,ml  https://x.org/a", commas=False) == (
        "https://e.org/f?tags=ai,ml", "https://x.org/a",
    )
    assert split_list("cs.LG, cs.CL stat.ML") == ("cs.LG", "cs.CL", "stat.ML")


async def test_r_during_a_refresh_does_not_cancel_it(make_engine, monkeypatch):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        started = []
        monkeypatch.setattr(main.refresher, "refresh_topics", lambda *args, **kwargs: started.append(args))
        main.refresher.refreshing = True
        await pilot.press("r", "R")
        await pilot.pause()
        assert started == []
        main.refresher.refreshing = False
        await pilot.press("r")
        await pilot.pause()
        assert started == [(["Widgets"],)]


async def test_a_topic_filter_that_matches_nothing_says_so(make_engine):
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("ctrl+f", *"zzqx")
        await pilot.pause()
        topic_list = main.query_one(TopicList)
        assert topic_list.names() == []
        assert "No topic matches “zzqx”" in lines_of(topic_list)[0]
        await pilot.press("escape")
        await pilot.pause()
        assert "Widgets" in topic_list.names()


async def test_escape_leaves_an_empty_filter_and_clears_one_from_the_sidebar(make_engine):
    """An emptied filter kept the focus, so command keys went into it (R
    filtered for "R"); with the sidebar focused, escape did not clear the
    filter its empty message says escape clears."""
    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        filter_input = main.query_one("#topic-filter")
        await pilot.press("ctrl+f", "escape")
        await pilot.pause()
        assert topic_list.has_focus and filter_input.value == ""
        await pilot.press("ctrl+f", *"gad", "enter")
        await pilot.pause()
        assert topic_list.has_focus and "Widgets" not in topic_list.names()
        await pilot.press("escape")
        await pilot.pause()
        assert filter_input.value == "" and "Widgets" in topic_list.names()


async def test_the_sidebar_keeps_its_cursor_in_view_when_resized_and_when_a_filter_is_cleared(make_engine):
    """The cursor's row was left out of view until the next key moved it."""

    def in_view(topic_list) -> bool:
        top = round(topic_list.scroll_y)
        return top <= topic_list.cursor < top + topic_list.scrollable_content_region.height

    app = FeedtuiApp(make_engine())
    async with app.run_test(size=(120, 50)) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        assert len(topic_list.names()) > 40
        last = topic_list.names()[-1]
        main.go_to_topic(last)
        await pilot.pause()
        assert topic_list.current == last and in_view(topic_list)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert topic_list.current == last and in_view(topic_list)
        await pilot.press("ctrl+f", *last[:6], "enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert topic_list.current == last and in_view(topic_list)


async def test_removing_the_only_topic_a_filter_matches_shows_another(make_engine):
    """The removed topic's header stayed on screen and f, E said nothing."""
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("ctrl+f", *"gadg", "enter")
        await pilot.pause()
        assert main.current == "Gadgets"
        await pilot.press("D", "y")
        await pilot.pause()
        assert "Gadgets" not in engine.registry
        assert main.current in engine.registry or main.current == STARRED_VIEW
        assert main.query_one(TopicHeader).text.splitlines()[0].startswith(main.current)
        assert main.query_one("#topic-filter").value == ""
        assert "Widgets" in main.query_one(TopicList).names()


async def test_a_failed_save_is_shown_and_so_is_the_save_that_follows(make_engine, monkeypatch):
    """A read-only or full disk under the reader: marks stay in memory and are
    retried, and the reader is told both that they are not saved and when they are."""
    from feedtui.store import tinydb_io
    from feedtui.store.files import StoreError

    engine = make_engine()
    app = FeedtuiApp(engine)
    failing = {"on": True}
    flush = tinydb_io.Database.flush

    def flaky_flush(self) -> None:
        if failing["on"]:
            raise StoreError("could not save state.json: the file system is read-only")
        flush(self)

    async def wait_for(text: str) -> list[str]:
        for _ in range(150):
            await pilot.pause(0.02)
            messages = [n.message for n in app._notifications]
            if any(text in m for m in messages):
                return messages
        raise AssertionError(f"no notification with {text!r}: {[n.message for n in app._notifications]}")

    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("J")
        monkeypatch.setattr(tinydb_io.Database, "flush", flaky_flush)
        marked = app.main_screen.query_one(PaperList).cursor_card.paper_id
        await pilot.press("m")
        await wait_for("read-only")
        failed = [n for n in app._notifications if "read-only" in n.message]
        assert failed[0].severity == "error" and failed[0].title == "Not saved"
        assert "kept in memory" in failed[0].message
        assert engine.state.is_read(marked)
        assert not engine.state.wait_durable(timeout=0.05)
        failing["on"] = False
        await wait_for("saved again")
        assert engine.state.wait_durable(timeout=1.0)


async def test_removing_a_catalogue_topic_says_how_to_bring_it_back(make_engine):
    from textual.widgets import Static

    from feedtui.ui.screens.topic_form import ConfirmScreen

    engine = make_engine()
    name = sorted(engine.registry.catalogue_names)[0]
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic(name)
        await pilot.pause()
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        said = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert f"Hide the catalogue topic {name}?" in said
        assert f"feedtui topic restore '{name}' brings it back" in said
        await pilot.press("y")
        await pilot.pause()
        assert name not in engine.registry
        engine.restore_topic(name)
        assert name in engine.registry


@pytest.mark.parametrize("width", [50, 40])
async def test_the_question_before_removing_fits_a_narrow_terminal(make_engine, width):
    """The dialog was 60 cells wide whatever the screen: at 50 columns the
    restore command was cut off in the middle of the topic's name."""
    from feedtui.ui.screens.topic_form import ConfirmScreen

    engine = make_engine()
    name = max(engine.registry.catalogue_names, key=len)
    app = FeedtuiApp(engine)
    async with app.run_test(size=(width, 24)) as pilot:
        main = await ready(pilot)
        main.go_to_topic(name)
        await pilot.pause()
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause()
        dialog = app.screen.query_one("#confirm").region
        assert dialog.x >= 0 and dialog.right <= width
        inside = [line[dialog.x + 1 : dialog.right - 1] for line in terminal_lines(app)[dialog.y : dialog.bottom]]
        said = " ".join(" ".join(inside).split())
    assert f"The command feedtui topic restore '{name}' brings it back." in said
    assert "y: yes · n: no" in said


# Topics under which "A gadget meets a widget." (2611.00002) has three tags.
THREE_TOPICS = {
    "Widgets": TopicDefinition(query="abs:widget"),
    "Gadgets": TopicDefinition(query="abs:gadget"),
    "apparatus": TopicDefinition(query="abs:meets"),
}


async def to_the_card_in_three_topics(pilot, main) -> PaperList:
    paper_list = main.query_one(PaperList)
    paper_list.focus()
    while paper_list.cursor_card.paper_id != "2611.00002":
        await pilot.press("j")
    return paper_list


async def test_the_t_chooser_fits_a_narrow_terminal(make_engine):
    """It was 50 cells wide whatever the screen: at 40 columns its right
    border and the end of long topic names were off the screen."""
    from feedtui.ui.screens.pick_topic import PickTopicScreen

    app = FeedtuiApp(make_engine(topics=THREE_TOPICS))
    async with app.run_test(size=(40, 24)) as pilot:
        main = await ready(pilot)
        await to_the_card_in_three_topics(pilot, main)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, PickTopicScreen))
        await pilot.pause()
        chooser = app.screen.query_one("#pick-topic").region
        assert chooser.x >= 0 and chooser.right <= 40


async def test_the_question_before_removing_a_followed_topic_says_it_is_followed(make_engine):
    """It did not: the follow went with the topic, and `topic restore` did not bring it back."""
    from textual.widgets import Static

    from feedtui.model import TopicDefinition
    from feedtui.ui.screens.topic_form import ConfirmScreen

    engine = make_engine()
    name = sorted(engine.registry.catalogue_names)[0]
    engine.follow(name)
    engine.add_topic("Lab", TopicDefinition(feeds=("https://lab.example.org/atom.xml",)))
    engine.follow("Lab")
    app = FeedtuiApp(engine)

    async def question_on_removing(topic: str) -> str:
        main.go_to_topic(topic)
        await pilot.pause()
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(str(s.render()) for s in app.screen.query(Static))
        await pilot.press("y")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        return said

    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        said = await question_on_removing(name)
        assert f"You follow it. The command feedtui topic restore '{name}' brings it back, followed." in said
        said = await question_on_removing("Lab")
        assert "You follow it: removing it unfollows it." in said
    engine.restore_topic(name)
    assert engine.state.is_following(name)


async def test_removing_an_edited_config_topic_drops_the_copy_and_the_table_defines_it_again(tmp_path):
    """D said to remove the [[topic]] table, which left the edited copy in place."""
    from textual.widgets import Static

    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.model import Topic, TopicDefinition
    from feedtui.ui.screens.topic_form import ConfirmScreen

    from tests.ui.conftest import NOW, invented_papers

    config = Config(path=tmp_path / "config.toml")
    config.settings.auto_refresh = False
    config.topics.append(Topic("Gizmos", TopicDefinition(query="abs:gadget"), origin="config"))
    engine = Engine(config, tmp_path / "data", clock=lambda: NOW)
    engine.cache.store(invented_papers(), {}, NOW)
    engine.follow("Gizmos")
    engine.edit_topic("Gizmos", query="abs:widget")
    engine.load_library()
    engine.retag(engine.registry.names())
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await show(pilot, "Gizmos")
        await until(pilot, lambda: list_title(main).startswith("Latest papers (4)"))
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "Drop your edited copy of Gizmos?" in said
        assert f"It overrides the topic's [[topic]] table in {config.path}, which then defines it again." in said
        await pilot.press("y")
        await until(pilot, lambda: list_title(main).startswith("Latest papers (2)"))
        assert main.current == "Gizmos"
        assert f"Gizmos is as {config.path} defines it again — ctrl+z to undo" in notifications(app)
        assert engine.topic("Gizmos").topic.definition.query == "abs:gadget"
        await pilot.press("ctrl+z")  # the edited copy comes back
        await until(pilot, lambda: list_title(main).startswith("Latest papers (4)"))
        assert engine.topic("Gizmos").topic.definition.query == "abs:widget"
        assert "Undone: dropped your edited copy of Gizmos" in notifications(app)
        await pilot.press("D", "y")
        await until(pilot, lambda: list_title(main).startswith("Latest papers (2)"))
    assert engine.topic("Gizmos").topic.definition.query == "abs:gadget"
    assert engine.state.is_following("Gizmos")
    engine.close()


async def test_a_state_file_damaged_under_the_reader_is_told_as_recovered_not_as_unsaved(make_engine, tmp_path):
    engine = make_engine()
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("J")
        (tmp_path / "data" / "state.json").write_text("{ damaged")
        await pilot.press("m")
        await until(pilot, lambda: app._notifications, tries=150)
        said = [(n.title, n.severity, n.message) for n in app._notifications]
        assert len(said) == 1, said
        title, severity, message = said[0]
        assert severity == "warning" and title != "Not saved"
        assert "was damaged while feedtui ran" in message
        assert engine.state.wait_durable(timeout=1.0)
        await pilot.pause(0.2)
        assert len(app._notifications) == 1  # and no "saved again" after it


async def test_a_state_file_removed_under_the_reader_is_written_back_and_told(make_engine, tmp_path):
    """state.json deleted while the reader ran: the reader took the missing
    file for an empty state, dropped every follow and mark from the screen
    (saying a topic "was removed by another feedtui"), and saved nothing."""
    engine = make_engine(read=("2611.00003",))
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        path = tmp_path / "data" / "state.json"
        path.unlink()
        await until(pilot, lambda: app._notifications, tries=150)
        said = [n.message for n in app._notifications]
        assert len(said) == 1 and "was removed while feedtui ran" in said[0], said
        assert engine.state.is_following("Widgets") and engine.state.is_read("2611.00003")
        assert sidebar_row(app, "Widgets").startswith("★ Widgets")
        assert main.current == "Widgets"
        assert path.exists()
    reopened = json.loads(path.read_text())
    assert "Widgets" in json.dumps(reopened["follows"]) and "2611.00003" in json.dumps(reopened["read"])


async def test_a_save_that_succeeds_before_the_failure_is_shown_is_still_told(make_engine):
    """Both reports come from the store's thread: the retry's success may come
    before the app has shown the failure; it must not be dropped."""
    import threading

    app = FeedtuiApp(make_engine())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        store_thread = threading.Thread(
            target=lambda: (app.engine.state.on_error("could not save state.json: the disk is full"), app.engine.state.on_durable(1))
        )
        store_thread.start()
        store_thread.join()
        await pilot.pause(0.1)
        assert [n.message for n in app._notifications] == [
            "could not save state.json: the disk is full",
            "Your follows and marks are saved again.",
        ]


async def test_the_status_line_counts_one_cached_paper_as_one_paper(make_engine):
    """It said "1 papers cached"."""
    from tests.ui.conftest import invented_papers

    engine = make_engine(papers=invented_papers()[:1])
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        status = main.query_one(StatusLine).query_one("#status-text")
        assert [part.strip() for part in lines_of(status)[0].split("·")] == ["never refreshed", "1 paper cached"]
        main.query_one(StatusLine).show_refreshing("paging Widgets", papers=1)
        await pilot.pause()
        assert lines_of(status)[0].rstrip().endswith("·  1 paper cached")


async def test_a_papers_tags_are_in_name_order_on_its_card_in_its_detail_and_in_the_t_chooser(make_engine):
    """They were in the order the topics were attached, which differs from
    paper to paper and from the CLI's."""
    from feedtui.ui.screens.pick_topic import PickTopicScreen

    app = FeedtuiApp(make_engine(topics=THREE_TOPICS))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        paper_list = await to_the_card_in_three_topics(pilot, main)
        in_name_order = "apparatus  Gadgets  Widgets"
        assert any(line.strip("▌ ") == in_name_order for line in lines_of(paper_list))
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, PickTopicScreen))
        chooser = app.screen.query_one("OptionList")
        assert [str(chooser.get_option_at_index(i).prompt) for i in range(chooser.option_count)] == ["apparatus", "Gadgets"]
        await pilot.press("escape")
        detail = await open_detail(pilot, main)
        assert f"Topics: {in_name_order}" in detail_text(detail)


async def test_large_counts_are_written_with_thousands_separators_in_the_sidebar_and_the_sentence(make_engine):
    """The sidebar said 1204 and the sentence 1203 papers beside the list's
    "Latest papers (1,204)"; the sidebar's counts stay in one column."""
    from tests.factories import make_paper
    from tests.ui.conftest import invented_papers

    many = [
        make_paper(f"2611.{n:05d}", title=f"Widget study {n}", abstract="A widget.", published=f"2026-11-{1 + n % 26:02d}T10:00:00")
        for n in range(100, 1_300)
    ]
    app = FeedtuiApp(make_engine(papers=invented_papers() + many, follows=("Widgets", "Gadgets")))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = await show(pilot, "Widgets")
        assert "Latest papers (1,204)" in list_title(main)
        assert "1,203 papers in the last four weeks, against 1 " in main.query_one(TopicHeader).text
        widgets, gadgets = sidebar_row(app, "Widgets"), sidebar_row(app, "Gadgets")
        assert widgets.endswith(" 1,204") and gadgets.endswith(" " * 5 + "2")
        assert len(widgets) == len(gadgets)


async def test_the_sidebar_and_the_header_follow_the_clock(make_engine, monkeypatch):
    """Papers pass "now" and a new week starts while the reader is open: the
    sparklines, the trending order and the topic's sentence and chart were
    only recomputed when the sidebar was rebuilt or the topic shown again."""
    from datetime import datetime

    from feedtui.model import UTC, TopicDefinition
    from feedtui.ui.widgets.momentum_chart import MomentumChart
    from feedtui.ui.widgets.sparkline import sparkline

    from tests.factories import make_paper

    monkeypatch.setattr(Refresher, "AUTO_REFRESH_CHECK_S", 0.05)
    papers = [
        *(make_paper(f"2612.0000{n}", abstract="Rising tides.", published=f"2026-12-20T0{n}:00:00") for n in (1, 2, 3)),
        *(make_paper(f"2611.0000{n}", abstract="Steady state.", published="2026-11-20T10:00:00") for n in (4, 5)),
    ]
    topics = {"Rising": TopicDefinition(query="abs:rising"), "Steady": TopicDefinition(query="abs:steady")}
    engine = make_engine(papers=papers, topics=topics, follows=("Rising", "Steady"))
    engine.state.set_pref("sort", "trending")
    now = [datetime(2026, 11, 27, 18, 0, tzinfo=UTC)]
    engine.clock = lambda: now[0]
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = await show(pilot, "Rising")
        topic_list = main.query_one(TopicList)

        def order() -> list[str]:
            return [row.name for row in topic_list.rows if row.name in topics]

        assert order() == ["Steady", "Rising"]
        assert "0 papers in the last four weeks" in main.query_one(TopicHeader).text
        now[0] = datetime(2026, 12, 21, 0, 0, 1, tzinfo=UTC)  # a Monday: a new week
        await until(pilot, lambda: order() == ["Rising", "Steady"])
        assert order() == ["Rising", "Steady"]
        for name in ("Rising", "Steady"):
            weeks = [week.count for week in engine.momentum(name).weeks]
            assert sidebar_row(app, name).rstrip().endswith(f"{sparkline(weeks)}    2" if name == "Steady" else f"{sparkline(weeks)}    3")
        assert "3 papers in the last four weeks, against 0 " in main.query_one(TopicHeader).text
        assert "Week of Dec 21" in "\n".join(lines_of(main.query_one(MomentumChart)))


async def test_the_clock_leaves_a_trending_sidebar_scrolled_where_it_is(make_engine, monkeypatch):
    """With an unfollowed topic trending above a followed one, the trending
    order was compared with the order as drawn (followed first): they never
    agreed, and every tick rebuilt the sidebar and scrolled it back to the
    shown topic."""
    from datetime import datetime

    from feedtui.model import UTC, TopicDefinition

    from tests.factories import make_paper

    monkeypatch.setattr(Refresher, "AUTO_REFRESH_CHECK_S", 0.05)
    ticks: list[None] = []
    follow_the_clock = Sidebar.follow_the_clock
    monkeypatch.setattr(Sidebar, "follow_the_clock", lambda self: (ticks.append(None), follow_the_clock(self)))
    papers = [
        *(make_paper(f"2612.0000{n}", abstract="Rising tides.", published=f"2026-12-20T0{n}:00:00") for n in (1, 2, 3)),
        *(make_paper(f"2611.0000{n}", abstract="Steady state.", published="2026-11-20T10:00:00") for n in (4, 5)),
    ]
    topics = {"Rising": TopicDefinition(query="abs:rising"), "Steady": TopicDefinition(query="abs:steady")}
    topics |= {f"Quiet {n:02d}": TopicDefinition(query=f"abs:quiet{n}") for n in range(30)}
    engine = make_engine(papers=papers, topics=topics, follows=("Steady",))
    engine.state.set_pref("sort", "trending")
    engine.clock = lambda: datetime(2026, 12, 21, 12, 0, tzinfo=UTC)
    app = FeedtuiApp(engine)
    async with app.run_test(size=(120, 20)) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        names = topic_list.names()
        assert names.index("Steady") < names.index("Rising") < names.index("Quiet 00")
        topic_list.scroll_to(y=12, animate=False)
        await pilot.pause()
        drawn = lines_of(topic_list)
        assert "Steady" not in "\n".join(drawn)
        seen = len(ticks)
        await until(pilot, lambda: len(ticks) >= seen + 5)
        assert len(ticks) >= seen + 5
        assert lines_of(topic_list) == drawn
        assert topic_list.names() == names and main.current == "Steady"


async def test_a_sparkline_follows_the_clock_in_place_in_the_followed_order(make_engine, monkeypatch):
    from datetime import datetime

    from feedtui.model import UTC
    from feedtui.ui.widgets.sparkline import sparkline

    monkeypatch.setattr(Refresher, "AUTO_REFRESH_CHECK_S", 0.05)
    engine = make_engine()
    now = [datetime(2026, 11, 27, 18, 0, tzinfo=UTC)]
    engine.clock = lambda: now[0]
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        names = main.query_one(TopicList).names()
        before = sidebar_row(app, "Widgets")
        now[0] = datetime(2026, 11, 30, 0, 0, 1, tzinfo=UTC)  # Monday: the widget papers' week is the one before
        await until(pilot, lambda: sidebar_row(app, "Widgets") != before)
        weeks = [week.count for week in engine.momentum("Widgets").weeks]
        assert weeks[-1] == 0 and sparkline(weeks) in sidebar_row(app, "Widgets")
        assert main.query_one(TopicList).names() == names and main.current == "Widgets"
