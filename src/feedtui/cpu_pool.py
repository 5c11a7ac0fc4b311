"""CPU-bound work off the event loop, on every core when it pays.

Parsing and tagging are pure-Python CPU work (about a millisecond per arXiv
entry), so threads would only take turns with the event loop and the UI.
Large jobs go to worker processes; small ones run in a thread, which costs
less than the round trip to a worker.

On Linux the workers are forked after the initializer ran here, so they start
with the modules imported and the topic matchers compiled (a forkserver or
spawned worker pays a second or more for that on a slow machine). A forked
worker runs only the task: its signal handlers are reset so a terminal resize
or Ctrl+C meant for the app never runs the app's handlers in the worker, and
CPython re-initialises the import lock in the child. A worker also ends by
itself once the app is gone: `kill -9` gives the app no chance to shut its
pool down, and orphaned workers would otherwise wait for work forever.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from feedtui.memory import gc_paused

# Jobs smaller than this (in bytes of input) run in a thread of this process.
POOL_MIN_BYTES = 64 * 1024
# How often a worker checks that the app that started it is still there.
ORPHAN_CHECK_SECONDS = 0.5


_tokens = itertools.count(1)

# Pools closed without waiting, and the threads shutting them down: see `finish_closing`.
_closing: list[tuple[threading.Thread, ProcessPoolExecutor]] = []
_closing_lock = threading.Lock()
# Pools whose workers run and that are not closed yet (an Ask index built
# in a thread the app does not wait for): `finish_closing` stops them, and
# after it no pool gets workers.
_open: weakref.WeakSet[CpuPool] = weakref.WeakSet()
_exiting = False

# The pid of the process that forks the workers, as the workers find it in
# their copy of memory: asking os.getppid() once they run would be too late
# when the app was killed between the fork and the worker's first step (the
# worker would then watch its new parent, init, for ever).
_forking_parent = 0


def next_token() -> int:
    """A number naming one pool's worker state (see topics.tagging.register_topics)."""
    return next(_tokens)


