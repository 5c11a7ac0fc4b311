"""Keys remapped from the config file, themes chosen and remembered, and `?`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.command import CommandPalette
from textual.errors import NoWidget
from textual.widgets._footer import FooterKey
from werkzeug import Response

from feedtui.config import load_config
from feedtui.core.engine import Engine
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.presenter import STARRED_VIEW
from feedtui.ui.bindings import all_bindings, binding_sources
from feedtui.ui.keymap import key_label, key_labels
from feedtui.ui.screens.help import GROUPS, HelpScreen
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.status_line import StatusLine
from feedtui.ui.widgets.topic_header import TopicHeader
from feedtui.ui.widgets.topic_list import TopicList

from tests.held_feeds import rss
from tests.ui.conftest import NOW
from tests.ui.test_app import SIZE, lines_of, notifications, ready, refresh_over, terminal_lines, until


@pytest.fixture
def data_dir(make_engine, tmp_path) -> Path:
    """A data dir with the invented library, its engine closed: each test
    opens it the way the app starts, from a config file."""
    directory = tmp_path / "data"
    make_engine(data_dir=directory).close()
    return directory


@pytest.fixture
def open_app(data_dir, tmp_path):
    engines: list[Engine] = []

    def start(config_text: str = "", general: str = "auto_refresh = false") -> FeedtuiApp:
        """`config_text` continues the [general] section (line 3 on)."""
        path = tmp_path / "config.toml"
        path.write_text(f"[general]\n{general}\n{config_text}", encoding="utf-8")
        engine = Engine(load_config(path), data_dir, clock=lambda: NOW)
        engine.load_library()
        engines.append(engine)
        return FeedtuiApp(engine)

    yield start
    for engine in engines:
        try:
            engine.close()
        except Exception:
            pass


def footer_keys(app) -> dict[str, str]:
    """What the footer offers: description -> key (not the keys it hides or
    dims because they do not apply now)."""
    shown: dict[str, str] = {}
    for footer_key in app.screen.query(FooterKey):
        if footer_key.display and not footer_key.has_class("-disabled"):
            shown[footer_key.description] = footer_key.key_display
    return shown


def help_lines(app) -> list[str]:
    return lines_of(app.screen.query_one("#help-body"))


# -- every binding has an id --------------------------------------------------------


def test_every_binding_has_a_unique_id_and_a_description():
    """An id is shared only by the states of one key in one class (f: Follow,
    Unfollow), which a keymap must move together, and by an App key bound
    again on a modal screen (which Textual cuts off from the App's keys): the
    same key, doing the same."""
    owners: dict[str, set[tuple[str, str]]] = {}
    app_keys = {binding.id: binding for binding in binding_sources()["app"]}
    for source, bindings in binding_sources().items():
        assert bindings, source
        for binding in bindings:
            assert isinstance(binding, Binding), (source, binding)
            assert binding.id and "." in binding.id, (source, binding)
            assert binding.description, binding.id
            if source != "app" and binding.id in app_keys:
                app_binding = app_keys[binding.id]
                assert (binding.key, binding.action, binding.description) == (
                    app_binding.key, f"app.{app_binding.action}", app_binding.description
                ), (source, binding.id)
                continue
            owners.setdefault(binding.id, set()).add((source, binding.key))
    assert {i: o for i, o in owners.items() if len(o) > 1} == {}
    assert {i.split(".")[0] for i in owners} <= set(GROUPS)


def test_key_labels_match_what_the_app_shows():
    app = FeedtuiApp.__new__(FeedtuiApp)  # get_key_display needs no running app
    for binding in all_bindings():
        for key in binding.key.split(","):
            assert key_label(key) == FeedtuiApp.get_key_display(app, Binding(key, "x")), key
    assert key_labels("j,down") == ["j", "↓"]
    assert key_labels("ctrl+f") == ["^f"]
    assert key_labels("question_mark,escape") == ["?", "esc"]


# -- remapping ----------------------------------------------------------------------------


async def test_a_remapped_key_works_and_the_default_no_longer_does(open_app):
    app = open_app('[keymap]\npaper.toggle_read = "x"\npaper_list.next = "ctrl+n"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        engine = app.engine
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        await pilot.press("j")  # no longer bound in the list
        await pilot.pause()
        assert paper_list.cursor == 0
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert paper_list.cursor == 1
        paper_id = paper_list.cursor_card.paper_id
        await pilot.press("m")
        await pilot.pause()
        assert not engine.state.is_read(paper_id)
        await pilot.press("x")
        await pilot.pause()
        assert engine.state.is_read(paper_id)
        assert paper_list.cursor_card.read


async def test_the_footer_shows_the_remapped_key(open_app):
    app = open_app('[keymap]\n"paper.toggle_read" = "x"\ntopic.follow = "ctrl+y,F"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        shown = footer_keys(app)
        assert shown["Read"] == "x"
        assert shown["Unfollow"] == "^y"  # the topic shown is followed
        assert shown["Star"] == "s"
        active = {key: b.binding.id for key, b in app.screen.active_bindings.items()}
        assert active["x"] == "paper.toggle_read"
        assert active["F"] == active["ctrl+y"] == "topic.follow"
        assert "m" not in active and "f" not in active


@pytest.mark.parametrize("focus", ["sidebar", "list"])
async def test_the_footer_shows_every_key_at_120_columns_quit_and_help_too(open_app, focus):
    """Textual's footer cut them off at the right edge with the list focused."""
    app = open_app()
    async with app.run_test(size=(120, 40)) as pilot:
        main = await ready(pilot)
        if focus == "list":
            main.query_one(PaperList).focus()
        await pilot.pause()
        cut = []
        for footer_key in app.screen.query(FooterKey):
            region = footer_key.region
            for x in (region.x, region.right - 1):
                try:
                    shown, _ = app.screen.get_widget_at(x, region.y)
                except NoWidget:  # beyond the screen's edge
                    shown = app.screen
                if shown is not footer_key and footer_key not in shown.ancestors:
                    cut.append(footer_key.description)
        assert "Quit" in footer_keys(app) and "Help" in footer_keys(app)
        assert cut == []


async def test_the_help_lists_every_binding_grouped_with_the_keys_as_mapped(open_app):
    app = open_app('[keymap]\npaper.toggle_read = "x"\ndetail.open = "ctrl+o,o"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = help_lines(app)
        text = "\n".join(lines)
        for title in ("General", "Topic sidebar", "The topic", "The paper under the cursor", "Moving in the list", "Paper detail"):
            assert title in text
        rows = {}
        for line in lines:
            cells = [c.strip() for c in line.split("│")]
            if len(cells) == 3 and cells[2]:
                rows[cells[2]] = (cells[0], cells[1])
        assert set(rows) == {b.id for b in all_bindings()}
        for binding in all_bindings():
            keys, does = rows[binding.id]
            assert does.startswith(binding.description), binding.id
        assert rows["paper.toggle_read"] == ("x", "Read (remapped)")
        assert rows["detail.open"][0] == "^o  o"
        assert rows["paper.star"][0] == "s"
        assert rows["paper_list.next"][0] == "j  ↓"
        assert rows["app.help"][0] == "?"
        # The help's own keys close it.
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen


async def test_g_and_shift_g_go_to_the_top_and_the_end_of_the_help(open_app):
    """As they do in the list: the help's long table had only j/k (and
    Textual's End) to get through it."""
    from textual.containers import VerticalScroll

    app = open_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        scroll = app.screen.query_one("#help", VerticalScroll)
        assert scroll.max_scroll_y > 0
        await pilot.press("G")
        await until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        await pilot.press("g")
        await until(pilot, lambda: scroll.scroll_y == 0)


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (44, 16)])
async def test_the_help_keeps_every_description_readable_on_a_small_terminal(open_app, size):
    """Long group titles once widened the keys column until the descriptions
    had no room left at 80 columns; at 60 the ids' column left them 10 cells,
    so that "Refresh all" took two lines. Where the ids do not fit beside
    descriptions of 20 cells, each goes under its description."""
    app = open_app()
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        lines = help_lines(app)
        rows: list[list[list[str]]] = []  # per binding: each column's lines beside its keys
        for line in lines:
            cells = [c.strip() for c in line.split("│")]
            if len(cells) < 2:
                continue
            if cells[0] or not rows:
                rows.append([[cell] for cell in cells[1:]])
            else:  # a wrapped description, a folded or stacked id
                for column, cell in zip(rows[-1], cells[1:]):
                    column.append(cell)
        bindings = all_bindings()
        shown = ["".join("".join(column) for column in row).replace(" ", "") for row in rows]
        for binding in bindings:  # every word of the description, then the id
            assert (binding.description + binding.id).replace(" ", "") in shown, binding.id
        for binding in bindings:  # a description that fits in 20 cells is on one line, where 20 are left
            if len(binding.description) <= 20 and size[0] >= 60:
                assert any(binding.description in line for line in lines), binding.id
        assert max(len(line.rstrip()) for line in lines) <= size[0]


