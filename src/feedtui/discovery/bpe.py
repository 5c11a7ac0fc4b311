"""The model's tokenizer in Python, for the few short texts Ask embeds (the
question and the sentences it may quote): the same token ids as the
`tokenizers` library gives with the model's tokenizer file, without loading
that library (a large share of Ask's memory). Computing the papers'
vectors, thousands of texts at once, still uses the library.

The file describes a byte-fallback BPE whose normalizer puts `▁` before the
text and in place of every space, with no pre-tokenizer. No token has `▁`
after another character, so no merge crosses the start of a run of `▁`:
each such run with the characters after it is merged on its own, and the
results are those of merging the whole text (merges in separate pieces
commute). Within a piece, the pair of lowest rank is merged first, leftmost
first, as the library does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np

_PIECE = re.compile("▁*[^▁]*")
_TABLES = ("vocab_keys", "vocab_ids", "merge_keys", "merge_ranks")
# Pieces whose ids are kept (questions repeat words).
_KEPT = 4096


class BpeUnavailable(Exception):
    """The tokenizer file is not the kind this tokenizer reads."""


class Bpe:
    """The tokenizer file's vocabulary and merges as sorted byte-string arrays
    (a few MB less than dictionaries of strings), looked up a step at a time."""

    __slots__ = ("vocab_keys", "vocab_ids", "merge_keys", "merge_ranks", "_cache")

    @classmethod
    def load(cls, path: Path, prepared: Path | None = None) -> Bpe:
        """The tokenizer of the file at `path`; its tables read from the folder
        `prepared` when they were made from this very file (reading the file
        itself leaves memory behind), else made and saved there. A table a
        file: each is read straight into its array, where a zip of them was
        read into memory first."""
        stamp = _stamp(path)
        if prepared is not None:
            try:
                if np.load(prepared / "stamp.npy", allow_pickle=False).tolist() == stamp:
                    bpe = cls.__new__(cls)
                    for name in _TABLES:
                        setattr(bpe, name, np.load(prepared / f"{name}.npy", allow_pickle=False))
                    bpe._cache = {}
                    return bpe
            except (OSError, ValueError, EOFError):
                pass
        bpe = cls(path)
        if prepared is not None:
            temporary = prepared.with_name(f".{prepared.name}.{os.getpid()}")
            try:
                shutil.rmtree(temporary, ignore_errors=True)
                temporary.mkdir(parents=True)
                for name in _TABLES:
                    np.save(temporary / f"{name}.npy", getattr(bpe, name), allow_pickle=False)
                np.save(temporary / "stamp.npy", np.array(stamp, dtype=np.int64), allow_pickle=False)
                if prepared.is_dir():
                    shutil.rmtree(prepared, ignore_errors=True)
                else:
                    prepared.unlink(missing_ok=True)  # not a folder of tables: made again in its place
                os.replace(temporary, prepared)
            except OSError:
                shutil.rmtree(temporary, ignore_errors=True)
        return bpe

    def __init__(self, path: Path) -> None:
        try:
            config = json.loads(path.read_bytes())
            model = config["model"]
            normalizers = [n.get("type") for n in (config.get("normalizer") or {}).get("normalizers", ())]
            if (
                model.get("type") != "BPE"
                or not model.get("byte_fallback")
                or config.get("pre_tokenizer") is not None
                or normalizers != ["Prepend", "Replace"]
                or model.get("continuing_subword_prefix")
                or model.get("end_of_word_suffix")
                or model.get("dropout")
            ):
                raise BpeUnavailable(f"{path} is not a byte-fallback BPE without pre-tokenizer")
            vocab: dict[str, int] = model["vocab"]
            self.vocab_keys, self.vocab_ids = _sorted_table(vocab.keys(), vocab.values())
            merges: dict[str, int] = {}
            for rank, merge in enumerate(model["merges"]):
                merges.setdefault(merge if isinstance(merge, str) else " ".join(merge), rank)
            self.merge_keys, self.merge_ranks = _sorted_table(merges.keys(), merges.values())
            del config, model, vocab, merges
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise BpeUnavailable(f"the tokenizer file {path} cannot be read: {error}") from error
        from feedtui.memory import give_back_freed_memory

        give_back_freed_memory()  # the parsed file's objects
        self._cache: dict[str, list[int]] = {}

    def encode(self, text: str) -> list[int]:
        """The token ids of `text` (no special tokens)."""
        if not text:
            return []
        ids: list[int] = []
        cache = self._cache
        for key in piece_keys(text):
            found = cache.get(key)
            if found is None:
                found = self._piece("▁" + key)
                if len(cache) >= _KEPT:
                    cache.clear()
                cache[key] = found
            ids += found
        return ids

    def _piece(self, piece: str) -> list[int]:
        symbols = list(piece)
        while len(symbols) > 1:
            pairs = list(zip(symbols, symbols[1:]))
            ranks = _lookup(self.merge_keys, self.merge_ranks, [f"{a} {b}" for a, b in pairs])
            if not (ranks >= 0).any():
                break
            best = int(np.where(ranks >= 0, ranks, np.iinfo(np.int32).max).argmin())
            left, right = pairs[best]
            merged: list[str] = []
            i = 0
            while i < len(symbols):
                if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
                    merged.append(left + right)
                    i += 2
                else:
                    merged.append(symbols[i])
                    i += 1
            symbols = merged
        found = _lookup(self.vocab_keys, self.vocab_ids, symbols).tolist()
        ids: list[int] = []
        for symbol, token in zip(symbols, found):
            if token >= 0:
                ids.append(token)
            else:
                fallback = [f"<0x{byte:02X}>" for byte in symbol.encode()]
                ids += (max(t, 0) for t in _lookup(self.vocab_keys, self.vocab_ids, fallback).tolist())
        return ids


def pieces(text: str) -> list[str]:
    """The tokenizer's normalized `text` cut where each run of `▁` begins
    (see the module's docstring): the pieces merged apart, and an empty
    one the caller skips."""
    return _PIECE.findall("▁" + text.replace(" ", "▁"))


def piece_keys(text: str) -> list[str]:
    """Each piece of a non-empty `text` without its first `▁` (every piece
    has one): for most texts, the words between single spaces, cut by
    str.split, several times faster than the pieces' pattern."""
    if "▁" in text or "  " in text or text.startswith(" "):
        return [piece[1:] for piece in pieces(text) if piece]
    return text.split(" ")


def _stamp(path: Path) -> list[int]:
    try:
        info = path.stat()
    except OSError as error:
        raise BpeUnavailable(f"the tokenizer file {path} cannot be read: {error}") from error
    return [info.st_size, info.st_mtime_ns]


def _sorted_table(keys, values) -> tuple[np.ndarray, np.ndarray]:
    encoded = np.array([k.encode() for k in keys], dtype=bytes)
    numbers = np.fromiter(values, dtype=np.int32, count=len(encoded))
    order = np.argsort(encoded, kind="stable")
    return encoded[order], numbers[order]


def _lookup(keys: np.ndarray, values: np.ndarray, wanted: list[str]) -> np.ndarray:
    """The value of each wanted key, -1 for a key not in the table."""
    encoded = [w.encode() for w in wanted]
    width = keys.dtype.itemsize
    probe = np.array(encoded, dtype=keys.dtype)  # keys longer than the widest are cut: checked below
    at = np.minimum(np.searchsorted(keys, probe), len(keys) - 1)
    fits = np.fromiter((len(e) <= width for e in encoded), dtype=bool, count=len(encoded))
    hit = (keys[at] == probe) & fits
    return np.where(hit, values[at], -1)
