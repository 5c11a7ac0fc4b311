"""A response's parsed papers as the parse worker hands them over: pickled a
week at a time, for a refresh that spools them (core/spool.py).

A refresh with nobody watching it land (the CLI's) stores what it fetched
week by week at the end. Handed over as objects, every paper fetched would be
held in the refreshing process until then, at several times its size as
bytes; packed by the worker, a week of a response is one bytes object,
written to the spool as it comes and unpickled only when its week is
stored. The pickling is the worker's (it pickled the papers to hand them
over anyway), and each paper is still unpickled once.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from feedtui.model import Paper
from feedtui.store.codec import shard_for

# A packed paper: its place in the response, the paper, the topics it matched
# as parsed, its normalised texts.
Unpacked = tuple[int, Paper, tuple[str, ...] | None, tuple[str, ...] | None]


@dataclass(slots=True)
class PackedPapers:
    """The papers of one response: week -> (how many, the pickled list of
    `Unpacked`), and their ids in the response's order."""

    weeks: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.ids)

    def unpacked(self) -> list[Unpacked]:
        """Every paper, in the response's order (the spool could not take them)."""
        return sorted((item for _, blob in self.weeks.values() for item in unpack(blob)), key=lambda item: item[0])


def pack_papers(
    papers: Sequence[Paper],
    tags: Mapping[str, tuple[str, ...]],
    texts: Mapping[str, tuple[str, ...]],
) -> PackedPapers:
    by_week: dict[str, list[Unpacked]] = {}
    for place, paper in enumerate(papers):
        pid = paper.id
        item = (place, paper, tags.get(pid), texts.get(pid))
        by_week.setdefault(shard_for(paper.published), []).append(item)
    weeks = {week: (len(items), pickle.dumps(items, protocol=5)) for week, items in by_week.items()}
    return PackedPapers(weeks, [paper.id for paper in papers])


def unpack(blob: bytes) -> list[Unpacked]:
    return pickle.loads(blob)