async def test_f_says_follow_or_unfollow_as_the_topic_shown_is_and_a_keymap_moves_both(open_app):
    app = open_app('[keymap]\ntopic.follow = "F"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        engine = app.engine

        def offered() -> tuple[dict[str, str], set[str]]:
            return footer_keys(app), {c.title for c in app.get_system_commands(app.screen)}

        assert main.current == "Widgets" and engine.state.is_following("Widgets")
        shown, palette = offered()
        assert shown.get("Unfollow") == "F" and "Follow" not in shown
        assert "Unfollow" in palette and "Follow" not in palette
        await pilot.press("F")
        await pilot.pause()
        assert not engine.state.is_following("Widgets")
        shown, palette = offered()
        assert shown.get("Follow") == "F" and "Unfollow" not in shown
        assert "Follow" in palette and "Unfollow" not in palette
        await pilot.press("f")  # the default key is gone
        await pilot.pause()
        assert not engine.state.is_following("Widgets")
        await pilot.press("F")
        await pilot.pause()
        assert engine.state.is_following("Widgets")
        assert "Unfollow" in footer_keys(app)

        main.show_topic("Gadgets")  # not followed
        await pilot.pause()
        assert "Follow" in footer_keys(app) and "Unfollow" not in footer_keys(app)

        main.show_topic(STARRED_VIEW)  # nothing to follow: Follow, dimmed
        await pilot.pause()
        keys = {k.description: k for k in app.screen.query(FooterKey) if k.display}
        assert "Unfollow" not in keys and keys["Follow"].has_class("-disabled")
        assert "Follow" not in {c.title for c in app.get_system_commands(app.screen)}
        # Nor a topic to refresh or ask about; back on a topic, all of it is there again.
        assert keys["Refresh"].has_class("-disabled") and keys["Ask"].has_class("-disabled")
        main.show_topic("Gadgets")
        await pilot.pause()
        keys = {k.description: k for k in app.screen.query(FooterKey) if k.display}
        assert not any(keys[d].has_class("-disabled") for d in ("Follow", "Refresh", "Ask"))


async def test_hints_in_sentences_name_the_keys_as_mapped(open_app):
    """The header said "f unfollows", the filter "(ctrl+f)", the reading list
    "press s" whatever the keymap gave those actions."""
    app = open_app('[keymap]\ntopic.follow = "F"\ntopics.filter = "ctrl+g"\npaper.star = "x"\napp.undo = "ctrl+y"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.current == "Widgets"
        header = main.query_one(TopicHeader)
        assert "F unfollows" in header.text and "f unfollows" not in header.text
        assert main.query_one("#topic-filter").placeholder == "Filter topics…  (ctrl+g)"
        main.show_topic(STARRED_VIEW)
        await pilot.pause()
        assert "starred with x (" in header.text
        assert main.query_one(PaperList).empty_message == "No starred papers yet — press x on a paper to star it"
        main.show_topic("Widgets")
        await pilot.pause()
        main.query_one(PaperList).focus()
        await pilot.press("M")
        await pilot.pause()
        assert any(n.message.endswith("— ctrl+y to undo") for n in app._notifications)


async def test_hints_that_name_the_way_back_name_the_key_as_mapped(open_app, words_only):
    """With app.back on ctrl+b, the Ask's title said "(esc: back)", its box
    "escape to return" and an empty filter "escape clears": escape did nothing."""
    from tests.ui.test_app import asked, list_title

    app = open_app('[keymap]\napp.back = "ctrl+b"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        ask = main.query_one("#ask")
        assert ask.placeholder == "Ask about this topic…  (enter to search, ctrl+b to return)"
        assert await asked(pilot, main, "sorting") == "Ask: sorting — 1 paper, best match first  (ctrl+b: back)"
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert not ask.display and not list_title(main).startswith("Ask:")
        await pilot.press("ctrl+f", *"zzzq")
        await pilot.pause()
        topic_list = main.query_one(TopicList)
        assert topic_list.empty_message == "No topic matches “zzzq” (ctrl+b clears)"
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert main.query_one("#topic-filter").value == ""


async def test_the_topic_form_and_the_welcome_name_their_keys_as_mapped(open_app, tmp_path):
    """They said "escape cancels" and "escape: browse…" whatever the keymap."""
    from feedtui.ui.screens.topic_form import TopicFormScreen
    from feedtui.ui.screens.welcome import WelcomeScreen

    keymap = '[keymap]\ntopic_form.cancel = "ctrl+g"\nwelcome.skip = "ctrl+s"\n'
    app = open_app(keymap)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, TopicFormScreen))
        hints = [" ".join(lines_of(s)).strip() for s in app.screen.query("#topic-form > Static")]
        assert "enter saves · ctrl+g cancels · a query, categories or feeds, or a mix" in hints
    path = tmp_path / "fresh.toml"
    path.write_text(keymap, encoding="utf-8")
    engine = Engine(load_config(path), tmp_path / "fresh")
    app = FeedtuiApp(engine)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, WelcomeScreen))
            await pilot.pause()
            hints = [" ".join(lines_of(s)).strip() for s in app.screen.query("#welcome > Static")]
            assert "ctrl+s: browse without following anything" in hints
    finally:
        engine.close()


