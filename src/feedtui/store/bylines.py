"""A paper's bylines (its card's authors and affiliations), read from its week's card index as cards ask.

The reader loads every card row at start-up, but lean (`PaperCache.load_index(lean=True)`):
without the two bylines, which are a third of a row's memory and which only
the cards on screen show. A card asks for its paper's here: the week's index
file (`cache/index/<week>.json`) is mapped, the paper's row found in its
bytes as an abstract head is in a heads file (store.heads), and decoded
alone. Files are replaced whole by a store, never rewritten in place, so a
mapping stays what it was when mapped; a week's file is mapped again once it
was replaced (its size, time or inode changed), which also finds papers that
another process stored there since.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import orjson

from feedtui.store.codec import CardRow
from feedtui.store.files import file_signature
from feedtui.store.heads import WeekHeads

__all__ = ["Bylines", "WeekBylines"]

_AUTHORS = CardRow._fields.index("authors")
_AFFILIATIONS = CardRow._fields.index("affiliations")
# Bytes of a row decoded at first; a longer row is read again with more.
_ROW_BYTES = 2048
_DECODER = json.JSONDecoder()
_NONE = ("", "")
# Weeks kept mapped at once (their pages are dropped after each lookup).
WEEKS_KEPT = 12


class WeekBylines(WeekHeads):
    """The bylines of one week's papers, by paper id, from its index file."""

    __slots__ = ()
    OPENER = b"["
    STARTS = re.compile(rb',("[^"\\]*"):\[')

    def bylines(self, paper_id: str) -> tuple[str, str]:
        """(authors, affiliations) as the paper's card row holds them; ("", "") when not found."""
        found = self._found.get(paper_id)
        if found is None:
            try:
                found = self._found[paper_id] = self._row(self._start(orjson.dumps(paper_id)))  # type: ignore[assignment]
            finally:
                self._let_go()
        return found  # type: ignore[return-value]

    def _row(self, start: int) -> tuple[str, str]:
        """The bylines of the row whose `[` is at `start`: the bytes from there
        decoded as text (a character cut at the end lies past the row) and
        the row parsed off their front."""
        if start < 0:
            return _NONE
        raw, size = self._raw, _ROW_BYTES
        while True:
            text = raw[start : start + size].decode("utf-8", errors="replace")
            try:
                row, _ = _DECODER.raw_decode(text)
            except ValueError:
                if start + size >= len(raw):
                    return _NONE
                size *= 8
                continue
            break
        if not isinstance(row, list) or len(row) != len(CardRow._fields):
            return _NONE
        authors, affiliations = row[_AUTHORS], row[_AFFILIATIONS]
        return (authors, affiliations) if isinstance(authors, str) and isinstance(affiliations, str) else _NONE


class Bylines:
    """The bylines of every week's papers, a few weeks' files mapped at a time."""

    def __init__(self, index_file: Callable[[str], Path]) -> None:
        self._index_file = index_file
        self._weeks: OrderedDict[str, tuple[object, WeekBylines]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, shard: str, paper_id: str) -> tuple[str, str]:
        """(authors, affiliations) of a paper of this week, ("", "") when its row is not there."""
        path = self._index_file(shard)
        signature = file_signature(path)
        with self._lock:
            kept = self._weeks.get(shard)
            if kept is not None and kept[0] == signature:
                self._weeks.move_to_end(shard)
                week = kept[1]
            else:
                try:
                    week = WeekBylines.of_file(path)  # type: ignore[assignment]
                except FileNotFoundError:
                    return _NONE
                self._weeks[shard] = (signature, week)
                while len(self._weeks) > WEEKS_KEPT:
                    self._weeks.popitem(last=False)
            return week.bylines(paper_id)
