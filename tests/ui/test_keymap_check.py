"""The config checks that need the reader (`feedtui.ui.keymap_check`): the
theme's name, and [keymap]'s binding ids, key names and clashes."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from textual.app import App

from feedtui.config import Config, load_config
from feedtui.ui.keymap_check import check_ui_settings, key_name

from tests.test_config import clean_environment, messages, write  # noqa: F401 (clean_environment: an autouse fixture)


SCOPES = {
    "main": [("paper.star", "s"), ("paper.toggle_read", "m"), ("topic.follow", "f"), ("app.quit", "q")],
    # As keymap_scopes lists them: the App's first, the binding Textual gives a key to last.
    "detail": [("app.quit", "q"), ("detail.back", "escape,q")],
}


def ui_check(tmp_path, text: str, themes=("textual-dark", "nord")) -> tuple[Path, Config, list[str]]:
    path = write(tmp_path, text)
    config = load_config(path)
    assert config.problems == []
    problems = check_ui_settings(config, themes=set(themes), scopes=SCOPES)
    assert [str(p) for p in problems] == messages(config)
    return path, config, [str(p) for p in problems]


def test_an_unknown_binding_id_is_named_with_the_ids(tmp_path):
    path, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "x"\npaper.stra = "y"\n')
    assert problems == [
        f"{path}:3: unknown binding id 'paper.stra' — did you mean 'paper.star'?; ids: "
        "app.quit, detail.back, paper.star, paper.toggle_read, topic.follow"
    ]
    assert config.settings.keymap == {"paper.star": "x"}


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ("ctlr+x", "'ctlr' is not a modifier (modifiers: ctrl, shift, alt, meta, super, hyper)"),
        ("esc", "'esc' is not a key name"),
        ("x,pgdown", "'pgdown' is not a key name"),
    ],
)
def test_a_key_name_textual_does_not_know_keeps_the_default(tmp_path, keys, expected):
    path, config, problems = ui_check(tmp_path, f'[keymap]\npaper.star = "{keys}"\n')
    assert len(problems) == 1
    assert problems[0].startswith(f'{path}:2: keymap.paper.star = "{keys}": {expected}')
    assert problems[0].endswith("; keeping its default keys")
    assert config.settings.keymap == {}


@pytest.mark.parametrize("keys", ["x", "X", "?", "question_mark", "ctrl+x", "shift+tab", "f5", "escape", "space", "pagedown", "x,ctrl+shift+up"])
def test_key_names_textual_knows_are_accepted(tmp_path, keys):
    _, config, problems = ui_check(tmp_path, f'[keymap]\npaper.star = "{keys}"\n')
    assert problems == []
    assert config.settings.keymap == {"paper.star": keys}


@pytest.mark.parametrize(
    ("keys", "sent_as"),
    [("ctrl+m", "enter"), ("ctrl+i", "tab"), ("ctrl+[", "escape"), ("x,ctrl+h", "backspace"), ("ctrl+M", "enter")],
)
def test_a_key_the_terminal_sends_as_another_is_refused_naming_that_key(tmp_path, keys, sent_as):
    """ctrl+m was accepted and shown in the footer, and pressing it was enter."""
    path, config, problems = ui_check(tmp_path, f'[keymap]\npaper.star = "{keys}"\n')
    key = keys.split(",")[-1]
    assert problems == [
        f'{path}:2: keymap.paper.star = "{keys}": most terminals send {key} as {sent_as}, so a binding on {key} '
        f"never fires; use {sent_as} or another key; keeping its default keys"
    ]
    assert config.settings.keymap == {}


@pytest.mark.parametrize(("keys", "as_sent"), [("shift+x", "X"), ("shift+X", "X"), ("y,shift+é", "y,É"), ("alt+?", "alt+question_mark")])
def test_shift_and_a_letter_is_the_capital_the_terminal_sends(tmp_path, keys, as_sent):
    """shift+x was kept as written: Textual names that key X, so it never fired."""
    _, config, problems = ui_check(tmp_path, f'[keymap]\npaper.star = "{keys}"\n')
    assert problems == []
    assert config.settings.keymap == {"paper.star": as_sent}


def test_shift_and_a_letter_clashes_with_the_capital(tmp_path):
    """paper.star = "shift+s" was no clash with topics.sort's S, and S sorted."""
    path = write(tmp_path, '[keymap]\npaper.star = "shift+s"\n')
    config = load_config(path)
    scopes = {"the paper list": [("paper.star", "s"), ("topics.sort", "S")]}
    problems = [str(p) for p in check_ui_settings(config, themes={"textual-dark"}, scopes=scopes)]
    assert problems == [
        f"{path}:2: keymap.paper.star: 'S' is also the key of topics.sort on the same screen, "
        "so paper.star keeps its default key 's'; to give it 'S', give topics.sort another key in [keymap] too"
    ]
    assert config.settings.keymap == {}


