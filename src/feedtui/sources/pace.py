"""The arXiv lane across processes: one request at a time, and the pause kept
even when a refresh is killed and started again.

A `PacedLane` inside one process knows when it may next send a request to
arXiv. A new process does not: without help, a refresh interrupted and
restarted (or the TUI and `feedtui refresh` running at once) would send its
first arXiv request at once, however recently the previous one left. So the
lane keeps its turn in a small file in the data directory:

- a turn takes an exclusive `flock` on the file and holds it until the
  request is over, so two processes never have requests to arXiv in flight
  at the same time (the kernel drops the lock of a killed process);
- the file holds the wall-clock moment before which no request may start
  (`not_before`) and when that was written. It is written when a request
  starts (pessimistically: start + interval, in case the process dies before
  the answer), when it ends (answer + interval) and when a Retry-After holds
  the lane. A Retry-After longer than feedtui waits for is kept as well
  (`held_until`): until then every process fails its arXiv requests at once
  instead of sending them or sleeping on them.

A hold never waits for another process's turn, which can last minutes (that
process may be sleeping out a Retry-After of its own): when the lock is taken,
the hold goes to a second file beside the first (`arxiv-pace.holds.json`,
locked only while it is read or written), and the next turn, of any process,
takes it into its pause and empties that file.

A record written "in the future" means the clock went backwards since: it is
not trusted, and the lane waits one interval to be safe. A file that cannot
be read or written never stops a refresh: the lane then paces this process
only.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

# How often a process waiting for another one's arXiv request looks again.
POLL_SECONDS = 0.05


class SharedPace:
    def __init__(self, path: Path) -> None:
        self.path = path
        # Holds written while another process had its turn (see the module's doc).
        self.holds_path = path.with_name(f"{path.stem}.holds{path.suffix}")
        self._fd: int | None = None
        # Wall-clock moment before which arXiv asked not to be asked at all, as
        # last read from or written to the file (0 when none).
        self.held_until = 0.0

    async def take_turn(self, interval: float) -> float:
        """Wait for the lane to be free of other processes and take it; returns
        how many more seconds to wait (from now) before sending."""
        fd = self._open()
        if fd is None:
            return 0.0
        if not await _lock(fd):
            os.close(fd)
            return 0.0
        self._fd = fd
        return self._wait_from_record(fd, interval)

    def record(self, not_before_wall: float) -> None:
        """Remember that no request may start before this wall-clock moment."""
        if self._fd is not None:
            _write(self._fd, not_before_wall, self.held_until)
            return
        with _locked(self.path, wait=False) as fd:
            if fd is None:  # another process is in its turn and will write its own
                return
            current = _read_or_none(fd)
            if current is None or current[1] < not_before_wall:
                _write(fd, not_before_wall, max(self.held_until, current[2] if current else 0.0))

    async def hold(self, not_before_wall: float, held_until_wall: float) -> None:
        """Remember a Retry-After: no request before `not_before_wall`, and none
        even tried before `held_until_wall` (0 when the wait is being waited out).

        Unlike record(), this does not leave the file to another process in its
        turn, which does not know of the hold: it goes into the holds file, for
        the next turn to take (waiting for that turn to end took minutes)."""
        self.held_until = max(self.held_until, held_until_wall)
        if self._fd is not None:
            _write(self._fd, not_before_wall, self.held_until)
            return
        with _locked(self.path, wait=False) as fd:
            if fd is not None:
                _merge_into(fd, not_before_wall, self.held_until)
                return
        with _locked(self.holds_path, wait=True) as fd:  # another process is in its turn
            if fd is not None:
                _merge_into(fd, not_before_wall, self.held_until)

    def end_turn(self) -> None:
        self._close()

    def _open(self) -> int | None:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return None

    def _close(self) -> None:
        if self._fd is not None:
            import fcntl  # here, not at the top: POSIX only, and `feedtui --help` answers without it

            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None

    def _wait_from_record(self, fd: int, interval: float) -> float:
        self._take_holds_aside(fd)
        now = time.time()
        try:
            record = _read(fd)
        except ValueError:  # half written by a process killed at that instant
            return interval
        if record is None:
            return 0.0
        written, not_before, held_until = record
        if written > now + 1.0:  # the clock went backwards since
            return interval
        self.held_until = max(self.held_until, held_until)
        return max(0.0, not_before - now)

    def _take_holds_aside(self, fd: int) -> None:
        """Move what the holds file has into the record (`fd`, this turn's), and empty it."""
        if not self.holds_path.exists():
            return
        with _locked(self.holds_path, wait=True) as holds:
            if holds is None:
                return
            held = _read_or_none(holds)
            if held is not None and held[0] <= time.time() + 1.0:  # else the clock went back: not trusted
                _merge_into(fd, held[1], held[2])
            with suppress(OSError):
                os.ftruncate(holds, 0)


def _write(fd: int, not_before_wall: float, held_until_wall: float = 0.0) -> None:
    record = {"written": time.time(), "not_before": not_before_wall}
    if held_until_wall > time.time():
        record["held_until"] = held_until_wall
    data = json.dumps(record).encode()
    try:
        os.pwrite(fd, data, 0)
        os.ftruncate(fd, len(data))
    except OSError:
        pass


@contextmanager
def _locked(path: Path, *, wait: bool) -> Iterator[int | None]:
    """The file, opened and locked; None when it cannot be, or (without
    `wait`) when another process holds the lock. `wait` is for the holds
    file only: it is never locked for longer than a read and a write."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield None
        return
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        yield None
        return
    try:
        yield fd
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _merge_into(fd: int, not_before_wall: float, held_until_wall: float) -> None:
    """Write a hold into a locked record, keeping any later moment it has."""
    current = _read_or_none(fd)
    if current is not None:
        not_before_wall = max(not_before_wall, current[1])
        held_until_wall = max(held_until_wall, current[2])
    _write(fd, not_before_wall, held_until_wall)


async def _lock(fd: int) -> bool:
    """Take the file's exclusive lock, waiting for another process to let go of
    it; False when it cannot be locked at all."""
    import fcntl

    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            await asyncio.sleep(POLL_SECONDS)
        except OSError:
            return False


def _read_or_none(fd: int) -> tuple[float, float, float] | None:
    """As _read, with a garbled record read as none."""
    try:
        return _read(fd)
    except ValueError:
        return None


def _read(fd: int) -> tuple[float, float, float] | None:
    """(written, not_before, held_until) from the file; None when it is empty or
    unreadable. Raises ValueError when it is garbled."""
    try:
        raw = os.pread(fd, 4096, 0)
    except OSError:
        return None
    if not raw.strip():
        return None
    try:
        data = json.loads(raw)
        return float(data["written"]), float(data["not_before"]), float(data.get("held_until", 0.0))
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError("garbled pace record") from error
