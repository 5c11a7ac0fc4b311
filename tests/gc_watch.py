"""Watching the cyclic garbage collector from a test."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import CodeType


@contextmanager
def collections_started(*, within: CodeType | None = None) -> Iterator[list[int]]:
    """The generations of the collections that start inside the block.

    The collector is on for the block, its youngest generation emptied first
    (so a collection cannot be due at the very start), and put back as it was
    afterwards. With `within`, only collections that start while that code
    runs (it is on the stack) count."""
    started: list[int] = []

    def watch(phase: str, info: dict) -> None:
        if phase == "start" and (within is None or _on_stack(sys._getframe(1), within)):
            started.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.enable()
    gc.collect()
    gc.callbacks.append(watch)
    try:
        yield started
    finally:
        gc.callbacks.remove(watch)
        if was_enabled:
            gc.enable()
        else:
            gc.disable()


def _on_stack(frame, code: CodeType) -> bool:
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False
