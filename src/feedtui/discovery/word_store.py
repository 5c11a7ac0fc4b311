"""The whole cache's word index on disk, next to the vectors: the arrays of a
CompactIndex as .npy files, mapped (not read) when Ask loads them, so a
question reads only the postings of its own words and the first Ask of a
session costs no index build. Each paper's length and version are kept
too: the next build takes the papers that did not change from here
(`load_part`, discovery/word_parts.py).

Layout, in `cache/words/`: `words.json` names the generation directory
holding the arrays and the stamp of the papers they index (their ids and
versions, in order); a new generation is written whole before
`words.json` points to it, so a reader never sees half of one. Anything
missing, damaged or stale loads as None: the caller builds the index in
memory as before.
"""

from __future__ import annotations

import json
import mmap
import os
import shutil
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from feedtui.discovery.lexical import rank_rows
from feedtui.discovery.word_parts import Joined, WordPart, part_of_arrays
from feedtui.memory import drop_mapped_pages

POINTER = "words.json"
FORMAT = 2
_ARRAYS = ("ids", "norm_lengths", "terms", "rows", "starts", "papers", "counts")
# Kept for joining the index with new papers (see discovery/word_parts.py).
_JOINING = ("lengths", "versions")


def stamp(papers: Iterable[tuple[str, int]]) -> str:
    """What identifies an index's papers: a CRC-32 of their ids and versions, in order."""
    crc = 0
    count = 0
    for paper_id, version in papers:
        crc = zlib.crc32(f"{paper_id}:{version}\n".encode(), crc)
        count += 1
    return f"{count}:{crc:08x}"


def save(index: Joined, versions: Sequence[int], folder: Path, papers_stamp: str) -> None:
    """Write `index` (with its papers' versions, what a later join checks)
    as a new generation in `folder` and point to it; older generations are
    removed (a process still mapping one keeps its pages)."""
    folder.mkdir(parents=True, exist_ok=True)
    generation = f"g{os.getpid()}-{zlib.crc32(os.urandom(8)):08x}"
    target = folder / generation
    target.mkdir()
    count = len(index.ids)
    arrays = _arrays(index)
    arrays["lengths"] = index.lengths.astype(np.float32)
    arrays["versions"] = np.asarray(versions, dtype=np.uint32)
    for name, array in arrays.items():
        np.save(target / f"{name}.npy", array, allow_pickle=False)
    pointer = {
        "format": FORMAT,
        "generation": generation,
        "stamp": papers_stamp,
        "count": count,
        "average_length": index.average_length or 1.0,
        "sizes": {name: int(len(array)) for name, array in arrays.items()},
    }
    temporary = folder / f".{POINTER}.{generation}"
    temporary.write_text(json.dumps(pointer))
    os.replace(temporary, folder / POINTER)
    for old in folder.iterdir():
        if old.is_dir() and old.name != generation:
            shutil.rmtree(old, ignore_errors=True)


def _arrays(index: Joined) -> dict[str, np.ndarray]:
    """The arrays a MappedIndex ranks with."""
    return {
        "ids": np.array([i.encode() for i in index.ids], dtype=bytes) if index.ids else np.zeros(0, dtype="S1"),
        "norm_lengths": index.norm_lengths,
        "terms": index.terms,
        "rows": np.arange(len(index.terms), dtype=np.uint32),
        "starts": index.starts,
        "papers": index.papers,
        "counts": index.counts,
    }


def load_part(folder: Path) -> tuple[WordPart, list[int]] | None:
    """The stored index as a WordPart, and its papers' versions, whatever
    papers it indexes (None when missing or damaged): the papers that did
    not change since it was built are taken from it."""
    try:
        pointer = json.loads((folder / POINTER).read_text())
        if pointer.get("format") != FORMAT:
            return None
        generation = folder / str(pointer["generation"])
        arrays = {name: np.load(generation / f"{name}.npy", allow_pickle=False) for name in (*_ARRAYS, *_JOINING)}
        sizes = pointer["sizes"]
        if any(len(arrays[name]) != int(sizes[name]) for name in arrays):
            return None
        count = int(pointer["count"])
        if not len(arrays["ids"]) == len(arrays["lengths"]) == len(arrays["versions"]) == count:
            return None
        ids = [bytes(i).decode() for i in arrays["ids"]]
        part = part_of_arrays(ids, arrays["lengths"], arrays["terms"], arrays["rows"], arrays["starts"], arrays["papers"], arrays["counts"])
        if len(part.term_of) != len(part.paper_of) or (len(part.paper_of) and int(part.paper_of.max()) >= count):
            return None
        return part, arrays["versions"].tolist()
    except (OSError, ValueError, KeyError, TypeError, EOFError, AttributeError, UnicodeDecodeError):
        return None


def load(folder: Path, papers_stamp: str) -> MappedIndex | None:
    """The index stored in `folder` if it indexes exactly these papers; None
    when it is missing, damaged or stale."""
    try:
        pointer = json.loads((folder / POINTER).read_text())
        if pointer.get("format") != FORMAT or pointer.get("stamp") != papers_stamp:
            return None
        generation = folder / str(pointer["generation"])
        mapped = {name: _map(generation / f"{name}.npy") for name in _ARRAYS}
        arrays = {name: array for name, (array, _) in mapped.items()}
        index = MappedIndex(arrays, int(pointer["count"]), float(pointer["average_length"]), pointer["sizes"])
        index.postings_maps = (mapped["papers"][1], mapped["counts"][1])
        index.other_maps = tuple((maps, len(arrays[name])) for name, (_, maps) in mapped.items() if name not in ("papers", "counts"))
        return index
    except (OSError, ValueError, KeyError, TypeError, EOFError, AttributeError):
        return None


