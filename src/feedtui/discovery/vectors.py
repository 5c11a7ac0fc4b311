"""The papers' vectors, compact: int8 with a scale per vector, keyed by paper id.

A 256-dimension vector takes 260 bytes (256 int8 and a float32 scale), so
40,000 papers take about 10 MB on disk; `read` maps them from the file and
multiplies them a block at a time, so memory holds one block, not all. The file is

    b"FTVEC1\n", u32 header length, JSON header, scales (f32), vectors (int8),
    then each paper's authors and categories (JSON)

where the header names the model, the dimension, the paper ids with each
one's version, and CRC-32s of the vectors and of the authors and categories
(what Related needs of every paper, read only for it). A file that fails any
check is damaged, and the vectors are computed again (`decode` raises
VectorsDamaged; nothing crashes). Writing the file is the caller's job
(atomically, under the data directory's lock).
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import mmap

    import numpy as np

MAGIC = b"FTVEC1\n"
# Rows of mapped codes multiplied, then dropped from memory, at a time (numpy
# widens a block to int32 for the product: 1 MB here).
RELEASED_ROWS = 1024
# A query's largest value in the integer product with the codes (sums stay far inside int32).
QUERY_STEPS = 2047


class VectorsDamaged(ValueError):
    """The vectors file cannot be used (damaged, or made by another model)."""


@dataclass(slots=True)
class Vectors:
    """Unit vectors of papers, quantized: vector i ≈ codes[i] * scales[i]."""

    model: str
    ids: list[str]
    versions: list[int]
    scales: np.ndarray  # float32 (n,)
    codes: np.ndarray  # int8 (n, dim)
    # Each paper's authors (as discovery.authors.author_key makes them) and
    # categories: what Related needs of every paper, without reading them
    # all. Empty lists when the vectors were read without them.
    authors: list[list[str]] = field(default_factory=list)
    categories: list[list[str]] = field(default_factory=list)
    pos: dict[str, int] = field(default_factory=dict)
    # With codes memory-mapped from the file: drops rows [first, end) from
    # memory (they stay in the file cache), so a whole-cache product holds
    # a block of them at a time, not all.
    release: Callable[[int, int], None] | None = None

    def __post_init__(self) -> None:
        if not self.pos:
            self.pos = dict(zip(self.ids, range(len(self.ids))))

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def empty(cls, model: str, dim: int) -> Vectors:
        import numpy as np

        return cls(model, [], [], np.zeros(0, np.float32), np.zeros((0, dim), np.int8))

    def vector(self, paper_id: str) -> np.ndarray | None:
        """The paper's vector as float32, None when it has none."""
        import numpy as np

        i = self.pos.get(paper_id)
        if i is None:
            return None
        return self.codes[i].astype(np.float32) * self.scales[i]

    def similarities(self, query: np.ndarray) -> np.ndarray:
        """Cosine of every stored vector with a unit `query` (float32, (n,)).
        The query is quantized to 12 bits and multiplied with the int8 codes
        in integers: no float copy of the matrix is made (it would be four
        times its size), and the cosines are off by less than 0.001."""
        import numpy as np

        peak = float(np.abs(query).max()) if len(query) else 0.0
        if not len(self.ids) or peak == 0:
            return np.zeros(len(self.ids), np.float32)
        steps = np.rint(query * (QUERY_STEPS / peak)).astype(np.int32)
        if self.release is None:
            out = np.einsum("ij,j->i", self.codes, steps).astype(np.float32)
        else:
            out = np.empty(len(self.ids), np.float32)
            for first in range(0, len(self.ids), RELEASED_ROWS):
                end = min(first + RELEASED_ROWS, len(self.ids))
                out[first:end] = np.einsum("ij,j->i", self.codes[first:end], steps)
                self.release(first, end)
        out *= self.scales * (peak / QUERY_STEPS)
        return out

    def with_added(
        self,
        ids: Sequence[str],
        versions: Sequence[int],
        scales: np.ndarray,
        codes: np.ndarray,
        keep: set[str] | None,
        authors: Sequence[list[str]] | None = None,
        categories: Sequence[list[str]] | None = None,
    ) -> Vectors:
        """These quantized vectors added (replacing any of the same ids), and
        only the papers in `keep` kept of the old ones (all, with None)."""
        import numpy as np

        replaced = set(ids)
        kept = [i for i, pid in enumerate(self.ids) if pid not in replaced and (keep is None or pid in keep)]
        return Vectors(
            self.model,
            [self.ids[i] for i in kept] + list(ids),
            [self.versions[i] for i in kept] + list(versions),
            np.concatenate([self.scales[kept], scales]),
            np.concatenate([self.codes[kept], codes]),
            [self.authors[i] if self.authors else [] for i in kept] + list(authors or [[] for _ in ids]),
            [self.categories[i] if self.categories else [] for i in kept] + list(categories or [[] for _ in ids]),
        )

