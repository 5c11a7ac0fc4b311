"""The [commands] section: NAME = ["program", "argument", "{placeholder}", …].

Each command is an argument list, never a shell string: a string is refused
(a shell would read a title's quotes and semicolons). A command with a
problem is left out, and said with its line. Its binding id is
`command.NAME`, which [keymap] gives a key (see ui/user_commands.py).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from feedtui.config.locate import Locator
from feedtui.config.result import Config, ConfigProblem
from feedtui.config.wording import show_value
from feedtui.text.argv_template import template_problem

# Names a binding id can end in, and a key the help and the palette can show.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
EXAMPLE = '["papis", "add", "--from", "arxiv", "{id}"]'


def apply_commands(config: Config, values: Any, where: Locator) -> None:
    path = config.path or Path("config.toml")
    if not isinstance(values, dict):
        config.problems.append(
            ConfigProblem(path, where.header("commands"), f"[commands] must be a table of NAME = {EXAMPLE}")
        )
        return
    for name, argv in values.items():
        line = where.key("commands", name)
        config.lines[f"commands.{name}"] = line
        problem = _command_problem(name, argv)
        if problem:
            config.problems.append(ConfigProblem(path, line, f"commands.{name}: {problem}; the command is left out"))
            continue
        config.settings.commands[name] = tuple(argv)


def _command_problem(name: str, argv: Any) -> str:
    if not _NAME.match(name):
        return "a command's name is letters, digits, '-' and '_' (at most 40): it becomes the binding id command.NAME"
    if isinstance(argv, str):
        return (
            f"{show_value(argv)} is a string; a command is a list of arguments like {EXAMPLE} "
            "(no shell reads it, so quoting and pipes have no meaning)"
        )
    if not isinstance(argv, list) or not all(isinstance(item, str) for item in argv):
        return f"expected a list of strings like {EXAMPLE}"
    if any(unicodedata.category(c) == "Cc" for item in argv for c in item):
        return "an argument holds a control character"
    return template_problem(argv)
