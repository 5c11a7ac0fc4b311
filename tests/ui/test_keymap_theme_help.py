"""Keys remapped from the config file, themes chosen and remembered, and `?`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets._footer import FooterKey

from feedtui.config import load_config
from feedtui.engine import Engine
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.help import GROUPS, HelpScreen, all_bindings, binding_sources, key_label, key_labels
from feedtui.ui.widgets.paper_list import PaperList

from tests.ui.conftest import NOW
from tests.ui.test_app import SIZE, lines_of, ready


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

    def start(config_text: str = "") -> FeedtuiApp:
        path = tmp_path / "config.toml"
        path.write_text("[general]\nauto_refresh = false\n" + config_text, encoding="utf-8")
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
    """What the footer shows: description -> key."""
    shown: dict[str, str] = {}
    for footer_key in app.screen.query(FooterKey):
        shown[footer_key.description] = footer_key.key_display
    return shown


def help_lines(app) -> list[str]:
    return lines_of(app.screen.query_one("#help-body"))


# -- every binding has an id --------------------------------------------------------


def test_every_binding_has_a_unique_id_and_a_description():
    ids: list[str] = []
    for source, bindings in binding_sources().items():
        assert bindings, source
        for binding in bindings:
            assert isinstance(binding, Binding), (source, binding)
            assert binding.id and "." in binding.id, (source, binding)
            assert binding.description, binding.id
            ids.append(binding.id)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert {i.split(".")[0] for i in ids} <= set(GROUPS)


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
        assert shown["Follow"] == "^y"
        assert shown["Star"] == "s"
        active = {key: b.binding.id for key, b in app.screen.active_bindings.items()}
        assert active["x"] == "paper.toggle_read"
        assert active["F"] == active["ctrl+y"] == "topic.follow"
        assert "m" not in active and "f" not in active


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


async def test_the_command_palette_shows_the_remapped_key(open_app):
    app = open_app('[keymap]\npaper.toggle_read = "x"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands["Read"] == "x · paper.toggle_read"
        assert commands["Star"] == "s · paper.star"


async def test_an_unknown_binding_id_is_a_message_with_file_and_line(open_app, tmp_path):
    app = open_app('[keymap]\npaper.star = "x"\npaper.stra = "y"\n')
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        messages = [n.message for n in app._notifications]
        wanted = f"{tmp_path / 'config.toml'}:5: unknown binding id 'paper.stra' — did you mean 'paper.star'?; ids: "
        assert any(m.startswith(wanted) for m in messages), messages
        assert app.engine.settings.keymap == {"paper.star": "x"}
        assert footer_keys(app)["Star"] == "x"


async def test_a_clash_is_reported_and_the_app_still_starts(open_app, tmp_path):
    app = open_app('[keymap]\npaper.star = "f"\n')
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        messages = [n.message for n in app._notifications]
        assert any(
            m.startswith(f"{tmp_path / 'config.toml'}:4: keymap.paper.star: 'f' is also the key of topic.follow") for m in messages
        ), messages
        assert main.current == "Widgets"


# -- themes ---------------------------------------------------------------------------


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