def usable_cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class CpuPool:
    """Runs `task(*args)`; `initializer(*initargs)` prepares each process (and this
    one, before the first job run in a thread)."""

    def __init__(
        self,
        task: Callable[..., Any],
        *,
        initializer: Callable[..., None] | None = None,
        initargs: tuple = (),
        preload: Sequence[str] = (),
        workers: int | None = None,
        nice: int = 0,
    ) -> None:
        """`nice`: added to the workers' niceness, for work that should only
        take what the others leave free of the cores."""
        self.task = task
        self.nice = nice
        self.initializer = initializer
        self.initargs = initargs
        self.preload = list(preload)
        self.workers = workers if workers is not None else min(usable_cores(), 4)
        self._pool: ProcessPoolExecutor | None = None
        self._local_ready = False
        self._local_lock = threading.Lock()
        self._starter: threading.Thread | None = None
        self._closed = False
        self._pool_lock = threading.Lock()
        # Held only to set `_closed` or `_pool`, never while a pool is made:
        # `close` (on the event loop) never waits for a fork.
        self._swap_lock = threading.Lock()
        # Jobs running in threads of this process, and whether the workers are
        # being forked: the two never overlap (see `_executor`).
        self._jobs_here = 0
        self._forking = False
        self._jobs = threading.Condition()

    async def run(self, size: int, *args: Any) -> Any:
        if self.workers < 2 or size < POOL_MIN_BYTES:
            return await asyncio.to_thread(self._run_here, *args)
        executor = await self._ready_executor()
        if executor is None:  # closed meanwhile: the last jobs run here
            return await asyncio.to_thread(self._run_here, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, _run_paused, self.task, *args)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): do it here instead.
            self._pool = None
            return await asyncio.to_thread(self._run_here, *args)

    def start(self, *, fork: bool = False, then: Callable[[], None] | None = None) -> None:
        """Prepare this process (imports, the initializer) for the jobs to come,
        now, in a background thread. A refresh calls this while its requests
        are out, so the preparation overlaps the wait for the first
        answer instead of following it. The workers are forked by the first
        large job, so that a refresh of small bodies forks none; with `fork`
        (large jobs are known to come), as soon as this process is prepared,
        so that the first large job finds them ready on Linux instead of
        waiting for the fork. `then` is called in that thread once it is done
        (another pool's start, say, that should not compete with this one's)."""
        if self._starter is None and not self._local_ready:
            self._starter = threading.Thread(
                target=self._prepare_quietly, args=(fork, then), name="feedtui-pool-start", daemon=True
            )
            self._starter.start()
        elif then is not None:
            then()

    def _prepare_quietly(self, fork: bool = False, then: Callable[[], None] | None = None) -> None:
        try:
            self._prepare_here()
            if fork and self.workers >= 2 and sys.platform == "linux":
                self._executor()
        except Exception:  # the first job prepares again, and that failure is reported
            pass
        if then is not None:
            then()

    async def _ready_executor(self) -> ProcessPoolExecutor | None:
        """The process pool for `run`, made in a thread: preparing and forking
        may wait, and the event loop (the app's UI) never does. None once closed."""
        pool = self._pool
        if pool is None:
            pool = await asyncio.to_thread(self._executor)
        return pool

    def map_blocking(self, calls: Sequence[tuple]) -> list[Any]:
        """Run `task(*call)` for every call on the workers and wait (for a thread
        that may block: the CLI, or the TUI's worker threads)."""
        if self.workers < 2 or len(calls) < 2:
            return [self._run_here(*call) for call in calls]
        executor = self._executor()
        if executor is None:
            if _exiting:
                raise BrokenProcessPool("the process is ending")
            return [self._run_here(*call) for call in calls]
        try:
            futures = [executor.submit(_run_paused, self.task, *call) for call in calls]
            return [future.result() for future in futures]
        except BrokenProcessPool:
            self._pool = None
            if self._closed or _exiting:  # stopped by `finish_closing`: the process ends, nobody wants the results
                raise
            return [self._run_here(*call) for call in calls]

    def _run_here(self, *args: Any) -> Any:
        self._prepare_here()
        with self._jobs:
            while self._forking:
                self._jobs.wait()
            self._jobs_here += 1
        try:
            return self.task(*args)
        finally:
            with self._jobs:
                self._jobs_here -= 1
                self._jobs.notify_all()

    def _executor(self) -> ProcessPoolExecutor | None:
        """The process pool, made on first use (this may block); None once
        closed. A pool made while `close` ran is shut down, not kept: nothing
        would shut it down later."""
        with self._pool_lock:
            if self._pool is None and not self._closed and not _exiting:
                self._prepare_here()
                if sys.platform == "linux":
                    pool = self._forked_pool()
                else:
                    pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_prepare_spawned,
                        initargs=(self.preload, self.initializer, self.initargs, self.nice),
                    )
                with self._swap_lock, _closing_lock:
                    kept = not (self._closed or _exiting)
                    if kept:
                        self._pool = pool
                        _open.add(self)
                if not kept:
                    if _exiting:  # made as the process ends: its jobs are wanted no more
                        _stop_workers(pool)
                    _shut_down_later(pool)
            return self._pool

    def _forked_pool(self) -> ProcessPoolExecutor:
        """Fork the workers once no job runs in a thread here, and hold new ones
        back meanwhile. A job may import a module lazily (feedparser, a codec):
        a worker forked while a thread is inside that import inherits the
        module's lock held by a thread it does not have, and would wait on it
        for ever the first time it needed the module."""
        global _forking_parent
        _forking_parent = os.getpid()
        with self._jobs:
            self._forking = True
            while self._jobs_here:
                self._jobs.wait()
        try:
            pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_prepare_forked,
                initargs=(self.nice,),
            )
            pool.submit(_nothing)  # the first job forks every worker, now
            return pool
        finally:
            with self._jobs:
                self._forking = False
                self._jobs.notify_all()

    def _prepare_here(self) -> None:
        with self._local_lock:
            if not self._local_ready and not self._closed:
                for module in self.preload:
                    importlib.import_module(module)
                if self.initializer is not None:
                    self.initializer(*self.initargs)
                self._local_ready = True

    def close(self) -> ProcessPoolExecutor | None:
        """Shut the workers down, without waiting for them (a thread does, and
        `finish_closing` waits for it); a preparation not begun yet never will
        be. Returns the executor being shut down, if there was one."""
        with self._swap_lock:
            self._closed = True
            pool, self._pool = self._pool, None
        with _closing_lock:
            _open.discard(self)
        if pool is not None:
            _shut_down_later(pool)
        return pool

    def after_preparing(self, undo: Callable[..., None], *args: Any) -> None:
        """`undo(*args)` once no preparation is under way (it blocks: call it in
        a thread). After `close`, that undoes the initializer for good, even when
        a thread was still running it."""
        with self._local_lock:
            undo(*args)


