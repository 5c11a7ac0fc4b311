"""Match files: each week's papers as topic queries read them, for retagging.

    cache/match/2026-09-28.json   {"match": {paper id: row}, "of": {"papers": {"sig": …, "version": …}}}

A row holds what tagging reads of a paper, already normalised (see
`feedtui.topics.tagging.MatchRows`): retagging the whole cache after a topic is
added reads these instead of the full documents: a fraction of the bytes, and
none of the text normalisation.

A match file is derived data and checks itself: it records the size and mtime
of the papers file it was made from (not the inode, so a copy that keeps
times is still trusted, as for the card index) and the version of the row
format; when either differs, the file is ignored and the week is tagged from
its documents. Size and mtime alone cannot tell apart two versions of a
papers file written within one tick of a coarse clock with the same size
(`v1` → `v2`), so the writers also keep to two rules:

- a store moves a week's match file aside (and syncs the move) before it
  rewrites the papers file, and writes the new one after, under the
  data-directory lock: a kill or power loss in between leaves no match file,
  never an old one beside new papers. A store that fails puts back only what
  it moved itself, and only beside the very papers file it was moved from
  (the same inode: every rewrite is a new file);
- a retag that rebuilds a week's rows from its documents saves them only if
  the papers file was last written well before it looked (`RACY_SECONDS`), so
  a papers file replaced while it read them cannot share their stamp.

A match file is written without fsync (`atomic_write(sync=False)`): after a
power loss it may be old (its stamp then names the old papers file), missing,
empty or cut short (it does not parse), and all of those are ignored.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from feedtui.model import Paper
from feedtui.store.files import DamagedFileError, StoreError, atomic_write, file_signature, remove_quietly
from feedtui.store.tinydb_io import json_chunks, parse_database

MATCH = "match"
OF = "of"
MATCH_DIR = "match"
# How long after its papers file was written a week's rows, rebuilt by a
# retag, are not saved: beyond any file system's mtime granularity (FAT: 2 s).
# (A network file system whose server clock runs this far behind the client's
# could defeat it; feedtui's data directory is meant to be local.)
RACY_SECONDS = 3


class MatchRowMaker(Protocol):
    """What the cache needs to keep match files: the rows' `version` and
    `width` (items in a row), and a row for a paper (being stored) or for a
    stored document (to rebuild a week)."""

    version: str
    width: int

    def of_paper(self, paper: Paper) -> list: ...

    def of_document(self, paper_id: str, doc: Mapping) -> list: ...


def match_path(papers_path: Path) -> Path:
    """The match file of a papers shard (`cache/papers/W.json` → `cache/match/W.json`)."""
    return papers_path.parent.parent / MATCH_DIR / papers_path.name


def papers_stamp(papers_path: Path) -> list[int] | None:
    """What a match file records of its papers file: [size, mtime_ns]."""
    signature = file_signature(papers_path)
    return [signature[1], signature[2]] if signature else None


def read_match_rows(
    papers_path: Path, version: str, stamp: list[int] | None = None, *, width: int = 0
) -> dict[str, list] | None:
    """The rows of a week, if its match file was made from the papers file as it
    is now (`stamp`, default: its current one) in this row `version`, each a
    list of `width` items (any, if 0); else None."""
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
    rows = data.get(MATCH, {})
    if width and not all(type(row) is list and len(row) == width for row in rows.values()):
        return None
    return rows


def write_match_rows(papers_path: Path, rows: Mapping[str, list], stamp: list[int], version: str) -> None:
    """Replace a week's match file. Raises StoreError or OSError."""
    path = match_path(papers_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json_chunks({MATCH: rows, OF: {"papers": {"sig": stamp, "version": version}}}), sync=False)


def set_match_aside(papers_path: Path) -> bool:
    """Move a week's match file out of the way (`W.json` → `W.json.aside`)
    before its papers file is rewritten, so that a kill before the new one is
    written leaves none in its place; True if there was one to move. An
    `.aside` already there was left by a store that died (stores hold the
    data-directory lock), so nothing is known of it: it goes first. Where the
    move fails (a read-only directory, rarely a full disk), the match file is
    removed instead, if it can be."""
    path = match_path(papers_path)
    drop_match_aside(papers_path)
    try:
        os.replace(path, _aside(path))
    except FileNotFoundError:
        return False
    except OSError:
        remove_match_rows(papers_path)
        return False
    return True


def put_match_back(papers_path: Path) -> None:
    """Undo `set_match_aside`, for a store that failed before this week's
    papers file was rewritten (the caller checks it is the same file)."""
    path = match_path(papers_path)
    try:
        os.replace(_aside(path), path)
    except OSError:
        pass


def drop_match_aside(papers_path: Path) -> None:
    """Remove what `set_match_aside` moved, once it is not to be put back."""
    remove_quietly(_aside(match_path(papers_path)))


def remove_match_leftovers(match_dir: Path) -> None:
    """Remove match files left aside by stores that died. One that belongs to
    a store running now in another process only costs it the put-back after
    a failure (that week then has no match file: slower, never wrong)."""
    if not match_dir.is_dir():
        return
    for leftover in match_dir.glob("*.aside"):
        remove_quietly(leftover)


def _aside(path: Path) -> Path:
    return path.with_name(path.name + ".aside")


def remove_match_rows(papers_path: Path) -> None:
    """Remove a week's match file, if it can be (one left behind is only
    trusted while its stamp names the papers file as it is)."""
    remove_quietly(match_path(papers_path))


def keep_rebuilt_rows(
    papers_path: Path, rows: Mapping[str, list], stamp: list[int] | None, version: str, looked_ns: int
) -> bool:
    """Save rows a retag rebuilt from the documents it read after `looked_ns`
    (`time.time_ns()` before it took `stamp`), unless the papers file was
    written less than RACY_SECONDS before that or has changed since; a file
    that cannot be saved is no error. True if saved."""
    if not rows or stamp is None or looked_ns - stamp[1] < RACY_SECONDS * 1_000_000_000:
        return False
    if papers_stamp(papers_path) != stamp:
        return False
    try:
        write_match_rows(papers_path, rows, stamp, version)
    except (StoreError, OSError):
        return False
    return True
