"""The `feedtui` command: the reader by default, and subcommands for scripts.

Global options (--data-dir, --config, --demo) go before or after the
subcommand. The parts, by job: `parser` (the command line), `dispatch` (from
arguments to a handler, and how it ends), `status` (exit codes and what is
said after a save), `progress` (refresh's progress line), `listing` (JSON),
and `commands/` (the handlers, grouped by what they work on).

`main`, `build_parser` and `json_text` are named here too, for the callers
that import them from `feedtui.cli`.
"""

from feedtui.cli.dispatch import main
from feedtui.cli.listing import json_text
from feedtui.cli.parser import build_parser

__all__ = ["build_parser", "json_text", "main"]
