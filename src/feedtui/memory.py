"""Keeping Python's cyclic garbage collector out of bulk work, and giving
back what bulk work leaves."""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection while tens of thousands of small lists and tuples
    are built: each collection would walk all of them again (it triples the
    time of loading a 40,000-paper index). Reference counting still frees
    everything that is dropped.

    Pauses nest and may overlap across threads (a refresh pauses while its
    store, in a thread, pauses too): the collector runs again once the last
    one ends, and only if it was running before the first began."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


def give_back_freed_memory() -> None:
    """Hand the C heap's free pages back to the system (glibc's malloc_trim).

    A store rewrites whole weeks, and new papers dated over every week of a
    large cache make it read all of them: the process grows by hundreds of
    megabytes, and once the store has dropped them malloc keeps nearly all of
    it for reuse (a collection does not help), for as long as the reader runs.
    The trim hands it back, and is cheap next to the store it follows. Where
    the C library has no malloc_trim (musl, macOS) this does nothing."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes  # only once a store has run: no command's start-up pays for it

    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None


# glibc's mallopt parameter for the most heaps ("arenas") malloc keeps.
_M_ARENA_MAX = -8


def drop_mapped_pages(mapping, start: int = 0, stop: int | None = None, *, whole_pages_only: bool = False) -> None:
    """Drop from this process's memory the pages of a read-only file mapping
    (an mmap.mmap) that bytes [start, stop) lie on, or with `whole_pages_only`
    those wholly inside them: the kernel maps pages around each one read, and
    reads them again from the file's cache if they are used again. Where that
    cannot be done the pages stay: more memory, the same data."""
    import mmap

    if not hasattr(mapping, "madvise"):
        return
    page = mmap.PAGESIZE
    stop = len(mapping) if stop is None else min(stop, len(mapping))
    if whole_pages_only:
        first, last = -(-start // page) * page, stop // page * page
    else:
        first, last = start // page * page, min(-(-stop // page) * page, len(mapping))
    if last > first:
        try:
            mapping.madvise(mmap.MADV_DONTNEED, first, last - first)
        except OSError:
            pass


def one_heap() -> None:
    """Have every thread allocate from one C heap from now on (glibc's
    M_ARENA_MAX of 1). glibc gives threads heaps of their own, and memory
    freed in one is reused only by the threads that allocate from it: a
    refresh reads a part of its papers in one thread and stores it in
    another, so each part grew the process by most of what the part before
    left free in another heap. Python allocates under the interpreter lock,
    so threads hardly contend for the one heap. Called by a command that
    stores papers before any thread starts: a heap a thread already has
    stays its own. Where the C library has no mallopt this does nothing."""
    import ctypes

    try:
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 1)
    except (AttributeError, OSError):
        pass


class IdleCollector:
    """Full collections only while the reader is idle.

    Python collects its oldest generation on its own now and then, and in the
    app that walks every card layout and Textual strip alive (tens of
    thousands of small caches): a freeze, long enough to see, in the middle
    of scrolling. Here the automatic full collections are
    switched off (the young generations are collected as described below);
    the app calls `tick()` every second and the full collection
    runs once no key or mouse event came for `idle_s` — or, so memory stays
    bounded under endless activity, once `force_after` collections of the
    middle generation (each after about ten of the youngest) have piled up
    without one: about 5,000 keys, or, with no pause between keys for the
    young collections below, some 50 million allocations.

    The young generations are collected between keys too: each input
    (re)starts a `young_after_s` countdown, and when it runs out (the frame
    long painted, no key since) they are collected there, so the next key
    finds them empty. The youngest generation's threshold is raised to
    `young_threshold` while the app runs, so that a key's own allocations
    (one to two thousand objects) rarely set a collection off: otherwise
    collections of the youngest generation run inside every key's
    processing, and one of the middle generation every few keys.

    Written for CPython's three-generation collector (3.11–3.13), whose
    thresholds and counts mean what is said here.
    """

    # The oldest generation's threshold: never reached.
    OFF = 2**30

    def __init__(
        self,
        idle_s: float = 2.0,
        force_after: int = 500,
        clock: Callable[[], float] = time.monotonic,
        *,
        young_after_s: float = 0.03,
        young_threshold: int = 10_000,
    ) -> None:
        self.idle_s = idle_s
        self.force_after = force_after
        self.clock = clock
        self.young_after_s = young_after_s
        self.young_threshold = young_threshold
        self.full_collections = 0
        self.young_collections = 0
        self._last_input = clock()
        self._saved: tuple[int, int, int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._young: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Take over the thresholds; call it from the event loop that
        delivers input (collections between keys are scheduled there)."""
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(max(self._saved[0], self.young_threshold), self._saved[1], self.OFF)
            try:
                self._loop = asyncio.get_running_loop()
            except RuntimeError:
                self._loop = None

    def stop(self) -> None:
        """Give the collector back its own thresholds."""
        if self._young is not None:
            self._young.cancel()
            self._young = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def quiet_for(self) -> float:
        """Seconds since the last key or mouse event."""
        return self.clock() - self._last_input

    def input_seen(self) -> None:
        self._last_input = self.clock()
        if self._loop is not None and self._saved is not None:
            if self._young is not None:
                self._young.cancel()
            self._young = self._loop.call_later(self.young_after_s, self.collect_young)

    def collect_young(self) -> None:
        """Collect the youngest generation, and the middle one when it is
        next due (as often as Python would, only now instead of mid-key)."""
        self._young = None
        if not gc.isenabled():
            return  # inside a gc_paused() section: its objects stay out of the collector's way
        young, middle, _ = gc.get_count()
        if not young and not middle:
            return
        gc.collect(1 if middle + 1 >= gc.get_threshold()[1] else 0)
        self.young_collections += 1

    def tick(self) -> bool:
        """Collect everything if now is the moment; True when it did."""
        if not gc.isenabled():
            return False  # inside a gc_paused() section, as in collect_young
        pending = gc.get_count()[2]  # middle-generation collections since the last full one
        if not pending:
            return False
        if pending < self.force_after and self.clock() - self._last_input < self.idle_s:
            return False
        gc.collect()
        self.full_collections += 1
        return True


def _after_fork_in_child() -> None:
    """A forked worker starts with no pause of its own: the pause it inherited
    belongs to its parent (and another thread may have held the lock).

    What the parent built during its pause is frozen before collection comes
    back on: the young generation still counts all of it, so the child's first
    allocation would otherwise walk it all, copying every page it touches."""
    global _lock, _depth
    _lock = threading.Lock()
    if _depth and _was_enabled:
        gc.freeze()
        gc.enable()
    _depth = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
