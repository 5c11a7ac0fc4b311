"""The embedding model: WordLlama's 256-dimension static token embeddings,
read straight from the files its wheel ships.

A text's vector is the mean of its tokens' embeddings, scaled to length 1:
what `WordLlamaInference.embed(texts, norm=True)` computes (average pooling
over the attention mask, then L2 normalization). `WordLlama.load()` is
never called: it looks for the tokenizer in a folder the wheel does not
have and then asks the network for it. Here both files are opened by path,
and nothing is downloaded, ever.

The weights are a safetensors file: an 8-byte little-endian header length,
a JSON header naming each tensor's dtype, shape and byte range, then the
data. The one tensor is mapped from the file rather than read into memory:
a question touches the rows of its few tokens only, so asking costs a few
pages, not 16 MB.
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import weakref
import zlib
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

MODEL_NAME = "wordllama-l2-supercat-256"
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
DIM = 256
# Texts tokenized at once (the tokenizer spreads a batch over the cores).
BATCH = 256
# Up to this many texts at once are tokenized in Python (see token_ids).
FEW_TEXTS = 512
# Distinct pieces whose token ids are kept while many texts are tokenized
# (about the vocabulary of 40,000 abstracts; a full dictionary is emptied
# and fills again with the words met next).
PIECES_KEPT = 1 << 16


def embedded_text(title: str, abstract: str) -> str:
    """What a paper's vector is of: its title and abstract as shown."""
    return f"{title}. {abstract}"


def text_crc(text: str) -> int:
    """What identifies a text a vector or a word index was made of."""
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


class ModelUnavailable(Exception):
    """The model's files are missing or damaged; the message says which and how."""


