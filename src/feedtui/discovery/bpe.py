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
from array import array
from pathlib import Path

import numpy as np

_PIECE = re.compile("▁*[^▁]*")
_TABLES = ("vocab_size", "char_codes", "char_ids", "byte_ids", "merge_keys", "merge_ranks", "merge_ids")
# Made again when the tables were made by another layout of them.
_LAYOUT = 2
# Pieces whose ids are kept (questions repeat words).
_KEPT = 4096
_NO_RANK = np.iinfo(np.int32).max


class BpeUnavailable(Exception):
    """The tokenizer file is not the kind this tokenizer reads."""


class Bpe:
    """The tokenizer file's merges as arrays of token ids, looked up a step at
    a time: each merge keyed by the ids of its two tokens, with its rank and
    the id of the token it makes. A piece starts as the ids of its
    characters, and a merge's tokens are in the vocabulary (the library
    refuses a file where they are not), so the tokens' strings are never
    needed, only those of single characters and of the bytes a character
    without a token falls back to: a fraction of the memory of sorted
    tables of the strings, each padded to the longest."""

    __slots__ = (*_TABLES, "_cache")

    @classmethod
    def load(cls, path: Path, prepared: Path | None = None) -> Bpe:
        """The tokenizer of the file at `path`; its tables read from the folder
        `prepared` when they were made from this very file (reading the file
        itself leaves memory behind), else made and saved there. A table a
        file: each is read straight into its array, where a zip of them was
        read into memory first."""
        stamp = [_LAYOUT, *_stamp(path)]
        if prepared is not None:
            try:
                if np.load(prepared / "stamp.npy", allow_pickle=False).tolist() == stamp:
                    bpe = cls.__new__(cls)
                    for name in _TABLES:
                        setattr(bpe, name, np.load(prepared / f"{name}.npy", allow_pickle=False))
                    bpe._cache = {}
                    bpe._check()
                    return bpe
            except (OSError, ValueError, EOFError, BpeUnavailable):
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
            size = max(vocab.values(), default=-1) + 1
            self.vocab_size = np.array([size], dtype=np.int64)
            chars = sorted((ord(token), i) for token, i in vocab.items() if len(token) == 1)
            self.char_codes = np.array([code for code, _ in chars], dtype=np.int32)
            self.char_ids = np.array([i for _, i in chars], dtype=np.int32)
            self.byte_ids = np.array([vocab.get(f"<0x{byte:02X}>", -1) for byte in range(256)], dtype=np.int32)
            # Machine integers, not an int object each: the file's parsed
            # vocabulary and merges are held meanwhile.
            keys, made = array("q"), array("q")
            for merge in model["merges"]:
                left, right = merge.split(" ") if isinstance(merge, str) else merge
                ids = vocab.get(left), vocab.get(right), vocab.get(left + right)
                if None in ids:
                    raise BpeUnavailable(f"{path}: the merge {merge!r} names a token not in its vocabulary")
                keys.append(ids[0] * size + ids[1])
                made.append(ids[2])
            del config, model, vocab, chars
            # A merge given twice keeps its first rank (its place in the file).
            self.merge_keys, first = np.unique(np.frombuffer(keys, dtype=np.int64), return_index=True)
            self.merge_ranks = first.astype(np.int32)
            self.merge_ids = np.frombuffer(made, dtype=np.int64)[first].astype(np.int32)
            del keys, made, first
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise BpeUnavailable(f"the tokenizer file {path} cannot be read: {error}") from error
        from feedtui.memory import give_back_freed_memory

        give_back_freed_memory()  # the parsed file's objects
        self._cache: dict[str, list[int]] = {}

    def _check(self) -> None:
        """Raises BpeUnavailable for tables that do not fit together (damaged)."""
        if (
            self.vocab_size.shape != (1,)
            or len(self.char_codes) != len(self.char_ids)
            or len(self.byte_ids) != 256
            or not len(self.merge_keys) == len(self.merge_ranks) == len(self.merge_ids)
        ):
            raise BpeUnavailable("the prepared tables do not fit together")

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
        # A character without a token is -(its code point + 1): in no merge.
        codes = np.fromiter(map(ord, piece), dtype=np.int32, count=len(piece))
        at = np.minimum(np.searchsorted(self.char_codes, codes), max(len(self.char_codes) - 1, 0))
        known = self.char_codes[at] == codes if len(self.char_codes) else np.zeros(len(codes), dtype=bool)
        symbols: list[int] = np.where(known, self.char_ids[at] if len(self.char_ids) else 0, -codes.astype(np.int64) - 1).tolist()
        size = int(self.vocab_size[0])
        keys_table, last = self.merge_keys, len(self.merge_keys) - 1
        while len(symbols) > 1 and last >= 0:
            current = np.asarray(symbols, dtype=np.int64)
            left, right = current[:-1], current[1:]
            keys = np.where((left >= 0) & (right >= 0), left * size + right, -1)
            at = np.minimum(np.searchsorted(keys_table, keys), last)
            hit = keys_table[at] == keys
            if not hit.any():
                break
            best = int(np.where(hit, self.merge_ranks[at], _NO_RANK).argmin())
            first, second, made = symbols[best], symbols[best + 1], int(self.merge_ids[at[best]])
            merged: list[int] = []
            i = 0
            while i < len(symbols):
                if i + 1 < len(symbols) and symbols[i] == first and symbols[i + 1] == second:
                    merged.append(made)
                    i += 2
                else:
                    merged.append(symbols[i])
                    i += 1
            symbols = merged
        ids: list[int] = []
        for symbol in symbols:
            if symbol >= 0:
                ids.append(symbol)
            else:
                ids += (max(int(self.byte_ids[byte]), 0) for byte in chr(-symbol - 1).encode())
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
