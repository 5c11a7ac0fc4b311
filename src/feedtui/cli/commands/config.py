"""`feedtui config --check`: every problem the app would find in a config file."""

from __future__ import annotations

import sys

from feedtui.cli.status import EXIT_FAILED, EXIT_OK
from feedtui.config import load_config


def check_config(path, named_by: str = "") -> int:
    """Everything the app would say about the file, including the theme and
    keymap checks. `named_by`: --config or $FEEDTUI_CONFIG named the file, so
    its absence is a problem (a typo), not a first run."""
    from textual.theme import BUILTIN_THEMES

    from feedtui.config import in_file_order
    from feedtui.ui.bindings import keymap_scopes
    from feedtui.ui.keymap_check import check_ui_settings
    from feedtui.ui.user_commands import command_bindings

    if named_by and not path.exists():
        print(f"{path}: no config file there ({named_by} names it)", file=sys.stderr)
        return EXIT_FAILED
    if not path.exists():
        print(f"{path}: no config file; feedtui uses the defaults (feedtui config --default writes a commented one)")
        return EXIT_OK
    config = load_config(path)
    commands = command_bindings(config.settings.commands, {})
    check_ui_settings(config, themes=BUILTIN_THEMES, scopes=keymap_scopes(commands))
    for problem in in_file_order(config.problems):
        print(problem, file=sys.stderr)
    if config.problems:
        return EXIT_FAILED
    print(f"{path}: no problems")
    return EXIT_OK