def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scales, int8 codes) of float vectors: each row over its own largest value."""
    import numpy as np

    peaks = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, np.float32)
    scales = (peaks / 127).astype(np.float32)
    safe = np.where(scales > 0, scales, 1).astype(np.float32)
    codes = np.clip(np.rint(vectors / safe[:, None]), -127, 127).astype(np.int8)
    return scales, codes


def encode(vectors: Vectors) -> bytes:
    body = vectors.scales.astype("<f4").tobytes() + vectors.codes.tobytes()
    meta = json.dumps({"authors": vectors.authors, "categories": vectors.categories}, separators=(",", ":")).encode()
    header = json.dumps(
        {
            "model": vectors.model,
            "dim": int(vectors.codes.shape[1]),
            "ids": vectors.ids,
            "versions": vectors.versions,
            "crc": zlib.crc32(body),
            "meta_crc": zlib.crc32(meta),
        },
        separators=(",", ":"),
    ).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + body + meta


def decode(data: bytes, model: str, *, meta: bool = False) -> Vectors:
    """The vectors of a file's bytes; raises VectorsDamaged. The authors and
    categories, which only Related needs, are read only with `meta`: held
    for every paper they would take more memory than the vectors."""
    return _decode(data, model, meta, None, copy=True)[0]


def read(path: Path, model: str, *, meta: bool = False, same: Callable[[str], str] | None = None) -> Vectors:
    """The vectors of a file (as `decode`); raises VectorsDamaged, or OSError
    when it cannot be opened. The codes are memory-mapped, not read into
    memory nor copied: the system pages them in as Ask multiplies them and
    shares them with its file cache; the pages read while decoding (the
    header, the scales) are dropped from the process. Without `meta` the authors and
    categories are only checked, a block at a time, never held. `same` gives
    for a paper id the string to hold (the caller's own copy of it: the ids
    held once, not twice). The file is replaced whole by its writers (never
    rewritten in place), so the mapping stays valid."""
    import mmap

    with open(path, "rb") as file:
        try:
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError as error:  # an empty file
            raise VectorsDamaged(str(error)) from error

        def tail(offset: int, keep: bool) -> tuple[int, bytes]:
            file.seek(offset)
            if keep:
                data = file.read()
                return zlib.crc32(data), data
            crc = 0
            while block := file.read(_BLOCK):
                crc = zlib.crc32(block, crc)
            return crc, b""

        drop = _dropper(mapped) if hasattr(mapped, "madvise") else None
        vectors, offset = _decode(mapped, model, meta, tail, copy=False, drop=drop, same=same)
    if drop is not None:
        drop(0, len(mapped))  # what decoding read: the header, the scales (copied), the pages mapped around them
        dim = vectors.codes.shape[1]
        vectors.release = lambda first, end: drop(offset + first * dim, offset + end * dim)
    return vectors


def _dropper(mapped: mmap.mmap) -> Callable[[int, int], None]:
    """Drops from memory the pages of the mapping wholly inside bytes
    [start, stop): they are read again from the file (its cache) if used."""
    from feedtui.memory import drop_mapped_pages

    return lambda start, stop: drop_mapped_pages(mapped, start, stop, whole_pages_only=True)


# Bytes of the authors and categories, or of mapped codes, checked at a time.
_BLOCK = 1 << 20


def _crc(body: memoryview, at: int, drop: Callable[[int, int], None] | None) -> int:
    """CRC-32 of `body` (at offset `at` of its mapping), its pages dropped
    block by block after with `drop`."""
    if drop is None:
        return zlib.crc32(body)
    crc = 0
    for first in range(0, len(body), _BLOCK):
        crc = zlib.crc32(body[first : first + _BLOCK], crc)
        drop(at + first, at + min(first + _BLOCK, len(body)))
    return crc


def _decode(
    data: bytes | mmap.mmap,
    model: str,
    meta: bool,
    tail: Callable[[int, bool], tuple[int, bytes]] | None,
    *,
    copy: bool,
    drop: Callable[[int, int], None] | None = None,
    same: Callable[[str], str] | None = None,
) -> tuple[Vectors, int]:
    """The vectors, and where their codes start in `data`."""
    import numpy as np

    try:
        if data[: len(MAGIC)] != MAGIC:
            raise ValueError("not a vectors file")
        start = len(MAGIC) + 4
        (size,) = struct.unpack_from("<I", data, len(MAGIC))
        header = json.loads(data[start : start + size])
        ids, versions, dim = header["ids"], header["versions"], int(header["dim"])
        if header["model"] != model:
            raise ValueError(f"made by {header['model']}, not {model}")
        count = len(ids)
        end = start + size + count * 4 + count * dim
        view = memoryview(data)
        body = view[start + size : end]
        if len(versions) != count or len(body) != end - start - size or _crc(body, start + size, drop) != header["crc"]:
            raise ValueError("its size or checksum is wrong")
        if tail is None:
            rest = view[end:]
            tail_crc, rest_bytes = zlib.crc32(rest), bytes(rest) if meta else b""
        else:
            tail_crc, rest_bytes = tail(end, meta)
        if tail_crc != header["meta_crc"]:
            raise ValueError("its authors and categories are damaged")
        authors: list[list[str]] = []
        categories: list[list[str]] = []
        if meta:
            found = json.loads(rest_bytes)
            authors, categories = found["authors"], found["categories"]
            if len(authors) != count or len(categories) != count:
                raise ValueError("its authors or categories do not match its papers")
        scales = np.frombuffer(body, dtype="<f4", count=count).astype(np.float32)
        codes = np.frombuffer(body, dtype=np.int8, offset=count * 4).reshape(count, dim)
        if copy:
            codes = codes.copy()
        held = [same(str(i)) for i in ids] if same is not None else [str(i) for i in ids]
        vectors = Vectors(model, held, [int(v) for v in versions], scales, codes, authors, categories)
        return vectors, start + size + count * 4
    except (ValueError, KeyError, TypeError, struct.error) as error:
        raise VectorsDamaged(str(error)) from error