def model_files() -> tuple[Path, Path]:
    """(weights, tokenizer) of the installed wordllama package, found without
    importing it (its import sets up logging and loads more than is needed)."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable("the wordllama package is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    return root.joinpath(*WEIGHTS), root.joinpath(*TOKENIZER)


class Model:
    """Texts to unit vectors of DIM float32."""

    def __init__(self, weights: Path, tokenizer: Path, prepared: Path | None = None, *, few: bool = True) -> None:
        """`prepared`: where the Python tokenizer's tables are kept (see
        bpe.Bpe.load); without `few`, the model only ever embeds many texts
        at once (a refresh's), and the Python tokenizer is not loaded."""
        import numpy as np

        self.embedding, self._offset = _map_tensor(weights, np)
        self._weights = weights
        self._fd: int | None = None  # the weights file, opened for the first few texts embedded (see _rows)
        self._tokenizer_file = tokenizer
        self._library = None
        self._pieces: dict[str, bytes] = {}  # int32 ids by piece key (bpe.piece_keys)
        # Only a model that never embeds few texts (a parse worker's) keeps
        # its widened rows from one call to the next (see _WidenedRows).
        self._bulk_only = not few
        self._widened: _WidenedRows | None = None
        self.bpe = None
        if not few:
            self._library_tokenizer()  # raises ModelUnavailable for a damaged file
            return
        try:
            from feedtui.discovery.bpe import Bpe, BpeUnavailable

            self.bpe = Bpe.load(tokenizer, prepared)
        except BpeUnavailable:
            self.bpe = None
            self._library_tokenizer()  # raises ModelUnavailable for a damaged file

    def _rows(self, tokens: np.ndarray, np) -> np.ndarray:
        """The embedding rows of these tokens (float16) for a few texts, read
        from the file rather than through the mapping: a mapped row brings the
        pages around it into the process too (the kernel maps up to 64 KB
        around a page it faults in), megabytes for a question and the
        sentences Ask may quote."""
        if self._fd is None:
            self._fd = os.open(self._weights, os.O_RDONLY)
            weakref.finalize(self, os.close, self._fd)
        fd, width = self._fd, DIM * 2
        data = b"".join(os.pread(fd, width, self._offset + token * width) for token in tokens.tolist())
        if len(data) != len(tokens) * width:
            raise ModelUnavailable(f"the model file {self._weights} is shorter than its header says")
        return np.frombuffer(data, dtype=np.float16).reshape(len(tokens), DIM)

    @classmethod
    def load(cls, prepared: Path | None = None, *, few: bool = True) -> Model:
        return cls(*model_files(), prepared, few=few)

    def _library_tokenizer(self):
        """The `tokenizers` library's tokenizer, loaded when first needed."""
        if self._library is None:
            from tokenizers import Tokenizer

            try:
                tokenizer = Tokenizer.from_file(str(self._tokenizer_file))
            except Exception as error:  # the tokenizers library raises its own kinds
                raise ModelUnavailable(f"the tokenizer file {self._tokenizer_file} cannot be read: {error}") from error
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._library = tokenizer
        return self._library

    def token_ids(self, texts: list[str], few: bool = False) -> list[list[int]]:
        """Each text's token ids: by the Python tokenizer when `few` (a
        question, the sentences Ask may quote: loading the library would cost
        more than tokenizing them), else a piece at a time (see _piece_ids)."""
        if few and self.bpe is not None and len(texts) <= FEW_TEXTS:
            return [self.bpe.encode(text) for text in texts]
        import numpy as np

        return [np.frombuffer(self._piece_ids(text), dtype=np.int32).tolist() for text in texts]

    def _piece_ids(self, text: str) -> bytes:
        """The token ids of one of many texts, as int32 bytes: the text split
        into its pieces (a run of `▁` and the characters up to the next: see
        bpe.py for why merging the pieces apart gives the ids of merging the
        whole text), each distinct piece merged once, by the library's BPE
        model. The file has no pre-tokenizer, so the library would merge a
        whole abstract as one word, never found again in its cache: most of
        the time it took. A piece's ids are kept as bytes, joined in C."""
        if not text:
            return b""
        from feedtui.discovery.bpe import piece_keys

        keys = piece_keys(text)
        known = self._pieces
        found = list(map(known.get, keys))  # looked up in C; merged in Python only when new
        try:
            return b"".join(found)
        except TypeError:  # a piece not met yet (None)
            pass
        model = self._library_tokenizer().model
        last = self.embedding.shape[0] - 1  # an id past the table is its last row
        for at, key in enumerate(keys):
            if found[at] is None:
                ids = known.get(key)
                if ids is None:
                    ids = array("i", [min(token.id, last) for token in model.tokenize("▁" + key)]).tobytes()
                    if len(known) >= PIECES_KEPT:
                        known.clear()
                    known[key] = ids
                found[at] = ids
        return b"".join(found)

    def embed(self, texts: Sequence[str], *, few: bool = False) -> np.ndarray:
        """One unit vector per text (a text without tokens gets zeros); `few`
        for a few short texts (see token_ids). A vector is the sum of its
        tokens' rows, widened to float32, in the text's order, whichever way
        the rows are read: few texts and many get the very same vectors."""
        import numpy as np

        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if few:
            last = self.embedding.shape[0] - 1
            for start in range(0, len(texts), BATCH):
                encoded = [np.asarray(ids, dtype=np.int64) for ids in self.token_ids(list(texts[start : start + BATCH]), few)]
                if any(len(ids) and int(ids.max()) > last for ids in encoded):  # not in the table: its last row
                    encoded = [np.minimum(ids, last) for ids in encoded]
                for row, summed in enumerate(self._few_rows(encoded), start):
                    if summed is not None:
                        out[row] = summed
        else:
            rows = self._widened or _WidenedRows(self.embedding, np)
            if self._bulk_only:
                self._widened = rows
            for start in range(0, len(texts), BATCH):
                rows.sum_into(out, start, [self._piece_ids(text) for text in texts[start : start + BATCH]])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def _few_rows(self, encoded: list[np.ndarray]) -> Iterable[np.ndarray | None]:
        """Each text's tokens' rows summed (None for no tokens), each distinct
        token's row read once from the file (see _rows)."""
        import numpy as np

        for ids in encoded:
            if not len(ids):
                yield None
                continue
            tokens, where = np.unique(ids, return_inverse=True)
            yield _summed(self._rows(tokens, np).astype(np.float32)[where], np)


def _summed(rows: np.ndarray, np) -> np.ndarray:
    """The sum of `rows`, as one matrix-vector product (a third of the time
    of numpy's sum over the first axis)."""
    return _ones(len(rows), np) @ rows


_ONES: list = []


def _ones(count: int, np) -> np.ndarray:
    """`count` float32 ones: a view of one array, not a new one a text."""
    if not _ONES or len(_ONES[0]) < count:
        _ONES[:] = [np.ones(max(count, 4096), dtype=np.float32)]
    return _ONES[0][:count]


class _WidenedRows:
    """The rows of the tokens of many texts, summed per text, from a float32
    copy of the rows met so far: the float16 table is widened a row at a
    time, once, where widening each text's rows again was half of embedding
    it. Its untouched rows are never paged in."""

    def __init__(self, table: np.ndarray, np) -> None:
        self.table = table
        self.wide = np.zeros(table.shape, dtype=np.float32)
        self.ready = np.zeros(table.shape[0], dtype=bool)
        self.np = np

    def sum_into(self, out: np.ndarray, start: int, encoded: list[bytes]) -> None:
        """Each text's rows summed into `out[start + k]` (left as zeros for
        no tokens), from its token ids as int32 bytes (within the table)."""
        np = self.np
        every = np.frombuffer(b"".join(encoded), dtype=np.int32)
        new = every[~self.ready[every]]
        if len(new):
            new = np.unique(new)
            self.wide[new] = self.table[new]
            self.ready[new] = True
        take = self.wide.take
        at = 0
        for row, data in enumerate(encoded, start):
            count = len(data) >> 2
            if count:
                out[row] = _ones(count, np) @ take(every[at : at + count], axis=0)
                at += count


def _map_tensor(path: Path, np) -> tuple[np.ndarray, int]:
    """The embedding matrix of a safetensors file, mapped read-only, and
    where its data begins in the file."""
    try:
        with path.open("rb") as file:
            (size,) = struct.unpack("<Q", file.read(8))
            if not 2 <= size <= 1_000_000:
                raise ValueError(f"a header of {size} bytes")
            header = json.loads(file.read(size))
        tensor = header[TENSOR]
        rows, columns = tensor["shape"]
        begin, end = tensor["data_offsets"]
        if tensor["dtype"] != "F16" or columns != DIM or end - begin != rows * columns * 2:
            raise ValueError(f"{TENSOR} is {tensor['dtype']} {tensor['shape']}, not F16 [*, {DIM}]")
        if path.stat().st_size < 8 + size + end:
            raise ValueError("the file is shorter than its header says")
        mapped = np.memmap(path, dtype=np.float16, mode="r", offset=8 + size + begin, shape=(rows, columns))
        return mapped.view(np.ndarray), 8 + size + begin  # indexing a memmap costs more, per call
    except (OSError, ValueError, KeyError, TypeError, struct.error) as error:
        raise ModelUnavailable(f"the model file {path} cannot be read: {error}") from error
