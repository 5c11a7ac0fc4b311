"""Match files: each week's papers as topic queries read them, for retagging.

    cache/match/2026-09-28.json   {"match": {paper id: row}, "of": {"papers": {"sig": …, "version": …}}}

A row holds what tagging reads of a paper, already normalised (see
`feedtui.topics.tagging.MatchRows`): retagging the whole cache after a topic is
added reads these instead of the full documents, about 40% of the bytes and
none of the text normalisation.

A match file is derived data and checks itself: it records the size and mtime
of the papers file it was made from (not the inode, so a copy that keeps
times is still trusted, as for the card index) and the version of the row
format. When either differs — the papers file was rewritten without it, a
crash came between the two writes, the format changed — the file is ignored
and the week is tagged from its documents, so a stale match file can cost
time but never a wrong tag. For the same reason it is written without fsync
(`atomic_write(sync=False)`): after a power loss it may be old (an old stamp),
missing, empty or cut short (it does not parse), never current and wrong; and
it is written after its papers file, which is synced first.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

import orjson

from feedtui.model import Paper
from feedtui.store.files import DamagedFileError, atomic_write, file_signature
from feedtui.store.tinydb_io import parse_database

MATCH = "match"
OF = "of"
MATCH_DIR = "match"


class MatchRowMaker(Protocol):
    """What the cache needs to keep match files: the rows' `version`, and a
    row for a paper (being stored) or for a stored document (to rebuild a week)."""

    version: str

    def of_paper(self, paper: Paper) -> list: ...

    def of_document(self, paper_id: str, doc: Mapping) -> list: ...


def match_path(papers_path: Path) -> Path:
    """The match file of a papers shard (`cache/papers/W.json` → `cache/match/W.json`)."""
    return papers_path.parent.parent / MATCH_DIR / papers_path.name


def papers_stamp(papers_path: Path) -> list[int] | None:
    """What a match file records of its papers file: [size, mtime_ns]."""
    signature = file_signature(papers_path)
    return [signature[1], signature[2]] if signature else None


def read_match_rows(papers_path: Path, version: str, stamp: list[int] | None = None) -> dict[str, list] | None:
    """The rows of a week, if its match file was made from the papers file as it
    is now (`stamp`, default: its current one) in this row `version`; else None."""
    stamp = papers_stamp(papers_path) if stamp is None else stamp
    if stamp is None:
        return None
    path = match_path(papers_path)
    try:
        data = parse_database(path, path.read_bytes())
    except (OSError, DamagedFileError):
        return None
    if data.get(OF, {}).get("papers") != {"sig": stamp, "version": version}:
        return None
    return data.get(MATCH, {})


def write_match_rows(papers_path: Path, rows: Mapping[str, list], stamp: list[int] | None, version: str) -> None:
    """Replace a week's match file (removing it when there is no papers file)."""
    path = match_path(papers_path)
    if stamp is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # The stamp comes last: a file cut short does not parse, so is never read as current.
    atomic_write(path, orjson.dumps({MATCH: rows, OF: {"papers": {"sig": stamp, "version": version}}}), sync=False)