async def test_the_footer_offers_no_ask_while_a_text_box_has_focus(open_app):
    """In the sidebar filter and the Ask box the footer offered "/ Ask",
    and / typed a slash there."""
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert footer_keys(app)["Ask"] == "/"
        for opens, box in (("ctrl+f", "#topic-filter"), ("slash", "#ask")):
            await pilot.press(opens)
            await pilot.pause()
            assert main.query_one(box).has_focus
            assert "Ask" not in footer_keys(app)
            await pilot.press("slash")
            await pilot.pause()
            assert main.query_one(box).value == "/"
            await pilot.press("escape")
            await pilot.pause()
            assert footer_keys(app)["Ask"] == "/"


async def test_editing_or_removing_the_reading_list_says_why_not(open_app):
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.show_topic(STARRED_VIEW)
        await pilot.pause()
        for key in ("E", "D"):
            app.clear_notifications()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is main
            assert [n.message for n in app._notifications] == [
                "The reading list holds the papers you starred (s); it is not a topic to edit or remove"
            ]


async def test_the_command_palette_shows_the_remapped_key(open_app):
    app = open_app('[keymap]\npaper.toggle_read = "x"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands["Read"] == "x · paper.toggle_read"
        assert commands["Star"] == "s · paper.star"


def toasts_on_screen(app) -> list[str]:
    """The notifications as the screen shows them, top to bottom, each one's
    text without its whitespace (a long path is folded anywhere)."""
    from textual.widgets._toast import Toast

    compositor = app.screen._compositor
    lines = [strip.text for strip in compositor.render_strips()]
    shown = []
    for toast in sorted(app.screen.query(Toast), key=lambda t: t.region.y):
        try:
            region = toast.content_region.intersection(compositor.find_widget(toast).visible_region)
        except NoWidget:  # wholly off the screen
            continue
        text = "".join(line[region.x : region.right] for line in lines[region.y : region.bottom])
        if squeezed := "".join(text.replace("▌", "").split()):
            shown.append(squeezed)
    return shown


def squeezed(text: str) -> str:
    return "".join(text.split())


async def toasts_at_start(app, size=SIZE) -> list[str]:
    """The notifications on screen once the reader is up (squeezed)."""
    async with app.run_test(size=size, notifications=True) as pilot:
        await ready(pilot)
        await pilot.pause()
        return toasts_on_screen(app)


async def test_an_unknown_binding_id_is_a_message_with_file_and_line(open_app, tmp_path):
    """The message listed all 66 ids and covered most of the screen; that
    list is config --check's."""
    app = open_app('[keymap]\npaper.star = "x"\npaper.stra = "y"\n')
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await ready(pilot)
        await pilot.pause()
        path = tmp_path / "config.toml"
        assert toasts_on_screen(app) == [
            squeezed(
                f"{path}:5: unknown binding id 'paper.stra' — did you mean 'paper.star'?; "
                f"feedtui config --check --config {path} lists every id"
            )
        ]
        assert app.engine.settings.keymap == {"paper.star": "x"}
        assert footer_keys(app)["Star"] == "x"


async def test_many_config_problems_are_the_first_and_a_count_that_names_config_check(open_app, tmp_path):
    """Each problem was a notification of its own, and at 80x24 only the last
    two or three of them were on screen: the first ones were never seen."""
    app = open_app(
        'window_weeks = "16"\ndefault_sort = "alphabetical"\ndate_format = "%Q %Y"\ncache_limt = 5\n'
        '[keymap]\npaper.stra = "y"\n'
    )
    path = tmp_path / "config.toml"
    assert await toasts_at_start(app, (80, 24)) == [
        squeezed(f'{path}:3: general.window_weeks = "16": expected a number, without quotes; using the default'),
        squeezed(f"…and 4 more problems in the config: feedtui config --check --config {path} lists them all"),
    ]


async def test_what_else_start_up_found_is_still_told_beside_the_config_count(open_app, data_dir, tmp_path):
    (data_dir / "state.json").write_text("{not json", encoding="utf-8")
    app = open_app('window_weeks = "16"\ndefault_sort = "alphabetical"\ndate_format = "%Q %Y"\n')
    shown = await toasts_at_start(app)
    assert len(shown) == 3, shown
    assert shown[1].startswith(squeezed("…and 2 more problems in the config:"))
    assert shown[2].startswith(squeezed(f"{data_dir / 'state.json'} was damaged")), shown


async def test_two_config_problems_are_both_shown(open_app, tmp_path):
    app = open_app('window_weeks = "16"\ndefault_sort = "alphabetical"\n')
    path = tmp_path / "config.toml"
    assert await toasts_at_start(app, (80, 24)) == [
        squeezed(f'{path}:3: general.window_weeks = "16": expected a number, without quotes; using the default'),
        squeezed(f"{path}:4: general.default_sort = \"alphabetical\": expected one of 'followed', 'name', 'unread', 'trending'; using the default"),
    ]


async def test_a_clash_is_reported_and_the_app_still_starts(open_app, tmp_path):
    app = open_app('[keymap]\npaper.star = "f"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        messages = [n.message for n in app._notifications]
        assert any(
            m.startswith(f"{tmp_path / 'config.toml'}:4: keymap.paper.star: 'f' is also the key of topic.follow") for m in messages
        ), messages
        assert main.current == "Widgets"


async def press_on_the_first_card(pilot, main, *keys: str) -> list[tuple[bool, bool]]:
    """After each key, whether the list's first card is read and whether it is starred."""
    paper_list = main.query_one(PaperList)
    paper_list.focus()
    paper_id = paper_list.cursor_card.paper_id
    state = pilot.app.engine.state
    after: list[tuple[bool, bool]] = []
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        after.append((state.is_read(paper_id), state.is_starred(paper_id)))
    return after


async def test_a_clashing_remap_is_refused_and_both_bindings_keep_a_key(open_app, tmp_path):
    """paper.toggle_read = "s" was applied though s is Star's: s marked read
    and Star had no key at all."""
    app = open_app('[keymap]\npaper.toggle_read = "s"\n')
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        assert toasts_on_screen(app) == [
            squeezed(
                f"{tmp_path / 'config.toml'}:4: keymap.paper.toggle_read: 's' is also the key of paper.star on the same "
                "screen, so paper.toggle_read keeps its default key 'm'; to give it 's', give paper.star another key "
                "in [keymap] too"
            )
        ]
        shown = footer_keys(app)
        assert (shown["Read"], shown["Star"]) == ("m", "s")
        after = await press_on_the_first_card(pilot, main, "s", "m")
        assert after == [(False, True), (True, True)]  # s stars, m marks read


async def test_two_bindings_swap_keys(open_app):
    app = open_app('[keymap]\npaper.toggle_read = "s"\npaper.star = "m"\n')
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        assert toasts_on_screen(app) == []
        shown = footer_keys(app)
        assert (shown["Read"], shown["Star"]) == ("s", "m")
        after = await press_on_the_first_card(pilot, main, "s", "m")
        assert after == [(True, False), (True, True)]  # s marks read, m stars


async def test_shift_and_a_letter_and_a_letter_outside_ascii_work_as_keys(open_app):
    """shift+x was shown in the footer and never fired (the terminal sends X);
    é was refused as not a single character."""
    app = open_app('[keymap]\npaper.star = "shift+x"\npaper.toggle_read = "é"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert app.engine.problems.messages == []
        shown = footer_keys(app)
        assert (shown["Star"], shown["Read"]) == ("X", "é")
        after = await press_on_the_first_card(pilot, main, "X", "é")
        assert after == [(False, True), (True, True)]


async def test_a_remap_onto_the_command_palettes_key_is_reported_and_the_palette_keeps_it(open_app, tmp_path):
    """app.help = "ctrl+p" was taken silently: ctrl+p opened the help and
    the palette had no key left."""
    app = open_app('[keymap]\napp.help = "ctrl+p"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.engine.problems.messages == [
            f"{tmp_path / 'config.toml'}:4: keymap.app.help: 'ctrl+p' is Textual's key for the command palette, "
            "on every screen, so app.help keeps its default key 'question_mark'; give app.help another key"
        ]
        assert footer_keys(app)["Help"] == "?"
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_a_remap_of_detail_back_without_q_is_told_at_start(open_app, tmp_path):
    """detail.back = "x" made q in the detail view quit the app, unannounced."""
    from feedtui.ui.screens.detail import DetailScreen

    app = open_app('[keymap]\ndetail.back = "x"\n')
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        assert toasts_on_screen(app) == [
            squeezed(
                f"{tmp_path / 'config.toml'}:4: keymap.detail.back: in the detail view, 'q' now does app.quit instead "
                "of detail.back (an entry replaces every default key of its binding); to keep it, write "
                'detail.back = "x,escape,q,backspace"'
            )
        ]
        main.query_one(PaperList).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.press("x")
        await pilot.pause()
        assert app.screen is main  # the remap itself still applies


# -- themes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keymap", "help_key", "quit_key", "footer"),
    [
        ("", "question_mark", "q", "esc Skip ? Help q Quit"),
        ('[keymap]\napp.help = "f1"\napp.quit = "ctrl+q"\n', "f1", "ctrl+q", "esc Skip f1 Help ^q Quit"),
    ],
)
async def test_the_welcome_screen_opens_the_help_and_quits_with_the_apps_keys(
    tmp_path, keymap, help_key, quit_key, footer
):
    """The welcome said "? lists every key", but ? and q did nothing there:
    Textual drops the App's bindings on a modal screen."""
    from feedtui.ui.screens.welcome import WelcomeScreen

    from tests.ui.test_app import bottom_line

    path = tmp_path / "config.toml"
    path.write_text(keymap, encoding="utf-8")
    engine = Engine(load_config(path), tmp_path / "fresh")
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WelcomeScreen) and bottom_line(app))
        assert isinstance(app.screen, WelcomeScreen)
        intro = " ".join(line.strip() for line in lines_of(app.screen.query_one("#welcome-intro")))
        assert f"{key_label(help_key)} lists every key" in intro
        assert bottom_line(app) == footer
        if help_key != "question_mark":
            await pilot.press("question_mark", "q")  # the defaults, remapped away, do nothing
            await pilot.pause()
            assert isinstance(app.screen, WelcomeScreen) and app.return_code is None
        await pilot.press(help_key)
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.press(quit_key)
        await pilot.pause()
        assert app.return_code == 0
    engine.close()