def _map(path: Path) -> tuple[np.ndarray, tuple[mmap.mmap, int, int] | None]:
    """The one-dimensional array saved in `path`, mapped read-only, with its
    mapping, the offset of its data there and its item size (None for an
    empty file's data, which is not mapped)."""
    with open(path, "rb") as file:
        version = np.lib.format.read_magic(file)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(file)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(file)
        if len(shape) != 1 or dtype.hasobject:
            raise ValueError(f"{path.name}: not a flat array")
        offset = file.tell()
        size = shape[0] * dtype.itemsize
        if os.fstat(file.fileno()).st_size < offset + size:
            raise ValueError(f"{path.name}: shorter than its header says")
        if size == 0:
            return np.zeros(0, dtype=dtype), None
        mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    array = np.frombuffer(mapping, dtype=dtype, count=shape[0], offset=offset)
    return array, (mapping, offset, dtype.itemsize)


def _drop(mapped: tuple[mmap.mmap, int, int] | None, first: int, end: int) -> None:
    """Drops from memory the pages holding items [first, end) of a mapped
    array: they are read again from the file (its cache) if used again."""
    if mapped is None or end <= first:
        return
    mapping, offset, itemsize = mapped
    drop_mapped_pages(mapping, offset + first * itemsize, offset + end * itemsize)


class IndexDamaged(ValueError):
    """A stored index's arrays do not agree with each other."""


class MappedIndex:
    """A CompactIndex read from disk: the same arrays, mapped, ranking with
    the same formula (so the same scores, in the same order)."""

    __slots__ = ("postings_maps", "other_maps", "_ids", "count", "average_length", "norm_lengths", "terms", "rows", "starts", "papers", "counts")

    def __init__(self, arrays: dict[str, np.ndarray], count: int, average_length: float, sizes: dict) -> None:
        for name in _ARRAYS:
            if len(arrays[name]) != int(sizes[name]):
                raise ValueError(f"{name}: {len(arrays[name])} entries, {sizes[name]} expected")
        if len(arrays["ids"]) != count or len(arrays["norm_lengths"]) != count:
            raise ValueError("the papers' arrays disagree")
        if len(arrays["starts"]) != len(arrays["terms"]) + 1 or len(arrays["rows"]) != len(arrays["terms"]):
            raise ValueError("the terms' arrays disagree")
        if len(arrays["starts"]) and int(arrays["starts"][-1]) != len(arrays["papers"]) or len(arrays["counts"]) != len(arrays["papers"]):
            raise ValueError("the postings' arrays disagree")
        self._ids = arrays["ids"]
        self.count = count
        self.average_length = average_length
        self.norm_lengths = arrays["norm_lengths"]
        self.terms = arrays["terms"]
        self.rows = arrays["rows"]
        self.starts = arrays["starts"]
        self.papers = arrays["papers"]
        self.counts = arrays["counts"]
        # The mappings of `papers` and `counts` (see _map), whose pages a
        # question drops once read: a mapped page read stays in the
        # process's memory, and a common word's postings run to megabytes.
        self.postings_maps: tuple = (None, None)
        # The other arrays' mappings, each with its length: a question's
        # lookups in them (a binary search of the terms, the lengths and ids
        # of the papers it finds) bring in pages all over them, each with
        # the pages the kernel maps around it, and they are dropped after.
        self.other_maps: tuple = ()

    @classmethod
    def of(cls, index: Joined) -> MappedIndex:
        """A joined index that could not be stored, ranking from memory."""
        arrays = _arrays(index)
        return cls(arrays, len(index.ids), index.average_length or 1.0, {n: len(a) for n, a in arrays.items()})

    def row(self, term: str) -> int | None:
        """The term's row in `starts`, None for a term no paper has."""
        key = term.encode()
        if len(key) > self.terms.dtype.itemsize:
            return None  # longer than every stored term
        # As the stored terms' own type: a key of another width would have
        # numpy copy the whole (mapped) array to compare.
        at = int(np.searchsorted(self.terms, np.array(key, dtype=self.terms.dtype)))
        if at < len(self.terms) and self.terms[at] == key:
            return int(self.rows[at])
        return None

    def paper_id(self, position: int) -> str:
        return bytes(self._ids[position]).decode()

    def rank(self, question: str, depth: int | None = None) -> list[tuple[str, float]]:
        """(paper id, score) of the `depth` best papers (all with None), best first."""
        try:
            return rank_rows(self, question, depth, self.row, self.paper_id, self._read)
        finally:
            # And any the kernel mapped around them (it maps neighbouring
            # pages in with the one read), and the other arrays' pages read.
            self._read(0, len(self.papers))
            for mapped, length in self.other_maps:
                _drop(mapped, 0, length)

    def _read(self, start: int, end: int) -> None:
        """Drops the pages of postings [start, end), read by a question."""
        papers, counts = self.postings_maps
        _drop(papers, start, end)
        _drop(counts, start, end)