def test_shift_and_a_character_that_is_not_a_letter_is_refused(tmp_path):
    path, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "shift+1"\n')
    assert problems == [
        f'{path}:2: keymap.paper.star = "shift+1": a terminal sends shift+1 as the character it types '
        "(! for shift+1, on most keyboards): write that character; keeping its default keys"
    ]


@pytest.mark.parametrize("key", ["é", "ü", "Ö", "ß", "€"])
def test_a_single_character_outside_ascii_is_a_key(tmp_path, key):
    """é was refused as "not a key name (a single character like x…)"."""
    _, config, problems = ui_check(tmp_path, f'[keymap]\npaper.star = "{key}"\n')
    assert problems == []
    assert config.settings.keymap == {"paper.star": key}


def test_an_invisible_character_is_named_by_its_code_point(tmp_path):
    path, _, problems = ui_check(tmp_path, '[keymap]\npaper.star = "\\u200b"\n')
    assert problems == [
        f'{path}:2: keymap.paper.star = "\u200b": U+200B is an invisible character, not one a key types; '
        "keeping its default keys"
    ]


def test_a_key_textual_binds_on_every_screen_is_refused(tmp_path):
    """app.help = "ctrl+p" took the command palette's key without a word."""
    path, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "x,ctrl+p"\npaper.toggle_read = "ctrl+q"\n')
    assert problems == [
        f"{path}:2: keymap.paper.star: 'ctrl+p' is Textual's key for the command palette, on every screen, "
        "so paper.star keeps its default key 's'; give paper.star another key",
        f"{path}:3: keymap.paper.toggle_read: 'ctrl+q' is Textual's key for quitting, on every screen, which comes "
        "before feedtui's keys, so paper.toggle_read keeps its default key 'm'; give paper.toggle_read another key",
    ]
    assert config.settings.keymap == {}


@pytest.mark.parametrize("keymap", ['app.quit = "ctrl+q,x"', 'paper.star = "ctrl+c"', 'app.quit = "ctrl+c"'])
def test_quit_may_have_ctrl_q_and_any_binding_ctrl_c(tmp_path, keymap):
    """Textual's ctrl+q runs the app's quit; its ctrl+c only says how to quit."""
    _, _, problems = ui_check(tmp_path, f"[keymap]\n{keymap}\n")
    assert problems == []


def test_a_remapped_key_that_another_binding_holds_is_a_clash_and_not_applied(tmp_path):
    """It was applied anyway, and topic.follow was left with no key."""
    path, config, problems = ui_check(tmp_path, '[keymap]\n\npaper.star = "f"\n')
    assert problems == [
        f"{path}:3: keymap.paper.star: 'f' is also the key of topic.follow on the same screen, "
        "so paper.star keeps its default key 's'; to give it 'f', give topic.follow another key in [keymap] too"
    ]
    assert config.settings.keymap == {}
    # Moving the other binding away as well resolves it.
    _, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "f"\ntopic.follow = "F"\n')
    assert problems == []
    assert config.settings.keymap == {"paper.star": "f", "topic.follow": "F"}


