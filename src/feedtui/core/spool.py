"""Fetched papers waiting to be stored, kept on disk grouped by week.

A refresh that fetches more than a batch (`[fetch] store_batch`) would, by
storing each batch as it came, rewrite every week the batch touches once
per batch: papers of every feed are spread over every week, so a large
first refresh rewrote the whole cache many times. Instead each full batch is
spilled here, one file of compact JSON lines per week, and the papers are
stored a week at a time once, at the end: each week of the cache is
rewritten once per refresh, and what is held in memory is one week's new
papers, not the refresh's.

Nothing here is ever read by another process, nor after a crash: a refresh
killed before its papers were stored saved no validators for their sources
(see core/refresh.py), so the next refresh fetches them again; its spool is
removed by the next one made in that data directory.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import orjson

from feedtui.core.packed import unpack
from feedtui.memory import give_back_freed_memory
from feedtui.model import Paper
from feedtui.store.codec import paper_from_doc, paper_to_doc, shard_for
from feedtui.store.files import process_alive

if TYPE_CHECKING:
    from feedtui.core.fetch import SourceOutcome

SPOOL_DIR = "spool"
# Spooled papers are stored about this many at a time (a week of more than
# twice this is split): what a stored part holds grows with it, and a
# refresh that spools stores many parts, so they are kept below a batch.
SPOOL_PART = 2500

# Papers to store together, each with the outcome it came from.
Part = list[tuple["SourceOutcome", list[Paper]]]


class Spool:
    """Papers spilled by `spill`, read back a week at a time by `parts`."""

    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir / SPOOL_DIR
        self.directory: Path | None = None
        self.outcomes: list[SourceOutcome] = []
        self.weeks: dict[str, int] = {}

    def __len__(self) -> int:
        return sum(self.weeks.values())

    def spill(self, outcomes: Sequence[SourceOutcome]) -> None:
        """Write the outcomes' papers (with their tags and texts) to their
        weeks' files and let go of them; the outcomes are kept, for their
        reports and validators. Raises OSError."""
        # A row: the index of the outcome the paper came from, its id, its
        # document, and the tags and texts computed beside its parser. Rows
        # go to their week's file as they are made, not held for the batch.
        dumps = orjson.dumps
        directory = self._directory()
        files: dict[str, BinaryIO] = {}
        began: dict[str, int] = {}
        written: dict[str, int] = {}
        try:
            for index, outcome in enumerate(outcomes, start=len(self.outcomes)):
                tags, texts = outcome.tags, outcome.texts
                for paper in outcome.to_store:
                    week = shard_for(paper.published)
                    file = files.get(week)
                    if file is None:
                        file = files[week] = open(directory / f"{week}.jsonl", "ab")  # noqa: SIM115 (closed below)
                        began[week] = file.tell()
                    row = [index, paper.id, paper_to_doc(paper, ""), tags.get(paper.id), texts.get(paper.id)]
                    file.write(dumps(row) + b"\n")
                    written[week] = written.get(week, 0) + 1
            while files:
                files.popitem()[1].close()
        except BaseException:
            # None of this batch is spooled: what was written of it is cut
            # off again, and the papers stay with their outcomes.
            _cut_back(directory, files, began)
            written = {}
            raise
        finally:
            for week, count in written.items():
                self.weeks[week] = self.weeks.get(week, 0) + count
            self.outcomes.extend(outcomes)
        for outcome in outcomes:
            outcome.papers, outcome.tags, outcome.texts = [], {}, {}
        give_back_freed_memory()  # the batch let go of

    def spill_packed(self, outcome: SourceOutcome) -> None:
        """Write a feed's packed papers (`outcome.packed`, see core/packed.py)
        to their weeks' files as they are, and let go of them. Raises
        OSError, having spooled none of them."""
        packed = outcome.packed
        assert packed is not None
        index = len(self.outcomes)
        directory = self._directory()
        files: dict[str, BinaryIO] = {}
        began: dict[str, int] = {}
        try:
            for week, (_, blob) in packed.weeks.items():
                file = files[week] = open(directory / f"{week}.packed", "ab")  # noqa: SIM115 (closed below)
                began[week] = file.tell()
                file.write(index.to_bytes(4, "little") + len(blob).to_bytes(8, "little") + blob)
            while files:
                files.popitem()[1].close()
        except BaseException:
            _cut_back(directory, files, began, ".packed")
            raise
        for week, (count, _) in packed.weeks.items():
            self.weeks[week] = self.weeks.get(week, 0) + count
        self.outcomes.append(outcome)
        outcome.packed = None

    def parts(self, size: int) -> Iterator[Part]:
        """The spilled papers in parts of about `size`, whole weeks in date
        order (a week of more than twice that is split), each paper with the outcome it came
        from; the outcomes hold the part's tags and texts while it is stored.
        Few parts, since each stored part costs a rewrite of its weeks and of
        the topics' tags: the last weeks join the part before them when they
        make it no more than a tenth larger."""
        assert self.directory is not None or not self.weeks
        # A line of a week's file, or a paper unpacked from its packed file.
        rows: list[bytes | tuple] = []
        left = len(self)  # papers of the weeks not read yet
        for week in sorted(self.weeks):
            path = self.directory / f"{week}.jsonl"  # type: ignore[operator]
            if rows and len(rows) + self.weeks[week] > size and len(rows) + left > size + size // 10:
                part, rows = self._part(rows), []
                yield part  # its lines let go of while it is stored
                del part
                self._let_go_of_part()
            try:
                with open(path, "rb") as file:
                    rows.extend(file)
            except FileNotFoundError:
                pass  # only packed papers this week
            path.unlink(missing_ok=True)
            rows.extend(_read_packed(path.with_suffix(".packed")))
            left -= self.weeks[week]
            # A week is split only when it is more than twice a part: each
            # part of it would rewrite the whole week again.
            while len(rows) > 2 * size:
                part = self._part(rows[:size])
                del rows[:size]
                yield part
                del part
                self._let_go_of_part()
        if rows:
            part, rows = self._part(rows), []
            yield part

    def _let_go_of_part(self) -> None:
        """Drop the tags and texts the outcomes hold for the part
        just stored, before the next part's papers are read."""
        for outcome in self.outcomes:
            outcome.tags, outcome.texts = {}, {}

    def _part(self, rows: list[bytes | tuple]) -> Part:
        by_outcome: dict[int, list[Paper]] = {}
        self._let_go_of_part()
        for line in rows:
            if isinstance(line, tuple):  # packed (see _read_packed)
                index, paper, tags, texts = line
                by_outcome.setdefault(index, []).append(paper)
                outcome = self.outcomes[index]
                if tags is not None:
                    outcome.tags[paper.id] = tags
                if texts is not None:
                    outcome.texts[paper.id] = texts
                continue
            index, pid, doc, tags, texts = orjson.loads(line)
            paper = paper_from_doc(pid, doc)
            by_outcome.setdefault(index, []).append(paper)
            outcome = self.outcomes[index]
            if tags is not None:
                outcome.tags[pid] = tuple(tags)
            if texts is not None:
                outcome.texts[pid] = tuple(texts)
        return [(self.outcomes[index], papers) for index, papers in by_outcome.items()]

    def close(self) -> None:
        """Forget what was spilled and remove its files."""
        for outcome in self.outcomes:
            outcome.tags, outcome.texts = {}, {}
        self.outcomes, self.weeks = [], {}
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None

    def _directory(self) -> Path:
        if self.directory is None:
            self.root.mkdir(parents=True, exist_ok=True)
            _remove_abandoned(self.root)
            self.directory = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=self.root))
        return self.directory


