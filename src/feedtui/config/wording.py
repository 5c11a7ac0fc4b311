"""How messages about the config quote what the user wrote: values as TOML
writes them (never a raw control character), and a close match for a
misspelt name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        # Control characters as TOML writes them (\u001b): a message quoting
        # a value never sends the terminal an escape sequence.
        return '"' + _TOML_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped) + '"'
    return repr(value)


_TOML_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def show_value(value: Any) -> str:
    """A value as written in TOML, shortened: messages quote what the user wrote."""
    if isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, str):
        shown = toml_value(value)
    elif isinstance(value, dict):
        shown = "{…}"
    elif isinstance(value, list):
        shown = "[…]"
    else:
        shown = str(value)
    return shown if len(shown) <= 60 else shown[:57] + "…"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib  # only when a key is misspelt

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""