def _shut_down_later(pool: ProcessPoolExecutor) -> None:
    """Shut `pool` down in a thread of its own (its jobs under way finish,
    the others are cancelled); `finish_closing` waits for it."""
    closer = threading.Thread(
        target=pool.shutdown, kwargs={"wait": True, "cancel_futures": True}, name="feedtui-pool-close", daemon=True
    )
    closer.start()
    with _closing_lock:
        _closing[:] = [(thread, closed) for thread, closed in _closing if thread.is_alive()]
        _closing.append((closer, pool))


def finish_closing(timeout: float = 2.0) -> bool:
    """Wait (up to `timeout` seconds) for the pools closed so far to shut
    down; the workers of one still busy then are stopped, their results being
    wanted no more, and so are the workers of pools not closed yet; after
    it, no pool gets workers (jobs asked of one are refused). False when a
    closed one's had to be. Called before the process
    exits: on Python 3.11, an executor still shutting down at exit races the
    interpreter's own wake-up of its manager thread, which then writes to a
    pipe just closed and prints a traceback ("OSError: [Errno 9] Bad file
    descriptor" in `_python_exit`) after the command's last word."""
    global _exiting
    deadline = time.monotonic() + timeout
    with _closing_lock:
        _exiting = True
        left_open = list(_open)
    for open_pool in left_open:
        # Nobody waits for their jobs any more (the thread that does is
        # a daemon, about to end with the process): stopped at once.
        executor = open_pool.close()
        if executor is not None:
            _stop_workers(executor)
    with _closing_lock:
        closing = list(_closing)
        _closing.clear()
    finished = True
    for closer, pool in closing:
        closer.join(max(0.0, deadline - time.monotonic()))
        if closer.is_alive():
            finished = False
            _stop_workers(pool)
            closer.join(1.0)
    return finished


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _run_paused(task: Callable[..., Any], *args: Any) -> Any:
    """A job in a worker: it builds thousands of short-lived objects and hands
    them back, so cyclic collections during it would only walk them in vain."""
    with gc_paused():
        return task(*args)


def _nothing() -> None:
    pass


def _prepare_forked(nice: int = 0) -> None:
    _quiet_signals()
    _end_with_parent(_forking_parent)
    _be_nicer(nice)
    # What the worker inherited (modules, compiled topics, the app's data)
    # lives as long as it does: keep the collector from walking it, and from
    # touching its pages (which would copy them from the parent).
    gc.freeze()


def _end_with_parent(parent: int = 0) -> None:
    """End this worker when the process that started it (`parent`, else the
    current parent) is gone: it is then re-parented, so its parent pid changes."""
    parent = parent or os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="feedtui-parent-watch", daemon=True).start()


def _quiet_signals() -> None:
    for name in ("SIGINT", "SIGTERM", "SIGWINCH", "SIGTSTP", "SIGCONT", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:
        pass


def _be_nicer(nice: int) -> None:
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the work is done at the usual priority
            pass


def _prepare_spawned(preload: Sequence[str], initializer: Callable[..., None] | None, initargs: tuple, nice: int = 0) -> None:
    _end_with_parent()
    _be_nicer(nice)
    for module in preload:
        importlib.import_module(module)
    if initializer is not None:
        initializer(*initargs)
