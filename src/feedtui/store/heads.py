"""A week's abstract heads, found in the file's bytes as cards ask for them.

A heads file (`cache/heads/<week>.json`) holds the head of every abstract of
its week, a few MB; a screen of cards needs a dozen of them. Parsing the
whole file would hold every head as a string (several times the file's
size, as text outside Latin-1 takes two or four bytes a character) and
orjson's working buffer, about ten times the file, while it parses. So the
file is mapped, not read, and each head is decoded when first asked for;
the pages a lookup read are dropped from the process after it (they stay
in the system's file cache). A screen of Ask's answers shows papers of
many weeks: held as read, their files would stay in memory, a MB each.

The file is compact JSON written by orjson (`{"heads":{"ID":"…",…}}`): a
head starts right after `"ID":` following a `{` or `,`, never inside a
string, where every quote is escaped. A file whose bytes are not what
feedtui wrote is checked in full at start-up (see store.cache), so a head
that cannot be found or decoded here is simply missing ("").
"""

from __future__ import annotations

import json
import mmap
import re
from pathlib import Path

import orjson

from feedtui.memory import drop_mapped_pages

__all__ = ["WeekHeads"]

_BACKSLASH = 0x5C
# Heads looked up by searching the file before its heads' starts are indexed.
SEARCHES_BEFORE_INDEX = 8
# An id as JSON (group 1) and the quote opening its head: a `,` then a quote
# is never inside a string, where quotes are escaped. The first head (after
# a `{`) and ids with escapes are not indexed: they are searched for.
_HEAD_START = re.compile(rb',("[^"\\]*"):"')


class WeekHeads:
    """The heads of one week's papers, by paper id."""

    __slots__ = ("_raw", "_found", "_starts")
    # How a value starts after its `"ID":` (a head is a string), and the
    # pattern of an id (group 1) with its value's first byte.
    OPENER = b'"'
    STARTS = _HEAD_START

    def __init__(self, raw: bytes | mmap.mmap) -> None:
        self._raw = raw
        self._found: dict[str, str] = {}
        # Where each head starts, once enough were asked for that one pass
        # over the file costs less than searching it for each.
        self._starts: dict[bytes, int] | None = None

    @classmethod
    def of_file(cls, path: Path) -> WeekHeads:
        """The heads of a file, mapped read-only (the store replaces a heads
        file whole, never rewrites it in place, so a mapping stays valid).
        Raises FileNotFoundError."""
        with open(path, "rb") as file:
            try:
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file cannot be mapped
                return cls(b"")
        return cls(mapped)

    def get(self, paper_id: str, default: str = "") -> str:
        head = self._found.get(paper_id)
        if head is None:
            try:
                head = self._found[paper_id] = self._decode(self._start(orjson.dumps(paper_id)))
            finally:
                self._let_go()
        return head or default

    def _let_go(self) -> None:
        """Drop the mapped pages a lookup read: a search reads the file up to
        the head, and the kernel maps pages around each one read."""
        if isinstance(self._raw, mmap.mmap):
            drop_mapped_pages(self._raw)

    def _start(self, key: bytes) -> int:
        """Where the head of the paper whose id is `key` (as JSON) starts: its opening `OPENER`, or -1."""
        raw = self._raw
        if self._starts is None and len(self._found) >= SEARCHES_BEFORE_INDEX:
            self._starts = {match[1]: match.end() - 1 for match in self.STARTS.finditer(raw)}
        if self._starts is not None and (start := self._starts.get(key)) is not None:
            return start
        key += b":" + self.OPENER
        at = raw.find(key)
        while at > 0 and raw[at - 1] not in b"{,":
            at = raw.find(key, at + 1)
        return at + len(key) - 1 if at > 0 else -1

    def _decode(self, start: int) -> str:
        raw = self._raw
        if start < 0:
            return ""
        end = raw.find(b'"', start + 1)
        while end > 0:
            escapes = 0
            while raw[end - 1 - escapes] == _BACKSLASH:
                escapes += 1
            if escapes % 2 == 0:
                break
            end = raw.find(b'"', end + 1)
        if end < 0:
            return ""
        try:
            head = json.loads(raw[start : end + 1])
        except ValueError:  # not JSON, or not UTF-8
            return ""
        return head if isinstance(head, str) else ""
