"""Where zero-width joiners may stand in sanitised text (the hostile-text
checks of the parser and of the screen share this)."""

from __future__ import annotations

JOINERS = "\u200c\u200d"  # ZWNJ and ZWJ: kept by the sanitiser between two characters they can join


def stray_joiners(value: str) -> list[int]:
    """Where ZWNJ/ZWJ sit other than alone between two non-ASCII, non-space characters."""

    def joinable(char: str) -> bool:
        return not char.isascii() and not char.isspace() and char not in JOINERS

    return [
        i for i, char in enumerate(value)
        if char in JOINERS and not (0 < i < len(value) - 1 and joinable(value[i - 1]) and joinable(value[i + 1]))
    ]
