"""Where each card of the list starts, for a list of any length.

Every card is the same height but the few that are expanded; the list finds
the card under a line, and the line a card starts on, by arithmetic over
those few, so scrolling and painting cost the same at 10 or 10,000 cards.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right


class CardHeights:
    """Line offsets of cards: all `base` lines tall except a few taller ones.

    Expanded cards are kept as sorted indices with their extra lines and the
    running total of extras before each, so `top` and `locate` are binary
    searches over the (few) expanded cards, never a walk over all cards.
    """

    def __init__(self, base: int) -> None:
        self.base = base
        self._indices: list[int] = []
        self._extras: list[int] = []
        self._extras_before: list[int] = [0]
        self._starts: list[int] = []
        self._extra_of: dict[int, int] = {}

    def set_extras(self, extras: dict[int, int]) -> None:
        self._extra_of = {index: extra for index, extra in extras.items() if extra > 0}
        self._indices = sorted(self._extra_of)
        self._extras = [self._extra_of[index] for index in self._indices]
        self._extras_before = [0]
        for extra in self._extras:
            self._extras_before.append(self._extras_before[-1] + extra)
        self._starts = [index * self.base + before for index, before in zip(self._indices, self._extras_before)]

    def top(self, index: int) -> int:
        return index * self.base + self._extras_before[bisect_left(self._indices, index)]

    def height(self, index: int) -> int:
        return self.base + self._extra_of.get(index, 0)

    def total(self, count: int) -> int:
        return self.top(count)

    def locate(self, y: int) -> tuple[int, int]:
        """The card holding line `y`, and the line within that card."""
        k = bisect_right(self._starts, y) - 1
        if k < 0:
            return divmod(y, self.base)
        start = self._starts[k]
        end = start + self.base + self._extras[k]
        if y < end:
            return self._indices[k], y - start
        index, row = divmod(y - end, self.base)
        return self._indices[k] + 1 + index, row