async def test_the_config_theme_is_used(open_app):
    app = open_app('theme = "nord"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.theme == "nord"


async def test_an_unknown_theme_is_a_message_and_the_default_is_used(open_app, tmp_path):
    app = open_app('theme = "solarised-ish"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.theme == "textual-dark"
        messages = [n.message for n in app._notifications]
        assert any(
            m.startswith(f'{tmp_path / "config.toml"}:3: general.theme = "solarised-ish": expected one of ') for m in messages
        ), messages


async def test_the_sidebar_is_redrawn_in_a_theme_picked_while_running(open_app):
    """Its rows kept the old theme's colours (cached strips) until they changed."""
    from textual.geometry import Region

    from feedtui.ui.widgets.topic_list import TopicList

    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)

        def background():
            """The colour most of the sidebar is drawn on."""
            from collections import Counter

            strips = topic_list.render_lines(Region(0, 0, topic_list.size.width, topic_list.size.height))
            cells = Counter()
            for strip in strips:
                for segment in strip:
                    if segment.style and segment.style.bgcolor:
                        cells[segment.style.bgcolor] += len(segment.text)
            return cells.most_common(1)[0][0]

        dark = background()
        app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        assert background() != dark


@pytest.mark.parametrize("theme", ["textual-light", "textual-dark"])
async def test_muted_sidebar_parts_are_muted_not_white(open_app, theme):
    """Sparklines and the dot of a zero count were drawn pure white in every
    theme (a translucent colour taken without its blend): invisible on light ones."""
    from rich.color import Color
    from textual.geometry import Region

    from feedtui.ui.widgets.topic_list import TopicList

    app = open_app(f'theme = "{theme}"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        topic_list = main.query_one(TopicList)
        strips = topic_list.render_lines(Region(0, 0, topic_list.size.width, topic_list.size.height))
        dots = [segment.style for strip in strips[2:] for segment in strip if segment.text.strip() == "·"]
        assert dots, "no topic with a zero count on screen"
        for style in dots:
            assert style.color not in (None, Color.parse("#ffffff"), style.bgcolor), (theme, style)


@pytest.mark.parametrize("folder", ["Downloads", "Pictures", None])
async def test_the_palettes_screenshot_is_saved_and_says_where(open_app, tmp_path, monkeypatch, folder):
    """It failed with no reason given where ~/Downloads does not exist, then
    landed in the current directory (a git checkout); its path was broken
    mid-word in the notification. It is saved in Downloads, else Pictures,
    else the data directory's screenshots/, and the path is said in lines
    broken after a "/"."""
    from textual.command import CommandList, CommandPalette

    from feedtui.ui.screenshot import toast_text_width

    here = tmp_path / "here"
    here.mkdir()
    for name in ("Downloads", "Pictures"):
        if name == folder:
            (tmp_path / name).mkdir()
        monkeypatch.setattr(f"platformdirs.user_{name.lower()}_path", lambda name=name: tmp_path / name)
    monkeypatch.chdir(here)
    app = open_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        main = await ready(pilot)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"Screenshot")
        hits = app.screen.query_one(CommandList)
        await until(pilot, lambda: hits.highlighted is not None and "Screenshot" in str(hits.get_option_at_index(hits.highlighted).prompt))
        await pilot.press("enter")
        await until(pilot, lambda: any("creenshot" in message for message in notifications(app)))
        said = notifications(app)
        where = tmp_path / folder if folder else main.engine.data_dir / "screenshots"
        saved = list(where.glob("*.svg"))
        assert len(saved) == 1 and "<svg" in saved[0].read_text(encoding="utf-8")
        assert not list(here.iterdir())
        assert len(said) == 1 and said[0].startswith("Screenshot saved to\n"), said
        lines = said[0].splitlines()[1:]
        assert "".join(lines) == str(saved[0]).replace(str(Path.home()), "~", 1) if str(saved[0]).startswith(str(Path.home())) else str(saved[0])
        assert all(len(line) <= toast_text_width(80) for line in lines), lines
        assert all(line.endswith("/") for line in lines[:-1]) and lines[-1] == saved[0].name
        from textual.geometry import Region
        from textual.widgets._toast import Toast

        def shown_lines() -> list[str]:
            return [
                strip.text.strip(" ▌")
                for toast in app.screen.query(Toast)
                for strip in toast.render_lines(Region(0, 0, *toast.outer_size))
            ]

        await until(pilot, lambda: "Screenshot saved to" in shown_lines(), or_go_on=True)
        shown = shown_lines()
        assert saved[0].name in shown, shown  # the file name whole, on a line of its own


async def test_a_theme_picked_in_the_palette_is_remembered_across_restarts(open_app):
    app = open_app('theme = "nord"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"theme")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        await pilot.press(*"gruvbox")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.theme == "gruvbox"
    app.engine.close()

    again = open_app('theme = "nord"\n')
    async with again.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert again.theme == "gruvbox"
        again.theme = "textual-light"
        await pilot.pause()
    again.engine.close()

    third = open_app('theme = "nord"\n')
    async with third.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert third.theme == "textual-light"
    third.engine.close()

    # Changing the config's theme afterwards wins over the remembered pick.
    changed = open_app('theme = "dracula"\n')
    async with changed.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert changed.theme == "dracula"


async def theme_at_start(open_app, config_text: str = "") -> str:
    """The theme a reader started with this config text shows."""
    app = open_app(config_text)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        theme = app.theme
    app.engine.close()
    return theme


async def test_writing_the_default_theme_into_the_config_overrides_a_pick(open_app):
    """With no theme line, a theme picked in the app is kept; writing
    `theme = "textual-dark"` (the default) in afterwards is a change too."""
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        app.theme = "gruvbox"
        await pilot.pause()
    app.engine.close()
    assert await theme_at_start(open_app) == "gruvbox"
    assert await theme_at_start(open_app, 'theme = "textual-dark"\n') == "textual-dark"


@pytest.mark.parametrize(("theme_line", "shown"), [("", "gruvbox"), ('theme = "textual-dark"\n', "textual-dark")])
async def test_a_pick_stored_by_the_older_rule_is_kept_only_while_there_is_no_theme_line(open_app, theme_line, shown):
    """Before 15b6c05 a pick stored the default's name whether or not the
    config had a theme line: it is kept without one, and a line overrides it."""
    first = open_app()
    first.engine.state.set_pref("theme", "gruvbox")
    first.engine.state.set_pref("theme_config", "textual-dark")
    first.engine.state.flush()
    first.engine.close()
    assert await theme_at_start(open_app, theme_line) == shown


# -- the other [general] settings reach the app ----------------------------------------


async def test_date_format_is_used_on_cards(open_app):
    app = open_app('date_format = "%Y-%m-%d"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        text = "\n".join(lines_of(main.query_one(PaperList)))
        assert "2026-11-25 · cs.DC" in text
        assert "Nov 25, 2026" not in text


async def test_date_format_is_used_in_the_detail_view_too(make_engine):
    """The cards followed date_format, the detail view of the same paper kept
    "Nov 25, 2026" (and "updated Nov 26, 2026")."""
    from tests.factories import make_paper
    from tests.ui.test_app import detail_text, open_detail

    paper = make_paper(
        "2611.00001", title="Widget sorting", abstract="A widget paper.",
        published="2026-11-25T10:00:00", updated="2026-11-26T09:00:00",
    )
    engine = make_engine(papers=[paper])
    engine.settings.date_format = "%Y-%m-%d (%a)"
    app = FeedtuiApp(engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert "2026-11-25 (Wed) · cs.DC" in "\n".join(lines_of(main.query_one(PaperList)))
        text = detail_text(await open_detail(pilot, main))
        assert "2026-11-25 (Wed) · cs.DC · 2611.00001v1 · updated 2026-11-26 (Thu)" in text
        assert "Nov" not in text


@pytest.mark.parametrize("marks", [True, False])
async def test_open_marks_read(open_app, marks):
    from feedtui.ui.screens.detail import DetailScreen

    app = open_app(f"open_marks_read = {'true' if marks else 'false'}\n")
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DetailScreen)
        assert app.engine.state.is_read("2611.00001") is marks


@pytest.mark.parametrize(("sort", "first"), [("unread", "Gadgets"), ("name", None)])
async def test_default_sort_orders_the_sidebar(open_app, sort, first):
    from feedtui.ui.widgets.topic_list import TopicList

    app = open_app(f'default_sort = "{sort}"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        assert main.sidebar.sort == sort
        ids = main.query_one(TopicList).names()
        unfollowed = ids[ids.index("::Topics") + 1 :]
        if first:
            assert unfollowed[0] == first  # the only unfollowed topic with unread papers
        else:
            assert unfollowed == sorted(unfollowed, key=str.casefold)


def write_recorder(tmp_path: Path) -> tuple[str, Path]:
    """A stand-in browser: a real program that writes its arguments to a file."""
    import sys

    out = tmp_path / "browser-args.txt"
    script = tmp_path / "browser.py"
    script.write_text(f"import sys\nopen({str(out)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n", encoding="utf-8")
    return f"{sys.executable} {script}", out


def wait_for(path: Path) -> list[str]:
    import time

    for _ in range(200):
        if path.exists() and path.read_text():
            return path.read_text().split("\n")
        time.sleep(0.02)
    raise AssertionError(f"{path} was never written")


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{command} --new-tab {{url}}", ["--new-tab", "https://arxiv.org/abs/2611.00001v1"]),
        ("{command} --new-tab %s", ["--new-tab", "https://arxiv.org/abs/2611.00001v1"]),
        ("{command} --new-window", ["--new-window", "https://arxiv.org/abs/2611.00001v1"]),
    ],
)
async def test_the_browser_command_gets_the_link(open_app, tmp_path, monkeypatch, template, expected):
    monkeypatch.delenv("BROWSER", raising=False)
    command, out = write_recorder(tmp_path)
    app = open_app(f"browser = {template.format(command=command)!r}\n".replace("'", '"'))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("o")
        assert wait_for(out) == expected


async def test_an_empty_browser_setting_uses_the_browser_variable(open_app, tmp_path, monkeypatch):
    command, out = write_recorder(tmp_path)
    monkeypatch.setenv("BROWSER", f"{command} --from-env %s")
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("o")
        assert wait_for(out) == ["--from-env", "https://arxiv.org/abs/2611.00001v1"]


async def test_the_browser_variable_may_list_commands_and_the_first_that_starts_opens(open_app, tmp_path, monkeypatch):
    """Python's convention: $BROWSER is a `:`-separated list, tried in order.
    It was run as one command, `no-such-browser:…`, which never started."""
    import os

    command, out = write_recorder(tmp_path)
    monkeypatch.setenv("BROWSER", f"no-such-browser-here %s{os.pathsep}{command} --from-list %s")
    app = open_app()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("o")
        assert wait_for(out) == ["--from-list", "https://arxiv.org/abs/2611.00001v1"]
        await pilot.pause()
        assert "Opened https://arxiv.org/abs/2611.00001v1" in [n.message for n in app._notifications]


@pytest.fixture
def arxiv_server(httpserver):
    from tests.atom import Entry, api_feed

    feed = api_feed([Entry("2611.09999", title="A fresh widget", summary="New widget results.", published="2026-11-26T09:00:00Z")])
    httpserver.expect_request("/api/query").respond_with_data(feed, content_type="application/atom+xml")
    return httpserver


def arxiv_config(server) -> str:
    return f'[arxiv]\napi_url = "{server.url_for("/api/query")}"\nmin_interval = 0.01\n'


async def settle(pilot, app, *, fetched: bool = True) -> None:
    """Until the refresh at start has stored its paper; not `fetched`, given
    the same time for one that should not come."""
    main = app.main_screen
    await until(
        pilot,
        lambda: not main.refresher.refreshing and app.engine.library.row_of("2611.09999") is not None,
        tries=60,
        step=0.05,
        or_go_on=not fetched,
    )


@pytest.mark.parametrize(
    ("general", "last_refresh_hours_ago", "fetched"),
    [
        ("auto_refresh = true", None, True),  # never refreshed
        ("auto_refresh = false", None, False),
        ("auto_refresh = true\nrefresh_age_hours = 6", 1, False),  # fresh enough
        ("auto_refresh = true\nrefresh_age_hours = 0.5", 1, True),
    ],
)
async def test_auto_refresh_and_refresh_age(open_app, data_dir, arxiv_server, general, last_refresh_hours_ago, fetched):
    from datetime import timedelta

    app = open_app(arxiv_config(arxiv_server), general=general)
    if last_refresh_hours_ago is not None:
        app.engine.note_refreshed(app.engine.followed(), NOW - timedelta(hours=last_refresh_hours_ago))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await settle(pilot, app, fetched=fetched)
        assert (len(arxiv_server.log) > 0) is fetched
        assert (app.engine.library.row_of("2611.09999") is not None) is fetched


async def test_a_topic_followed_since_the_last_refresh_is_fetched_at_start_and_only_it(open_app, httpserver):
    """One "last refreshed" for all topics made every followed topic fresh once
    any of them was refreshed: a topic followed after that (or refreshed alone
    with r) waited up to refresh_age_hours for its first papers."""
    from datetime import timedelta

    from feedtui.model import TopicDefinition
    from tests.atom import Entry, api_feed

    for path, paper_id in (("/alpha.xml", "2611.08881"), ("/beta.xml", "2611.08882")):
        feed = api_feed([Entry(paper_id, title=f"Paper {paper_id}", published="2026-11-26T09:00:00Z")])
        httpserver.expect_request(path).respond_with_data(feed, content_type="application/atom+xml")
    app = open_app(arxiv_config(httpserver), general="auto_refresh = true\nrefresh_age_hours = 6")
    engine = app.engine
    engine.add_topic("Alpha", TopicDefinition(feeds=(httpserver.url_for("/alpha.xml"),)))
    engine.add_topic("Beta", TopicDefinition(feeds=(httpserver.url_for("/beta.xml"),)))
    engine.follow("Alpha")
    engine.note_refreshed(engine.followed(), NOW - timedelta(hours=1))
    engine.state.set_pref("last_refresh", (NOW - timedelta(hours=1)).isoformat(timespec="seconds"))
    engine.follow("Beta")  # since then, never fetched
    assert engine.stale_followed() == ["Beta"]
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await until(pilot, lambda: not main.refresher.busy and engine.library.row_of("2611.08882") is not None, step=0.05)
        assert [request.path for request, _ in httpserver.log] == ["/beta.xml"]
        assert engine.library.row_of("2611.08882") is not None
        assert engine.stale_followed() == []


async def test_a_refresh_that_reached_the_result_cap_says_so(open_app, arxiv_server):
    """What the reader must act on (raise arxiv.max_results) is shown; how a
    feed was read (not well-formed, read leniently) is only the CLI's note."""
    app = open_app(arxiv_config(arxiv_server) + "max_results = 1\n")
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await pilot.press("r")
        await refresh_over(pilot, main, 5.0)
        warnings = [n.message for n in app._notifications if n.severity == "warning"]
        assert any("stopped at 1 results (arxiv.max_results)" in m for m in warnings), warnings
        # One paper came: said in the singular ("1 new papers" before).
        status = str(main.query_one(StatusLine).query_one("#status-text").render())
        assert "1 new paper" in status and "new papers" not in status, status


async def refresh_asked_of(pilot, main, topic: str, httpserver) -> None:
    """`r` on `topic`, and wait until its source was asked and the refresh is over."""
    main.go_to_topic(topic)
    await pilot.pause()
    await pilot.press("r")
    await until(pilot, lambda: httpserver.log and not main.refresher.busy, tries=300, step=0.05)
    await pilot.pause()


async def test_a_refresh_whose_only_source_fails_says_so_once_and_not_offline(open_app, httpserver):
    """A 404 from a server that is up showed an "offline" badge, and "1 source
    failed" twice on the same line."""
    httpserver.expect_request("/missing.xml").respond_with_data("gone", status=404)
    url = httpserver.url_for("/missing.xml")
    app = open_app(f'[[topic]]\nname = "Missing"\nfeeds = ["{url}"]\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await refresh_asked_of(pilot, main, "Missing", httpserver)
        status = str(main.query_one(StatusLine).query_one("#status-text").render())
        assert "refresh failed" in status and "offline" not in status, status
        assert status.count("1 topic not refreshed") == 1, status


async def test_a_failed_refresh_is_no_longer_said_once_another_feedtui_refreshed(open_app, httpserver):
    """After the reader's refresh failed and cron's `feedtui refresh` then
    fetched, the line said both: "refresh failed · 1 source failed ·
    refreshed Wed 02:35 · … · new papers from another feedtui"."""
    answers = ["gone"]
    httpserver.expect_request("/flaky.xml").respond_with_handler(
        lambda request: Response("gone", status=404) if answers else Response(rss("cron", ["Found by cron"]), content_type="application/rss+xml")
    )
    url = httpserver.url_for("/flaky.xml")
    app = open_app(f'[[topic]]\nname = "Flaky"\nfeeds = ["{url}"]\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        status = main.query_one(StatusLine).query_one("#status-text")
        await refresh_asked_of(pilot, main, "Flaky", httpserver)
        assert lines_of(status)[0].strip().startswith("refresh failed")
        answers.clear()
        cron = Engine(main.engine.config, main.engine.data_dir, background_writes=False)
        assert (await cron.refresh(["Flaky"])).new_papers == 1
        cron.close()
        await until(pilot, lambda: main.engine.state.pref("last_refresh") is not None, step=0.1)
        main.refresher.check_cache_elsewhere()
        # The check reloads the library in a worker, and the state file's
        # change comes as a message of its own: either can land first.
        await until(
            pilot,
            lambda: "new papers from another feedtui" in lines_of(status)[0] and lines_of(status)[0].strip().startswith("refreshed "),
            tries=300,
            step=0.05,
            or_go_on=True,
        )
        parts = [part.strip() for part in lines_of(status)[0].split("·")]
        assert parts[0].startswith("refreshed ") and "refresh failed" not in parts, parts


async def test_the_parts_of_the_status_line_are_set_apart_alike(open_app, httpserver):
    """After a failed refresh the line ran together ("refresh failed  1 source
    failed  never refreshed  ·  5 papers cached"): its parts are now all set
    apart by the same dot, as its other parts were."""
    httpserver.expect_request("/missing.xml").respond_with_data("gone", status=404)
    url = httpserver.url_for("/missing.xml")
    app = open_app(f'[[topic]]\nname = "Missing"\nfeeds = ["{url}"]\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        status = main.query_one(StatusLine).query_one("#status-text")
        # The config's new topic is tagged in the background first ("tagging 1 topic…").
        await until(pilot, lambda: [part.strip() for part in lines_of(status)[0].split("·")] == ["never refreshed", "5 papers cached"])
        await refresh_asked_of(pilot, main, "Missing", httpserver)
        parts = [part.strip() for part in lines_of(status)[0].split("·")]
        assert parts == ["refresh failed", "1 topic not refreshed", "never refreshed", "5 papers cached"], parts


async def test_an_open_app_refreshes_the_followed_topics_once_they_are_due(open_app, data_dir, arxiv_server, monkeypatch):
    from datetime import timedelta

    from feedtui.ui.screens.main_parts.refresh import Refresher

    monkeypatch.setattr(Refresher, "AUTO_REFRESH_CHECK_S", 0.05)
    monkeypatch.setattr(Refresher, "AUTO_REFRESH_RETRY_S", 0.0)
    app = open_app(arxiv_config(arxiv_server), general="auto_refresh = true\nrefresh_age_hours = 6")
    app.engine.note_refreshed(app.engine.followed(), NOW - timedelta(hours=1))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.pause(0.3)
        assert not arxiv_server.log  # fresh at start, and while it stays fresh
        app.engine.note_refreshed(app.engine.followed(), NOW - timedelta(hours=7))
        await settle(pilot, app)
        assert arxiv_server.log
        assert app.engine.library.row_of("2611.09999") is not None


async def test_after_an_automatic_refresh_the_next_waits_its_turn(open_app, arxiv_server, monkeypatch):
    import time
    from datetime import timedelta

    from feedtui.ui.screens.main_parts.refresh import Refresher

    monkeypatch.setattr(Refresher, "AUTO_REFRESH_CHECK_S", 0.05)
    app = open_app(arxiv_config(arxiv_server), general="auto_refresh = true\nrefresh_age_hours = 6")
    app.engine.note_refreshed(app.engine.followed(), NOW - timedelta(hours=1))
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.refresher.auto_refreshed_at = time.monotonic()  # an attempt just now, which changed nothing
        app.engine.note_refreshed(app.engine.followed(), NOW - timedelta(hours=7))
        await pilot.pause(0.4)
        assert not arxiv_server.log


def open_on_a_feed(open_app, httpserver, status: int):
    """The app following one topic, a feed that answers with `status`, and
    `now`: a list holding the engine's clock, to move it."""
    from feedtui.model import TopicDefinition
    from tests.atom import Entry, api_feed

    feed = api_feed([Entry("2611.08881", title="A feed paper", published="2026-11-26T09:00:00Z")])
    httpserver.expect_request("/feed.xml").respond_with_data(feed, status=status, content_type="application/atom+xml")
    app = open_app(general="auto_refresh = true\nrefresh_age_hours = 0.25")
    engine = app.engine
    engine.add_topic("Feed", TopicDefinition(feeds=(httpserver.url_for("/feed.xml"),)))
    engine.unfollow("Widgets")
    engine.follow("Feed")
    now = [NOW]
    engine.clock = lambda: now[0]
    return app, now


async def test_after_an_automatic_refresh_that_worked_the_next_comes_when_the_topics_are_due(open_app, httpserver):
    """Every automatic refresh held the next one back for AUTO_REFRESH_RETRY_S
    (30 minutes), though only one that reached no source should: with
    refresh_age_hours = 0.25 the open app refreshed every 30 minutes at best."""
    from datetime import timedelta

    app, now = open_on_a_feed(open_app, httpserver, 200)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await until(pilot, lambda: httpserver.log and not main.refresher.busy, tries=150, step=0.05)  # the start's refresh
        assert len(httpserver.log) == 1  # never refreshed: at start
        assert app.engine.stale_followed() == []
        now[0] += timedelta(minutes=20)
        main.refresher.when_stale()  # the check made every AUTO_REFRESH_CHECK_S
        await refresh_over(pilot, main)
        assert len(httpserver.log) == 2
        assert app.engine.stale_followed() == []


async def test_after_an_automatic_refresh_that_reached_no_source_the_next_waits(open_app, httpserver):
    from datetime import timedelta

    app, now = open_on_a_feed(open_app, httpserver, 404)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await until(pilot, lambda: httpserver.log and not main.refresher.busy, tries=150, step=0.05)  # the start's refresh
        assert len(httpserver.log) == 1 and main.refresher.refresh_failed
        now[0] += timedelta(minutes=20)
        main.refresher.when_stale()
        await refresh_over(pilot, main)
        assert len(httpserver.log) == 1


def held_arxiv(httpserver):
    """An arXiv API that answers only once `answer` is set; `queries` lists what it was asked."""
    import threading

    from werkzeug import Response

    from tests.atom import Entry, api_feed

    answer = threading.Event()
    queries: list[str] = []
    feed = api_feed([Entry("2611.09999", title="A fresh widget", summary="New widget results.", published="2026-11-26T09:00:00Z")])

    def slow(request):
        queries.append(request.args.get("search_query", ""))
        answer.wait(5)
        return Response(feed, content_type="application/atom+xml")

    httpserver.expect_request("/api/query").respond_with_handler(slow)
    return answer, queries


async def test_following_a_topic_during_a_refresh_refreshes_it_after_that_one_instead_of_cancelling_it(open_app, httpserver):
    from feedtui.core.fetch import answered_key

    answer, queries = held_arxiv(httpserver)
    app = open_app(arxiv_config(httpserver), general="auto_refresh = true")  # never refreshed: refreshes at start
    engine = app.engine
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        for _ in range(100):
            if main.refresher.refreshing and queries:
                break
            await pilot.pause(0.02)
        assert main.refresher.refreshing and any("widget" in q for q in queries)
        main.show_topic("Gadgets")
        await pilot.press("f")  # while the start-up refresh waits for its answer
        await pilot.pause(0.1)
        answer.set()
        await until(pilot, lambda: not main.refresher.refreshing and engine.fetch_state.answered_at(answered_key(engine.topic("Gadgets"))), tries=150, step=0.05)
        assert engine.fetch_state.answered_at(answered_key(engine.topic("Widgets"))) is not None  # not cancelled
        assert engine.fetch_state.answered_at(answered_key(engine.topic("Gadgets"))) is not None  # then this one
        assert any("gadget" in q for q in queries)


async def test_a_topic_followed_then_removed_during_a_refresh_is_not_refreshed_after_it(open_app, httpserver):
    answer, queries = held_arxiv(httpserver)
    app = open_app(arxiv_config(httpserver), general="auto_refresh = true")
    engine = app.engine
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await until(pilot, lambda: main.refresher.refreshing and queries, tries=150, step=0.05)
        main.show_topic("Gadgets")
        await pilot.press("f")
        await pilot.pause(0.1)
        engine.remove_topic("Gadgets")  # what D does
        answer.set()
        await until(pilot, lambda: not main.refresher.refreshing and not main.refresher.queued, tries=150, step=0.05)
        await pilot.pause(0.3)
        assert app.is_running and not main.refresher.refreshing
        assert not any("gadget" in q for q in queries)


async def test_two_topics_followed_in_one_turn_are_both_refreshed(open_app, httpserver):
    from feedtui.core.fetch import answered_key

    answer, queries = held_arxiv(httpserver)
    answer.set()
    app = open_app(arxiv_config(httpserver))
    engine = app.engine
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        engine.follow("Gadgets")
        main.refresh_soon(["Gadgets"])
        main.refresh_soon(["Widgets"])  # before the first refresh's worker has run
        await until(pilot, lambda: all(engine.fetch_state.answered_at(answered_key(engine.topic(n))) for n in ("Gadgets", "Widgets")), tries=150, step=0.05)
        assert engine.fetch_state.answered_at(answered_key(engine.topic("Gadgets"))) is not None
        assert engine.fetch_state.answered_at(answered_key(engine.topic("Widgets"))) is not None


async def test_d_on_a_config_file_topic_says_where_it_is_defined_without_asking(open_app, tmp_path):
    app = open_app('[[topic]]\nname = "Configured"\nquery = "abs:widget"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.show_topic("Configured")
        await pilot.press("D")
        await pilot.pause()
        assert app.screen is main  # no question asked
        assert "Configured" in app.engine.registry
        messages = [n.message for n in app._notifications]
        assert f"Configured is defined in {tmp_path / 'config.toml'}: remove its [[topic]] table there" in messages
        # E changes it here, and says the file's table is overridden from now on.
        await pilot.press("E")
        await pilot.pause()
        app.screen.query_one("#topic-query").value = "abs:gadget"
        await pilot.press("enter")
        await pilot.pause()
        assert app.engine.topic("Configured").topic.definition.query == "abs:gadget"
        messages = [n.message for n in app._notifications]
        assert (
            f"Configured is defined in {tmp_path / 'config.toml'} too: this edit overrides its [[topic]] table there "
            "(feedtui topic rm 'Configured' drops the copy)"
        ) in messages


# -- styles follow the theme ---------------------------------------------------------------

NAMED_COLOURS = r"red|green|blue|yellow|white|black|grey\d*|gray\d*|magenta|cyan|orange|purple|pink|bright_\w+"


def test_the_stylesheets_use_only_theme_variables():
    import re

    from feedtui.ui.styles import screen_sheets, stylesheets

    colour = re.compile(rf"#[0-9a-fA-F]{{3,8}}\b|\b(rgb|rgba|hsl|hsla)\(|:\s*[^;$]*\b({NAMED_COLOURS})\b")
    assert screen_sheets()  # the dialogs' sheets are checked too
    for sheet in [*stylesheets(), *screen_sheets()]:
        for number, line in enumerate(sheet.read_text().splitlines(), start=1):
            code = line.split("/*")[0]
            if ":" in code and not code.strip().endswith("{"):
                assert not colour.search(code), f"{sheet.name}:{number}: a fixed colour: {line.strip()}"


def test_the_ui_code_sets_no_fixed_colours():
    import re
    from pathlib import Path

    import feedtui.ui

    fixed = re.compile(rf"""(style|color|bgcolor)\s*=\s*f?["'][^"']*\b({NAMED_COLOURS}|#[0-9a-fA-F]{{3,6}})\b""")
    for source in Path(feedtui.ui.__file__).parent.rglob("*.py"):
        for number, line in enumerate(source.read_text().splitlines(), start=1):
            assert not fixed.search(line), f"{source.name}:{number}: a fixed colour: {line.strip()}"


async def test_an_app_key_may_take_a_key_only_a_dialog_uses(open_app):
    """y is the confirm dialog's Yes; the App's keys do not run on a dialog,
    so app.undo = "y" clashes with nothing. It was refused as a clash."""
    app = open_app('[keymap]\napp.undo = "y"\n')
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        main = await ready(pilot)
        await pilot.pause()
        assert toasts_on_screen(app) == []
        after = await press_on_the_first_card(pilot, main, "m", "y")
        assert after == [(True, False), (False, False)]  # y undoes the m
