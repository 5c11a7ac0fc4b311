"""Standard output for the one-shot commands, whose failures are its own.

A write to stdout that fails (`feedtui topics > /dev/full`, a file system
gone read-only) raised the same OSError as a data directory that cannot be
read, and the command blamed the data directory. Here such an error becomes
an OutputError; a reader that left (BrokenPipeError) stays what it is.

In a locale whose encoding lacks a character (ISO-8859-1, ASCII), text is
written as well as that encoding can: the symbols feedtui itself prints get
ASCII stand-ins, other characters their plain form (𝓞 → O) or a `?` (see
`readable_in`).
"""

from __future__ import annotations

import codecs
import os
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class OutputError(OSError):
    """Writing the command's output failed; the data directory is not at fault."""


# The symbols feedtui prints (● unread, ★ starred, a chart's eighth blocks,
# the punctuation of its sentences), for an output whose encoding lacks them.
_STAND_INS = {
    "●": "o", "★": "*", "▁": "_", "▂": "_", "▃": "_", "▄": "=", "▅": "=", "▆": "=", "▇": "=", "█": "#",
    "—": "-", "–": "-", "…": "...", "·": ".", "→": "->", "×": "x", "‘": "'", "’": "'", "“": '"', "”": '"',
}
_READABLE = "feedtui-readable"


def _stand_in(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    lacking = error.object[error.start : error.end]
    return "".join(_stand_in_for(character, error.encoding) for character in lacking), error.end


def _stand_in_for(character: str, encoding: str) -> str:
    """feedtui's stand-in, else the character's plain form (𝓞 → O, é → e), else `?`."""
    if character in _STAND_INS:
        return _STAND_INS[character]
    plain = "".join(c for c in unicodedata.normalize("NFKD", character) if not unicodedata.combining(c))
    try:
        plain.encode(encoding)
    except UnicodeError:
        return "?"
    return plain or "?"


codecs.register_error(_READABLE, _stand_in)


def readable_in(text: str, encoding: str) -> str:
    """`text` as `encoding` can write it: what it lacks of feedtui's symbols as
    their ASCII stand-ins, other characters it lacks in their plain form, or `?`."""
    return text.encode(encoding, _READABLE).decode(encoding)


def takes_any_character(stream: TextIO) -> bool:
    """Does `stream`'s encoding write every character (UTF-8), not only a
    locale's few (ISO-8859-1, ASCII)?"""
    try:
        "\u25cf\U0001d4aa".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


@contextmanager
def _as_output_error() -> Iterator[None]:
    """An OSError inside is an OutputError, but for a reader that left."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError(error.errno, error.strerror) from error


class GuardedOutput:
    """A text stream whose write and flush errors are OutputErrors, and which
    writes what its encoding lacks as `readable_in` does."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with _as_output_error():
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:  # raised before anything was written
                return self._stream.write(readable_in(text, self._stream.encoding))

    def write_bytes(self, data: bytes) -> None:
        """`data` as it is, after the text written so far: a file format's own encoding."""
        self.flush()
        with _as_output_error():
            self._stream.buffer.write(data)
            self._stream.buffer.flush()

    def flush(self) -> None:
        with _as_output_error():
            self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def guarded_stdout() -> Iterator[None]:
    """sys.stdout as a GuardedOutput for the duration."""
    stream = sys.stdout
    sys.stdout = GuardedOutput(stream)
    try:
        yield
    finally:
        sys.stdout = stream


def discard_output() -> None:
    """What is still buffered for stdout goes nowhere: the exit's own flush
    would fail again, or write to a reader that left, and say so in a
    traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
