"""Keeping Python's cyclic garbage collector out of bulk loads."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection while tens of thousands of small lists and tuples
    are built: each collection would walk all of them again (it triples the
    time of loading a 40,000-paper index). Reference counting still frees
    everything that is dropped."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
