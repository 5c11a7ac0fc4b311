"""TinyDB, set up for feedtui's files.

- `AtomicJSONStorage` reads with orjson and writes through `atomic_write`, so a
  crash never leaves half a database; a file that does not parse, or that
  parses but has the wrong shape for its owner (`shape`), raises
  `DamagedFileError` instead of being treated as empty or crashing later.
- Documents are keyed by strings we choose (paper ids, topic names, URLs), so a
  lookup is a dict access rather than a scan: `KeyedTable` sets TinyDB's
  `document_id_class` to `str` and adds batch operations that rewrite the table
  once for many documents.
- Every database is opened behind TinyDB's `CachingMiddleware` with writes held
  until `flush()`: the owner decides when a file is rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import Any

import orjson
from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage
from tinydb.table import Table

from feedtui.store.files import DamagedFileError, atomic_write


# Checks a parsed database's contents: "" when fine, else what is wrong.
ShapeCheck = Callable[[dict[str, dict[str, Any]]], str]


class AtomicJSONStorage(Storage):
    def __init__(self, path: str | Path, shape: ShapeCheck | None = None, **_: Any) -> None:
        self.path = Path(path)
        self.shape = shape

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        return parse_database(self.path, raw, self.shape)

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write(self.path, json_chunks(data))

    def close(self) -> None:
        pass


# Bytes of JSON handed to the file at a time.
CHUNK_BYTES = 1 << 20
# Documents encoded by one call at most (see `json_chunks`): past a few
# dozen, larger calls save nothing, and the bytes of one call stay a small
# part of the documents it encodes, which are held anyway.
MAX_BATCH = 32


def json_chunks(data: dict[str, dict[str, Any]]) -> Iterator[bytes]:
    """`orjson.dumps(data)`, byte for byte, in chunks of about CHUNK_BYTES: a
    week of papers is tens of megabytes of JSON, which would otherwise be
    held whole beside the documents it is made from. A table's documents are
    encoded many at a time, as the members of a smaller dict (one orjson call
    per document costs more than the encoding), about a quarter of a chunk
    per call by the size of the documents encoded so far."""
    dumps = orjson.dumps
    pieces: list[bytes] = [b"{"]
    size = 1
    for t, (name, table) in enumerate(data.items()):
        pieces.append(b"," + dumps(name) + b":{" if t else dumps(name) + b":{")
        items = iter(table.items())
        many, later = 1, False
        while part := dict(islice(items, many)):
            members = dumps(part, default=_tuple_as_list)[1:-1]
            pieces.append(b"," + members if later else members)
            later = True
            size += len(members) + 1
            if size >= CHUNK_BYTES:
                yield b"".join(pieces)
                pieces, size = [], 0
            many = max(1, min(MAX_BATCH, CHUNK_BYTES * len(part) // (4 * len(members) or 1)))
        pieces.append(b"}")
    pieces.append(b"}")
    yield b"".join(pieces)


def _tuple_as_list(value: object) -> list:
    """A named tuple (a card row, say) written as the JSON array it was read
    from: orjson writes plain tuples but not their subclasses."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def parse_database(
    path: Path, raw: bytes, shape: ShapeCheck | None = None, *, lean: bool = False
) -> dict[str, dict[str, Any]]:
    """The file's tables. `lean` parses without orjson's working buffer, which
    holds about ten times the file's size while it parses: for a large file
    read while much else is held (the tags, read after every card row), where
    that buffer would set the process's peak memory. The standard parser is
    no slower on such a file of short strings, and is held to what orjson
    accepts."""
    if not raw.strip():
        raise DamagedFileError(path, "the file is empty")
    try:
        data = _lean_loads(raw) if lean else orjson.loads(raw)
    except ValueError as error:  # orjson.JSONDecodeError, json.JSONDecodeError, UnicodeDecodeError
        raise DamagedFileError(path, f"not valid JSON: {error}") from None
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise DamagedFileError(path, "not a feedtui database")
    if shape is not None:
        problem = shape(data)
        if problem:
            raise DamagedFileError(path, f"not a feedtui database: {problem}")
    return data


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _lean_loads(raw: bytes) -> object:
    """`json.loads` held to what orjson accepts: strict UTF-8 without lone
    surrogates, and no NaN or Infinity."""
    text = raw.decode("utf-8")
    data = json.loads(text, parse_constant=_no_constant)
    if "\\ud" in text or "\\uD" in text:
        try:
            orjson.dumps(data)  # refuses a lone surrogate, as orjson's parser does
        except orjson.JSONEncodeError as error:
            raise ValueError(str(error)) from None
    return data


class HeldWrites(CachingMiddleware):
    """CachingMiddleware that never flushes on its own."""

    WRITE_CACHE_SIZE = 2**62


class KeyedTable(Table):
    document_id_class = str

    def put_many(self, documents: Mapping[str, Mapping]) -> None:
        """Insert or replace many documents by key in one table rewrite."""
        if documents:
            self._update_table(lambda table: table.update(documents))

    def delete_many(self, keys: Iterable[str]) -> None:
        keys = list(keys)
        if keys:

            def remove(table: dict) -> None:
                for key in keys:
                    table.pop(key, None)

            self._update_table(remove)

    def raw(self) -> Mapping[str, Mapping]:
        """The stored documents by key, without copying. Do not mutate."""
        return self._read_table()


class Database(TinyDB):
    table_class = KeyedTable

    def table(self, name: str, **kwargs: Any) -> KeyedTable:  # type: ignore[override]
        return super().table(name, **kwargs)  # type: ignore[return-value]

    def flush(self) -> None:
        self.storage.flush()  # type: ignore[attr-defined]


def open_database(path: Path, shape: ShapeCheck | None = None) -> Database:
    """Open (reading it at once, so damage is reported here) a database file."""
    db = Database(path, storage=HeldWrites(AtomicJSONStorage), shape=shape)
    db.storage.read()
    return db
