"""One lock per data directory, held only while a file is being rewritten.

Several feedtui processes may share a data directory (the TUI open in one
terminal, `feedtui read …` in another). Readers never lock: every file is
replaced atomically, so a reader sees the old or the new version. Writers take
this lock, re-read what changed on disk, apply their changes, write, and
release — so no process's write is lost. If the lock cannot be had within the
timeout, the error names the process that holds it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from feedtui.store.files import StoreError, describe_os_error


class LockTimeoutError(StoreError):
    pass


class DataDirLock:
    def __init__(self, directory: Path, *, timeout: float = 15.0) -> None:
        self.path = directory / ".lock"
        self.holder_path = directory / ".lock-holder"
        self.timeout = timeout
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> DataDirLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def acquire(self, purpose: str = "", *, timeout: float | None = None) -> None:
        """Take the lock, waiting up to `timeout` seconds (default: the lock's own)."""
        wait = self.timeout if timeout is None else timeout
        # Threads of this process wait for each other for as long as it takes
        # unless told otherwise; only other processes are timed out.
        if not self._thread_lock.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
            raise LockTimeoutError(f"another thread of this process holds the database in {self.path.parent}")
        if self._depth:
            self._depth += 1
            return
        try:
            # Read-only is enough for flock, and lets a read-only directory
            # report the write that fails rather than the lock.
            fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o600)
        except OSError as error:
            self._thread_lock.release()
            raise StoreError(f"could not save in {self.path.parent}: {describe_os_error(error)}") from error
        import fcntl  # here, not at the top: POSIX only, and `feedtui --help` answers without it

        deadline = time.monotonic() + wait
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    self._thread_lock.release()
                    raise LockTimeoutError(
                        f"another feedtui process ({self._holder()}) has held the database in "
                        f"{self.path.parent} for more than {wait:g} s; "
                        "close it or try again"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        self._fd = fd
        self._depth = 1
        try:
            self.holder_path.write_text(f"pid {os.getpid()} {purpose}".strip())
        except OSError:
            pass

    def release(self) -> None:
        if not self._depth:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            import fcntl

            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        self._thread_lock.release()

    def _holder(self) -> str:
        try:
            return self.holder_path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"
