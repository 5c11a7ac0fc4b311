"""Crash-safe file writes and the errors the store reports to users."""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

# Temporary files this process is writing right now: another part of the same
# process cleaning up after a crash must not take them for leftovers.
_writing: set[str] = set()
_writing_lock = threading.Lock()
# Directories whose fsync `directory_syncs_batched` holds back, per thread.
_held = threading.local()


class StoreError(Exception):
    """A problem with feedtui's files, worded for the user."""


class DamagedFileError(StoreError):
    """A database file could not be read; `backup` is where the damaged copy was kept."""

    def __init__(self, path: Path, reason: str, backup: Path | None = None) -> None:
        self.path = path
        self.reason = reason
        self.backup = backup
        kept = f"; the damaged file was kept as {backup}" if backup else ""
        super().__init__(f"{path} is damaged ({reason}){kept}")


class WriteFailedError(StoreError):
    """Saving failed (disk full, read-only directory, …); nothing on disk was replaced."""

    def __init__(self, path: Path, error: OSError) -> None:
        self.path = path
        self.error = error
        super().__init__(f"could not save {path}: {describe_os_error(error)}")


def describe_os_error(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return "the disk is full"
    if error.errno in (errno.EROFS,):
        return "the file system is read-only"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.EDQUOT:
        return "the disk quota is exceeded"
    return error.strerror or str(error)


def remove_quietly(path: Path) -> None:
    """Remove `path` if it can be (a file left behind is harmless, or is
    cleared up later)."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def atomic_write(
    path: Path, data: bytes | Iterable[bytes], *, sync: bool = True, mode: int = 0o600, exact_mode: bool = False
) -> None:
    """Replace `path` with `data` (bytes, or chunks of them written in turn)
    so that a crash at any moment leaves either the old file or the new one:
    write a temporary file beside it, fsync it, rename it over the target,
    fsync the directory. Raises WriteFailedError.

    Without `sync`, no fsync: a process killed at any moment still leaves the old
    file or the new one, but after a power loss the file may be old, missing,
    empty or cut short — only for files that check themselves when read.

    `mode` is the new file's permissions, less the umask (the data directory's
    files are the user's alone; an export is as any file the user writes);
    with `exact_mode`, `mode` as it is (a file replaced keeps its own)."""
    directory = path.parent
    temp = directory / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    with _writing_lock:
        _writing.add(str(temp))
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            if exact_mode:
                os.fchmod(fd, mode)
            for chunk in (data,) if isinstance(data, bytes | bytearray) else data:
                view = memoryview(chunk)
                while view:
                    written = os.write(fd, view)
                    view = view[written:]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except OSError as error:
        remove_quietly(temp)
        raise WriteFailedError(path, error) from error
    except BaseException:  # the chunks failed to be made: the old file stays
        remove_quietly(temp)
        raise
    finally:
        with _writing_lock:
            _writing.discard(str(temp))
    if sync:
        held = getattr(_held, "directories", None)
        if held is None:
            fsync_directory(directory)
        else:
            held.add(directory)


@contextmanager
def directory_syncs_batched() -> Iterator[None]:
    """`atomic_write`s in this block (on this thread) fsync each file as usual
    but each directory once, when the block ends (also on an error): files
    replaced together, like a store's weekly shards, are all durable when it
    ends, as each would be on its own, for one directory fsync instead of one
    per file. Nested blocks leave it to the outermost."""
    if getattr(_held, "directories", None) is not None:
        yield
        return
    _held.directories = directories = set()
    try:
        yield
    finally:
        _held.directories = None
        for directory in directories:
            fsync_directory(directory)


def keep_aside(path: Path) -> Path:
    """Rename a damaged file to `<name>.damaged-<time>` beside it (never over an
    earlier one) and return the new path. Raises OSError."""
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while kept.exists():
        number += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    os.replace(path, kept)
    return kept


def fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(directory: Path) -> None:
    """Temporary files left by a writer that was killed mid-write: those of
    processes that are gone, and those of this process's pid that it is not
    writing (a dead process's pid can be reused)."""
    if not directory.is_dir():
        return
    for temp in directory.glob(".*.tmp"):
        try:
            pid = int(temp.name.split(".")[-3])
        except (ValueError, IndexError):
            continue
        if pid == os.getpid():
            with _writing_lock:
                stale = str(temp) not in _writing
        else:
            stale = not process_alive(pid)
        if stale:
            try:
                temp.unlink()
            except OSError:
                pass


def process_alive(pid: int) -> bool:
    """Is process `pid` still running (one of another user's counts as running)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def file_signature(path: Path) -> tuple[int, int, int] | None:
    """What changes when another process replaces the file: inode, size, mtime."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
