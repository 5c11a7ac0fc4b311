"""Finding the line of a key in the file, for messages that say where."""

from __future__ import annotations

import re


class Locator:
    """Finds the line where a key or a table header is written in the file."""

    def __init__(self, text: str) -> None:
        self.keys: dict[str, int] = {}  # full dotted path -> line
        self.headers: dict[str, int] = {}
        self.arrays: dict[str, list[int]] = {}
        current = ""
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            header = re.match(r"^(\[\[?)\s*([^\]]+?)\s*\]", stripped)
            if header:
                current = _unquote_dotted(header.group(2))
                self.headers.setdefault(current, number)
                if header.group(1) == "[[":
                    # Keys of the n-th [[topic]] are found under "topic#n".
                    self.arrays.setdefault(current, []).append(number)
                    current = f"{current}#{len(self.arrays[current])}"
                    self.headers[current] = number
                continue
            key = re.match(r"""^("[^"]*"|'[^']*'|[A-Za-z0-9_.\- ]+?)\s*=""", stripped)
            if key:
                name = _unquote_dotted(key.group(1))
                self.keys.setdefault(f"{current}.{name}" if current else name, number)

    def key(self, section: str, key: str) -> int | None:
        """The line of `key` in [section], however the path was split between
        header and key; else the section's header."""
        found = self.keys.get(f"{section}.{key}")
        return found if found is not None else self.header(section)

    def header(self, section: str) -> int | None:
        found = self.headers.get(section)
        if found is None:
            found = self.keys.get(section)
        if found is None:
            found = next((n for path, n in self.keys.items() if path.startswith(section + ".")), None)
        return found


def _unquote_dotted(name: str) -> str:
    """`"paper.star"`, `paper.star` and `'paper'.star` all name the key paper.star."""
    parts = re.findall(r"""("[^"]*"|'[^']*'|[^.\s]+)""", name)
    return ".".join(part.strip("\"'") for part in parts)
