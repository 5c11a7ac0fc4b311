"""The papers' vectors, compact: int8 with a scale per vector, keyed by paper id.

A 256-dimension vector takes 260 bytes (256 int8 and a float32 scale), so
40,000 papers take about 10 MB on disk and in memory. The file is

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"FTVEC1\n"
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
        out = np.einsum("ij,j->i", self.codes, steps).astype(np.float32)
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
    import numpy as np

    try:
        if not data.startswith(MAGIC):
            raise ValueError("not a vectors file")
        start = len(MAGIC) + 4
        (size,) = struct.unpack_from("<I", data, len(MAGIC))
        header = json.loads(data[start : start + size])
        ids, versions, dim = header["ids"], header["versions"], int(header["dim"])
        if header["model"] != model:
            raise ValueError(f"made by {header['model']}, not {model}")
        count = len(ids)
        end = start + size + count * 4 + count * dim
        body = memoryview(data)[start + size : end]
        if len(versions) != count or len(body) != end - start - size or zlib.crc32(body) != header["crc"]:
            raise ValueError("its size or checksum is wrong")
        tail = memoryview(data)[end:]
        if zlib.crc32(tail) != header["meta_crc"]:
            raise ValueError("its authors and categories are damaged")
        authors: list[list[str]] = []
        categories: list[list[str]] = []
        if meta:
            found = json.loads(bytes(tail))
            authors, categories = found["authors"], found["categories"]
            if len(authors) != count or len(categories) != count:
                raise ValueError("its authors or categories do not match its papers")
        scales = np.frombuffer(body, dtype="<f4", count=count).astype(np.float32)
        codes = np.frombuffer(body, dtype=np.int8, offset=count * 4).reshape(count, dim).copy()
        return Vectors(model, [str(i) for i in ids], [int(v) for v in versions], scales, codes, authors, categories)
    except (ValueError, KeyError, TypeError, struct.error) as error:
        raise VectorsDamaged(str(error)) from error
