"""The README stays true to the code: tables, commands, examples, files."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
from pathlib import Path

import pytest

from feedtui.cli import build_parser, main
from feedtui.config import OPTIONS, load_config
from feedtui.ui.keymap_check import check_ui_settings

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def readme_tables():
    spec = importlib.util.spec_from_file_location("readme_tables", ROOT / "scripts" / "readme_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_tables_are_up_to_date():
    assert readme_tables().updated(README) == README, "README.md is out of date: run python scripts/readme_tables.py"


def test_every_binding_id_and_every_config_key_is_in_the_readme():
    from feedtui.ui.bindings import all_bindings

    for binding in all_bindings():
        assert f"`{binding.id}`" in README, binding.id
    config_part = README[README.index("<!-- begin config -->") : README.index("<!-- end config -->")]
    for option in OPTIONS:
        assert f"| `{option.key}` |" in config_part, option.name


def test_the_two_set_up_commands():
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/feedtui --demo" in README
    assert "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q" in README


def test_the_screenshot_is_an_svg_of_the_demo():
    assert "](docs/screenshot.svg)" in README
    svg = (ROOT / "docs" / "screenshot.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg")
    text = svg.replace("&#160;", " ")
    assert "feedtui --demo" in text
    assert "Latest papers" in text


def test_linked_documents_exist():
    for target in ("docs/queries.md", "bench/README.md", "scripts/screenshot.py", "scripts/readme_tables.py"):
        assert target in README
        assert (ROOT / target).is_file(), target


def feedtui_commands() -> list[list[str]]:
    """Every `feedtui …` invocation in the README's shell and console blocks."""
    commands: list[list[str]] = []
    for block in blocks("sh") + blocks("console"):
        for line in block.splitlines():
            line = line.removeprefix("$ ").split("  #")[0].strip()
            if "feedtui" not in line or line.startswith(("[", "{", '"', "●")):
                continue
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            segment: list[str] = []
            for token in [*lexer, "|"]:
                if token in ("|", "&&", ">", "<"):
                    if segment and segment[0] in ("feedtui", ".venv/bin/feedtui"):
                        commands.append(segment[1:])
                    segment = [] if token != ">" else ["(redirect)"]
                else:
                    segment.append(token)
    return commands


def test_every_command_in_the_readme_parses():
    commands = feedtui_commands()
    assert len(commands) >= 15
    parser = build_parser()
    for argv in commands:
        try:
            parser.parse_args(argv)
        except SystemExit as exit_:
            pytest.fail(f"feedtui {shlex.join(argv)}: exits {exit_.code}")


def test_the_toml_examples_load_without_a_problem(tmp_path):
    from textual.theme import BUILTIN_THEMES

    from feedtui.ui.bindings import keymap_scopes

    examples = blocks("toml")
    assert len(examples) >= 2
    for number, example in enumerate(examples):
        path = tmp_path / f"example-{number}.toml"
        path.write_text(example, encoding="utf-8")
        config = load_config(path)
        check_ui_settings(config, themes=BUILTIN_THEMES, scopes=keymap_scopes())
        assert config.problems == [], [str(p) for p in config.problems]


def test_the_themes_named_are_textual_themes():
    from textual.theme import BUILTIN_THEMES

    themes_part = README[README.index("**Themes.**") : README.index("**Keymap.**")]
    named = re.findall(r"`([a-z-]+)`", themes_part)
    assert len(named) >= 6
    assert set(named) - {"theme"} <= set(BUILTIN_THEMES)


def test_the_papers_json_example_has_the_real_fields(tmp_path, capsys):
    example = next(b for b in blocks("console") if "papers \"Heterogeneous Computing\" --json --limit 1" in b)
    documented = json.loads(example[example.index("[") :])
    assert main(["--demo", "--data-dir", str(tmp_path), "papers", "Heterogeneous Computing", "--json", "--limit", "1"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert len(documented) == len(real) == 1
    assert list(documented[0]) == list(real[0])
    assert {k: type(v) for k, v in documented[0].items()} == {k: type(v) for k, v in real[0].items()}
