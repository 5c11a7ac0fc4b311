"""The [keymap] section: binding id = "keys". Only its shape is checked
here; whether the ids and key names are ones the reader knows is checked by
the reader itself (`feedtui.ui.keymap_check`), which has Textual at hand."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from feedtui.config.locate import Locator
from feedtui.config.result import Config, ConfigProblem
from feedtui.config.wording import show_value


def apply_keymap(config: Config, values: Any, where: Locator) -> None:
    """[keymap] binding-id = "keys". Dotted ids may be written unquoted
    (`paper.star = "x"` is the table paper = {star = "x"} in TOML): both work."""
    path = config.path or Path("config.toml")
    if not isinstance(values, dict):
        config.problems.append(ConfigProblem(path, where.header("keymap"), '[keymap] must be a table of binding-id = "keys"'))
        return
    for binding_id, keys in _flatten(values):
        line = where.key("keymap", binding_id)
        config.lines[f"keymap.{binding_id}"] = line
        problem = _keys_problem(keys)
        if problem:
            config.problems.append(ConfigProblem(path, line, f"keymap.{binding_id} = {show_value(keys)}: expected {problem}; keeping its default keys"))
            continue
        config.settings.keymap[binding_id] = ",".join(k.strip() for k in keys.split(","))


def _flatten(values: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, name + ".")
        else:
            yield name, value


def _keys_problem(keys: Any) -> str:
    """Shape only (the key names themselves are checked by `check_ui_settings`)."""
    expected = 'keys like "x", "ctrl+x" or "x,ctrl+x" (a comma between alternatives)'
    if not isinstance(keys, str) or not keys.strip():
        return expected
    for key in (k.strip() for k in keys.split(",")):
        if not key or any(c.isspace() for c in key) or any(unicodedata.category(c) == "Cc" for c in key):
            return expected
    return ""