def test_two_bindings_may_swap_keys(tmp_path):
    _, config, problems = ui_check(tmp_path, '[keymap]\npaper.toggle_read = "s"\npaper.star = "m"\n')
    assert problems == []
    assert config.settings.keymap == {"paper.toggle_read": "s", "paper.star": "m"}


def test_of_two_remaps_onto_one_key_the_first_in_the_file_has_it(tmp_path):
    path, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "x"\npaper.toggle_read = "y,x"\n')
    assert problems == [
        f"{path}:3: keymap.paper.toggle_read: 'x' is also the key of paper.star on the same screen, "
        "so paper.toggle_read keeps its default key 'm'; to give it 'x', give paper.star another key in [keymap] too"
    ]
    assert config.settings.keymap == {"paper.star": "x"}


def test_a_remap_refused_takes_back_its_default_key_from_a_later_remap(tmp_path):
    """paper.toggle_read = "s" was free only while paper.star moved to f,
    which is refused: s is paper.star's again."""
    path, config, problems = ui_check(tmp_path, '[keymap]\npaper.star = "f"\npaper.toggle_read = "s"\n')
    assert [p.split(": ", 2)[1] for p in problems] == ["keymap.paper.star", "keymap.paper.toggle_read"]
    assert "'s' is also the key of paper.star on the same screen" in problems[1]
    assert config.settings.keymap == {}


def test_default_keys_shared_by_design_are_not_clashes(tmp_path):
    _, _, problems = ui_check(tmp_path, '[keymap]\npaper.star = "x"\n')
    assert problems == []  # q is both app.quit and detail.back on the detail view, as shipped


def test_a_remap_that_leaves_a_default_key_to_another_binding_says_so(tmp_path):
    """detail.back = "h" took q from Back without a word, and q in the detail
    view quit the app."""
    path, config, problems = ui_check(tmp_path, '[keymap]\ndetail.back = "h"\n')
    assert problems == [
        f"{path}:2: keymap.detail.back: in detail, 'q' now does app.quit instead of detail.back "
        '(an entry replaces every default key of its binding); to keep it, write detail.back = "h,escape,q"'
    ]
    assert config.settings.keymap == {"detail.back": "h"}  # applied all the same


@pytest.mark.parametrize("keymap", ['detail.back = "h,q"', 'detail.back = "h"\napp.quit = "q"', 'detail.back = "h"\napp.quit = "x"'])
def test_a_remap_that_keeps_the_shared_key_or_moves_the_other_binding_says_nothing(tmp_path, keymap):
    _, _, problems = ui_check(tmp_path, f"[keymap]\n{keymap}\n")
    assert problems == []


def test_an_unknown_theme_is_named_and_the_default_used(tmp_path):
    path, config, problems = ui_check(tmp_path, '[general]\n\ntheme = "solarised"\n')
    assert problems == [f'{path}:3: general.theme = "solarised": expected one of nord, textual-dark; using textual-dark']
    assert config.settings.theme == "textual-dark"


def test_a_known_theme_passes(tmp_path):
    _, config, problems = ui_check(tmp_path, '[general]\ntheme = "nord"\n')
    assert problems == []
    assert config.settings.theme == "nord"


async def test_the_key_names_are_those_of_the_keys_textual_sees():
    """For every printable ASCII character, the key event Textual makes when
    the key typing it is pressed carries the name `key_name` gives it: the
    names the check gives keys are the ones bindings are matched against."""
    characters = [c for c in string.printable if c.isprintable() and c != " "]
    seen: list[str] = []

    class Keys(App):
        def on_key(self, event) -> None:
            seen.append(event.key)

    async with Keys().run_test() as pilot:
        for character in characters:
            await pilot.press(character)
        await pilot.pause()
    assert seen == [key_name(c) for c in characters]
    assert "question_mark" in seen and "comma" in seen
    assert key_name(" ") == "space" and key_name("\t") == "tab" and key_name("é") == "é"
