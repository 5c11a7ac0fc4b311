"""One paper's stored document, found in its week file without parsing the
rest of the file: what Ask needs to quote a few papers' whole abstracts
(parsing the week files whole would hold every paper of those weeks).

The week files are compact JSON (`{"papers":{"ID":{...},...}}`): a paper's
document starts right after `"ID":` following a `{` or `,`, never inside a
string (a quote inside a string is escaped). The file is scanned a block at
a time; only the document found is decoded. None when the file is missing,
the paper is not in it, or what follows is not a JSON object.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

_BLOCK = 1 << 16
# The longest document looked for past its start before giving up.
_LONGEST = 1 << 22
_decoder = json.JSONDecoder()


def read_document(path: Path, paper_id: str) -> dict | None:
    key = json.dumps(paper_id, ensure_ascii=False).encode() + b":{"
    keep = len(key) + 1
    try:
        with path.open("rb") as file, _reading:
            # One buffer, read into again and again: blocks allocated anew
            # would leave the heap grown by the size of a week file.
            buffer = _buffer()
            view = memoryview(buffer)
            filled = 0
            while True:
                read = file.readinto(view[filled:])
                if not read:
                    return None
                filled += read
                at = _find(buffer, key, filled)
                if at >= 0:
                    return _decode(file, bytes(view[at + len(key) - 1 : filled]))
                view[:keep] = view[filled - keep : filled] if filled >= keep else view[:keep]
                filled = min(filled, keep)
    except OSError:
        return None


_reading = threading.Lock()
_held: list[bytearray] = []


def _buffer() -> bytearray:
    if not _held:
        _held.append(bytearray(_BLOCK))
    return _held[0]


def _find(data: bytearray, key: bytes, end: int) -> int:
    at = data.find(key, 0, end)
    while at >= 0:
        if at > 0 and data[at - 1] in b"{,":
            return at
        at = data.find(key, at + 1, end)
    return -1


def _decode(file, data: bytes) -> dict | None:
    """The JSON object at the start of `data`, read on from `file` as far as it needs."""
    while True:
        try:
            text = data.decode("utf-8", errors="strict")
        except UnicodeDecodeError as error:
            text = data[: error.start].decode("utf-8") if error.start > len(data) - 4 else None
            if text is None:
                return None
        try:
            document, _ = _decoder.raw_decode(text)
        except json.JSONDecodeError:
            more = file.read(_BLOCK)
            if not more or len(data) > _LONGEST:
                return None
            data += more
            continue
        return document if isinstance(document, dict) else None
