"""Waiting politely: the paced arXiv lane, Retry-After, and waits worth telling.

Every request to arXiv goes through one `PacedLane`; a Retry-After from
arXiv holds the whole lane (and, through `feedtui.sources.pace`, every
feedtui process). A wait long enough for the user to wonder about is told
to an `on_wait` callback, with why.
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timezone

from feedtui.sources.http.failures import Failure, clock
from feedtui.sources.pace import SharedPace

# A request whose answer a killed process never saw may have reached arXiv a
# moment after it was recorded; the next process waits this fraction of an
# interval more.
UNSEEN_ANSWER_SLACK = 0.25
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
# A wait at least this long is told to `on_wait` (arXiv's usual 3 s pause is not).
WAIT_WORTH_TELLING_S = 5.0
# Two moments of the arXiv lane this close are one (read back from the pace file).
_SAME_MOMENT_S = 0.25

# Told of a wait worth telling: `(seconds, why)` as it begins, `(0, why)` when it is over.
WaitCallback = Callable[[float, str], None]


class PacedLane:
    """One request at a time, each starting at least `interval` seconds after
    the previous one was answered (or failed). With a `SharedPace`, the same
    holds across processes and across a restart (see feedtui.sources.pace).
    A pause of WAIT_WORTH_TELLING_S or more is told to `on_wait`, with why."""

    def __init__(self, interval: float, shared: SharedPace | None = None, *, on_wait: WaitCallback | None = None) -> None:
        self.interval = interval
        self.shared = shared
        self.on_wait = on_wait
        self._lock = asyncio.Lock()
        self._not_before = 0.0
        # Why no request may start before _not_before, for on_wait.
        self._why = ""
        self._pace_why = f"arXiv's pace (one request every {interval:g} s)"
        # Wall-clock moment before which a request fails at once (see refuse in hold_off).
        self._refused_until = 0.0

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[Callable[[], None]]:
        loop = asyncio.get_running_loop()
        async with self._lock:
            try:
                if self.shared is not None:
                    wait = await self.shared.take_turn(self.interval)
                    self._push_shared(loop.time() + wait)
                    self._refused_until = max(self._refused_until, self.shared.held_until)
                self._check_not_refused()
                # A hold can come while this request waits (a retry's Retry-After).
                while (delay := self._not_before - loop.time()) > 0:
                    await told_sleep(delay, self._why, self.on_wait)
                    self._check_not_refused()
                # In case this process dies mid-request: a request whose answer was never
                # seen counts as started a little later than now.
                self._share(loop.time() + self.interval * (1 + UNSEEN_ANSWER_SLACK))
                answered_at: list[float] = []
                try:
                    yield lambda: answered_at.append(loop.time())
                finally:
                    mark = answered_at[0] if answered_at else loop.time()
                    self._push(mark + self.interval, self._pace_why)
                    self._share(self._not_before)
            finally:
                if self.shared is not None:
                    self.shared.end_turn()

    async def hold_off(self, seconds: float, *, refuse: bool = False, why: str = "arXiv asked (Retry-After)") -> None:
        """No request in this lane starts within the next `seconds` (a Retry-After).

        With `refuse` (a wait feedtui gave up on), requests meanwhile fail at
        once, saying until when, instead of sleeping for minutes."""
        now = asyncio.get_running_loop().time()
        self._push(now + seconds, why)
        if refuse:
            self._refused_until = max(self._refused_until, time.time() + seconds)
        if self.shared is not None:
            await self.shared.hold(time.time() + (self._not_before - now), self._refused_until if refuse else 0.0)

    def _push(self, not_before: float, why: str) -> None:
        """No request before `not_before` (loop time), for the reason `why`, unless a later moment holds already."""
        if not_before > self._not_before:
            self._not_before, self._why = not_before, why

    def _push_shared(self, not_before: float) -> None:
        """The pace file's moment: this process's own hold read back (give or take
        the clocks' conversion) keeps its reason; a later one is another process's."""
        if not_before > self._not_before + _SAME_MOMENT_S:
            self._push(not_before, "arXiv's pace, kept across feedtui processes")
        else:
            self._not_before = max(self._not_before, not_before)

    def _check_not_refused(self) -> None:
        if self._refused_until > time.time():
            raise Failure(f"arXiv asked to wait until {clock(self._refused_until)}; no request goes to it before then")

    def _share(self, not_before: float) -> None:
        if self.shared is not None:
            loop_now = asyncio.get_running_loop().time()
            self.shared.record(time.time() + (not_before - loop_now))


async def told_sleep(seconds: float, why: str, on_wait: WaitCallback | None) -> None:
    """Sleep; a wait worth telling is told to `on_wait` as it begins and when it
    is over (not when the refresh is stopped meanwhile: nothing is to be said then)."""
    tell = on_wait if on_wait is not None and seconds >= WAIT_WORTH_TELLING_S else None
    if tell is not None:
        tell(seconds, why)
    await asyncio.sleep(seconds)
    if tell is not None:
        tell(0.0, why)


def retry_after_seconds(value: str, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delay-seconds or an HTTP-date.

    None when the value is neither; a date in the past means 0."""
    value = value.strip()
    if _NUMBER.match(value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max(0.0, (when - now).total_seconds())