def _read_packed(path: Path) -> Iterator[tuple]:
    """The papers of a week's packed file (none: no file), each as
    (outcome index, paper, tags, texts); the file is removed once read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    path.unlink(missing_ok=True)
    at = 0
    while at < len(data):
        index = int.from_bytes(data[at : at + 4], "little")
        length = int.from_bytes(data[at + 4 : at + 12], "little")
        blob = data[at + 12 : at + 12 + length]
        at += 12 + length
        for _, paper, tags, texts in unpack(blob):
            yield index, paper, tags, texts


def _cut_back(directory: Path, files: dict[str, BinaryIO], began: Mapping[str, int], suffix: str = ".jsonl") -> None:
    """Close the week files a failed spill wrote to and cut each back to the
    length it had before (a row cut short would not parse)."""
    for file in files.values():
        try:
            file.close()
        except OSError:
            pass  # what it held is cut off below
    for week, length in began.items():
        try:
            os.truncate(directory / f"{week}{suffix}", length)
        except OSError:
            pass


def _remove_abandoned(root: Path) -> None:
    """Remove spools of processes that ended without removing theirs."""
    for entry in root.iterdir():
        pid = entry.name.partition("-")[0]
        if pid.isdigit() and (int(pid) == os.getpid() or process_alive(int(pid))):
            continue
        shutil.rmtree(entry, ignore_errors=True)
