#!/usr/bin/env python3
"""Regenerate the key table and the configuration reference from the code.

    python scripts/readme_tables.py            rewrite the tables in docs/
    python scripts/readme_tables.py --check    exit 1 if one is out of date

The key table (docs/keys.md) comes from the bindings the app defines, with
their ids for [keymap]; the configuration reference (docs/configuration.md)
from `feedtui.config.OPTIONS`. Each sits in its page between
`<!-- begin NAME -->` and `<!-- end NAME -->`; the text around it is written
by hand.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from feedtui.config import OPTIONS, default_value, toml_value  # noqa: E402
from feedtui.ui.bindings import all_bindings  # noqa: E402
from feedtui.ui.keymap import key_labels  # noqa: E402
from feedtui.ui.screens.help import grouped  # noqa: E402


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
    for section in dict.fromkeys(o.section for o in OPTIONS):
        lines += [f"`[{section}]`", "", "| Key | Default | Meaning |", "| --- | --- | --- |"]
        for option in (o for o in OPTIONS if o.section == section):
            default = toml_value(default_value(option))
            lines.append(f"| `{option.key}` | `{default}` | {option.doc} |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


# page (relative to the repository) -> the blocks generated in it
PAGES: dict[str, dict[str, Callable[[], str]]] = {
    "docs/keys.md": {"keys": keys_table},
    "docs/configuration.md": {"config": config_table},
}


def replace_block(text: str, name: str, body: str, page: str) -> str:
    """`text` with the block `name` holding `body`; SystemExit if it has none."""
    pattern = re.compile(rf"(<!-- begin {name} -->\n)(?:.*?\n)?(<!-- end {name} -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"{page} has no <!-- begin {name} --> … <!-- end {name} --> block")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def updated(page: str, text: str) -> str:
    """`text`, the content of `page`, with its generated tables in their current form."""
    for name, make in PAGES[page].items():
        text = replace_block(text, name, make(), page)
    return text


def write_pages(pages, fresh_text, *, check: bool, command: str) -> int:
    """Rewrite each page whose generated blocks are out of date (`fresh_text(page,
    current)`), or with `check` only say which are; 1 when `check` found one."""
    stale = []
    for page in pages:
        path = ROOT / page
        current = path.read_text(encoding="utf-8")
        fresh = fresh_text(page, current)
        if fresh == current:
            continue
        stale.append(page)
        if not check:
            path.write_text(fresh, encoding="utf-8")
            print(f"{page} updated", file=sys.stderr)
    if check and stale:
        print(f"out of date: {', '.join(stale)}; run {command}", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is out of date")
    args = parser.parse_args()
    return write_pages(PAGES, updated, check=args.check, command="python scripts/readme_tables.py")


if __name__ == "__main__":
    raise SystemExit(main())
