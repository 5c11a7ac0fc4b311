"""Standard output for the one-shot commands, whose failures are its own.

A write to stdout that fails (`feedtui topics > /dev/full`, a file system
gone read-only) raised the same OSError as a data directory that cannot be
read, and the command blamed the data directory. Here such an error becomes
an OutputError; a reader that left (BrokenPipeError) stays what it is.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class OutputError(OSError):
    """Writing the command's output failed; the data directory is not at fault."""


class GuardedOutput:
    """A text stream whose write and flush errors are OutputErrors."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.errno, error.strerror) from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.errno, error.strerror) from error

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
