#!/usr/bin/env python3
"""Regenerate the README's key table and configuration reference from the code.

    python scripts/readme_tables.py            rewrite the tables in README.md
    python scripts/readme_tables.py --check    exit 1 if README.md is out of date

The key table comes from the bindings the app defines (with their ids, for
[keymap]); the configuration reference from `feedtui.config.OPTIONS`. Each
sits in README.md between `<!-- begin NAME -->` and `<!-- end NAME -->`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from feedtui.config import OPTIONS, toml_value, default_value  # noqa: E402
from feedtui.ui.bindings import all_bindings  # noqa: E402
from feedtui.ui.keymap import key_labels  # noqa: E402
from feedtui.ui.screens.help import grouped  # noqa: E402

README = ROOT / "README.md"


def keys_table() -> str:
    lines: list[str] = []
    for title, bindings in grouped(all_bindings()):
        lines += [f"**{title}**", "", "| Keys | Does | Id |", "| --- | --- | --- |"]
        for binding in bindings:
            keys = " ".join(f"`{label}`" for label in key_labels(binding.key))
            lines.append(f"| {keys} | {binding.tooltip or binding.description} | `{binding.id}` |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def config_table() -> str:
    lines: list[str] = []
    for section in ("general", "arxiv", "fetch"):
        lines += [f"`[{section}]`", "", "| Key | Default | Meaning |", "| --- | --- | --- |"]
        for option in (o for o in OPTIONS if o.section == section):
            default = toml_value(default_value(option))
            lines.append(f"| `{option.key}` | `{default}` | {option.doc} |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


TABLES = {"keys": keys_table, "config": config_table}


def updated(text: str) -> str:
    """`text` with every generated table replaced by its current form."""
    for name, make in TABLES.items():
        pattern = re.compile(rf"(<!-- begin {name} -->\n)(?:.*?\n)?(<!-- end {name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"README.md has no <!-- begin {name} --> … <!-- end {name} --> block")
        text = pattern.sub(lambda m: m.group(1) + make() + "\n" + m.group(2), text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md is out of date")
    args = parser.parse_args()
    current = README.read_text(encoding="utf-8")
    fresh = updated(current)
    if args.check:
        if fresh != current:
            print("README.md is out of date: run python scripts/readme_tables.py", file=sys.stderr)
            return 1
        return 0
    if fresh != current:
        README.write_text(fresh, encoding="utf-8")
        print("README.md updated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
