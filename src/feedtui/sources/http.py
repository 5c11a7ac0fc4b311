"""One polite HTTP client for every source.

A few things are done here by hand rather than left to httpx, each for a reason:

- Redirects are followed one hop at a time, so every hop goes through the lane
  of its own host (a feed redirecting to arXiv is paced like arXiv) and a loop
  gets a clear message.
- Bodies are decompressed here with a bounded zlib output, so a gzip bomb is
  cut off at the size cap instead of a whole network chunk being inflated
  (up to ~1000×) in memory first.
- The whole-request deadline: httpx only times single operations, so a server
  dripping one byte a second would otherwise never time out.
"""

from __future__ import annotations

import asyncio
import email.utils
import re
import socket
import ssl
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http import HTTPStatus

import httpx

from feedtui import __version__
from feedtui.settings import ArxivSettings, FetchSettings
from feedtui.sources.base import FetchResult, Validators
from feedtui.sources.pace import SharedPace
from feedtui.text.sanitize import clean_line

USER_AGENT = f"feedtui/{__version__} (terminal paper reader; +https://pypi.org/project/feedtui-papers/)"
ACCEPT = "application/atom+xml, application/rss+xml, application/rdf+xml;q=0.9, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"
ACCEPT_ENCODING = "gzip, deflate"

# The longest the arXiv lane waits on Retry-After answers for one request, in all.
ARXIV_RETRY_BUDGET_S = 120.0
# The longest a Retry-After holds a host once feedtui has given up waiting for
# it (for arXiv, in every process, through arxiv-pace.json). An hour outlasts
# any real rate-limit episode; a longer ask is more likely a server's mistake
# (a date in the wrong year), and it must not shut feedtui out of arXiv for days.
RETRY_AFTER_HOLD_CAP_S = 3600.0
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Worth asking again: rate limiting and gateways that are busy or restarting.
# Other errors (400, 404, 410, 500 …) would answer the same way next time.
RETRY_STATUSES = frozenset({429, 502, 503, 504})

_MB = 1024 * 1024
# A request whose answer a killed process never saw may have reached arXiv a
# moment after it was recorded; the next process waits this fraction of an
# interval more.
UNSEEN_ANSWER_SLACK = 0.25
# Connections in one of ShardedTransport's pools.
SHARD_CONNECTIONS = 8
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
# h11 ends some messages with the offending bytes as Python shows them:
# "illegal header line: bytearray(b'no colon')".
_BYTES_SHOWN = re.compile(r":\s*(?:bytearray\()?b['\"].*$", re.DOTALL)
# A wait longer than this is said as "more than a day", not as 27 digits.
_DAY_S = 86400.0
# Where a redirect's Location is kept once it is out of httpx's sight (see _hide_location).
_LOCATION = "feedtui.location"
# A wait at least this long is told to `on_wait` (arXiv's usual 3 s pause is not).
WAIT_WORTH_TELLING_S = 5.0
# Two moments of the arXiv lane this close are one (read back from the pace file).
_SAME_MOMENT_S = 0.25

# Told of a wait worth telling: `(seconds, why)` as it begins, `(0, why)` when it is over.
WaitCallback = Callable[[float, str], None]


@dataclass(slots=True)
class FetchStats:
    """What a Fetcher has done so far (for progress lines and benchmarks)."""

    # HTTP requests sent: every retry and every redirect hop counts.
    requests: int = 0
    retries: int = 0
    # get() calls that ended in an error.
    failures: int = 0
    # Decoded body bytes received.
    bytes_received: int = 0
    # The final status of each successful get() (200, 304 …).
    statuses: Counter[int] = field(default_factory=Counter)


class _Failure(Exception):
    """One attempt or one get() failed; `message` is for the user."""

    def __init__(self, message: str, *, retryable: bool = False, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        # The HTTP status of the answer that failed, when there was one.
        self.status = status


@dataclass(slots=True)
class _Answer:
    url: httpx.URL
    status: int
    headers: httpx.Headers
    body: bytes = b""
    # A redirect's Location header, as sent ("" when none).
    location: str = ""


class Fetcher:
    """Fetches URLs concurrently with per-host caps; every arXiv host shares one paced lane.

    Use as `async with Fetcher(fetch_settings, arxiv_settings) as fetcher:` and
    `await fetcher.get(url, validators)`. Different hosts are fetched at the
    same time (at most `fetch.concurrency` requests overall and `fetch.per_host`
    to one host). Every request to an arXiv host (any `*.arxiv.org`, plus the
    hosts of the configured API and RSS URLs) goes through one lane: one request
    at a time, each starting at least `arxiv.min_interval` seconds after the
    previous one's answer began to arrive. Counting from the answer rather than
    from the previous start makes the gap hold on the server's clock too,
    whatever the latency. Retries and redirect hops go through the lane like any
    other request, and a Retry-After from an arXiv host holds the whole lane.

    `on_wait`, if given, is told of every wait of WAIT_WORTH_TELLING_S or more
    (a Retry-After, a retry's backoff, the arXiv lane's pause) and why, for a
    progress line; no request costs more for it.
    """

    def __init__(
        self,
        fetch: FetchSettings,
        arxiv: ArxivSettings,
        *,
        user_agent: str | None = None,
        shared_pace: SharedPace | None = None,
        on_wait: WaitCallback | None = None,
    ) -> None:
        self.fetch_settings = fetch
        self.arxiv_settings = arxiv
        self.user_agent = user_agent or USER_AGENT
        self.stats = FetchStats()
        self._client: httpx.AsyncClient | None = None
        self._all_hosts = asyncio.Semaphore(fetch.concurrency)
        self._per_host: dict[str, asyncio.Semaphore] = {}
        self.on_wait = on_wait
        self._arxiv_lane = PacedLane(arxiv.min_interval, shared_pace, on_wait=on_wait)
        # Other hosts whose Retry-After was too long to wait for: host key →
        # wall-clock moment, for this Fetcher's life (one refresh).
        self._held_hosts: dict[str, float] = {}
        self._arxiv_hosts = frozenset(
            _host_key(url) for url in map(_parse_or_none, (arxiv.api_url, arxiv.rss_url)) if url is not None
        )

    async def __aenter__(self) -> Fetcher:
        settings = self.fetch_settings
        self._client = httpx.AsyncClient(
            headers={"User-Agent": self.user_agent, "Accept": ACCEPT, "Accept-Encoding": ACCEPT_ENCODING},
            timeout=httpx.Timeout(
                connect=settings.connect_timeout,
                read=settings.read_timeout,
                write=settings.read_timeout,
                pool=settings.timeout,
            ),
            # httpx caps a pool at 100 connections (20 kept alive) by default;
            # our own semaphores do the limiting, the pool must not undercut them.
            transport=LazyTLSTransport(
                httpx.Limits(
                    max_connections=settings.concurrency,
                    max_keepalive_connections=settings.concurrency,
                )
            ),
            follow_redirects=False,
            event_hooks={"response": [_hide_location]},
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def is_arxiv_host(self, url: str) -> bool:
        """True when requests to `url` go through the paced arXiv lane."""
        parsed = _parse_or_none(url)
        return parsed is not None and self._in_arxiv_lane(parsed)

    async def get(self, url: str, validators: Validators | None = None) -> FetchResult:
        """GET `url`; with validators, a conditional GET. Never raises for network
        or HTTP failures: they come back as `FetchResult.error` in plain words.

        `FetchResult.attempts` counts the HTTP requests sent for this URL
        (retries and redirect hops included). On 304 the body is empty and the
        old validators are kept unless the server sent new ones.
        """
        if self._client is None:
            raise RuntimeError("Fetcher.get() called outside `async with Fetcher(...)`")
        result = FetchResult(url=url)
        try:
            answer = await self._follow(url, validators, result)
        except _Failure as failure:
            result.error = failure.message
            result.status = failure.status
            self.stats.failures += 1
            return result
        result.status = answer.status
        result.final_url = str(answer.url)
        result.body = answer.body
        result.content_type = answer.headers.get("content-type", "")
        result.validators = _validators_from(answer, validators)
        self.stats.statuses[answer.status] += 1
        self.stats.bytes_received += len(answer.body)
        return result

    async def _follow(self, url: str, validators: Validators | None, result: FetchResult) -> _Answer:
        """Send the request, following redirects and retrying, until a final answer."""
        settings = self.fetch_settings
        current = _checked_url(url)
        visited = {str(current)}
        headers = _conditional_headers(validators)
        retries = 0
        waited = 0.0
        while True:
            result.attempts += 1
            try:
                answer = await self._attempt(current, headers)
            except _Failure as failure:
                if not failure.retryable or retries >= settings.retries:
                    raise _Failure(_after_attempts(failure.message, retries + 1), status=failure.status) from None
                wait, asked = settings.backoff * 2**retries, None
            else:
                if answer.status in REDIRECT_STATUSES:
                    current = _redirect_target(answer, visited, len(visited) - 1, settings.max_redirects)
                    visited.add(str(current))
                    continue
                if answer.status not in RETRY_STATUSES:
                    _raise_for_status(answer, conditional=bool(headers))
                    return answer
                asked = retry_after_seconds(answer.headers.get("retry-after", ""))
                budget = settings.max_retry_after
                if self._in_arxiv_lane(current):
                    # arXiv's requests are honoured at greater length: its lane is
                    # shared, and asking again early is what it asked us not to do.
                    budget = max(budget, ARXIV_RETRY_BUDGET_S)
                if asked is not None and asked > max(0.0, budget - waited):
                    raise await self._too_long_to_wait(answer, asked, retries + 1)
                if retries >= settings.retries:
                    if asked is not None and self._in_arxiv_lane(current):
                        await self._arxiv_lane.hold_off(asked, why=self._wait_reason(current, asked))
                    raise _Failure(_after_attempts(_status_message(answer), retries + 1), status=answer.status)
                wait = settings.backoff * 2**retries if asked is None else asked
            retries += 1
            waited += wait
            self.stats.retries += 1
            why = self._wait_reason(current, asked)
            if self._in_arxiv_lane(current):
                await self._arxiv_lane.hold_off(wait, why=why)
            await _told_sleep(wait, why, self.on_wait)

    def _wait_reason(self, url: httpx.URL, asked: float | None) -> str:
        """Why a retry waits, for `on_wait`: "arXiv asked (Retry-After)"."""
        host = "arXiv" if self._in_arxiv_lane(url) else _host_label(url)
        return f"{host} asked (Retry-After)" if asked is not None else f"before asking {host} again"

    async def _too_long_to_wait(self, answer: _Answer, asked: float, attempts: int) -> _Failure:
        """Give up on a Retry-After too long to wait for (longer than what is
        left of `max_retry_after` after the waits before), but keep to it: the
        host is not asked again before then (arXiv by no process, up to an
        hour; another host by this Fetcher)."""
        until = time.time() + min(asked, RETRY_AFTER_HOLD_CAP_S)
        if self._in_arxiv_lane(answer.url):
            await self._arxiv_lane.hold_off(until - time.time(), refuse=True)
            advice = f"try again after {_clock(until)}"
        else:
            self._held_hosts[_host_key(answer.url)] = until
            advice = "try again later"
        lead = f"rate-limited by {_host_label(answer.url)}" if answer.status == 429 else _status_message(answer)
        wait = "more than a day" if asked > _DAY_S else f"{asked:.0f} s"
        return _Failure(_after_attempts(f"{lead}: the server asked to wait {wait}; {advice}", attempts), status=answer.status)

    async def _attempt(self, url: httpx.URL, headers: dict[str, str]) -> _Answer:
        """One HTTP request within its host's limits and the whole-request deadline."""
        settings = self.fetch_settings
        host = _host_label(url)
        held_until = self._held_hosts.get(_host_key(url), 0.0)
        if held_until > time.time():
            raise _Failure(f"{host} asked to wait until {_clock(held_until)}; not asked again in this refresh")
        async with self._slot(url) as answered:
            self.stats.requests += 1
            try:
                async with asyncio.timeout(settings.timeout):
                    return await self._exchange(url, headers, answered)
            except TimeoutError:
                raise _Failure(f"timed out: {host} did not deliver the response within {settings.timeout:g} s") from None
            except httpx.TimeoutException as exc:
                raise _Failure(_timeout_message(exc, host, settings)) from None
            except httpx.TransportError as exc:
                raise _transport_failure(exc, url) from None
            except zlib.error:
                raise _Failure(f"{host} sent a corrupt compressed response") from None

    async def _exchange(self, url: httpx.URL, headers: dict[str, str], answered: Callable[[], None]) -> _Answer:
        assert self._client is not None
        request = self._client.build_request("GET", url, headers=headers)
        response = await self._client.send(request, stream=True)
        answered()
        try:
            answer = _Answer(
                url=url, status=response.status_code, headers=response.headers, location=response.extensions.get(_LOCATION, "")
            )
            if 200 <= answer.status < 300:
                answer.body = await self._read_body(response, url)
            return answer
        finally:
            await response.aclose()

    async def _read_body(self, response: httpx.Response, url: httpx.URL) -> bytes:
        cap = self.fetch_settings.max_bytes
        too_large = f"response from {_host_label(url)} larger than {_size_text(cap)} cap"
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise _Failure(f"{too_large} (it announced {_size_text(int(declared))})")
        decoder = BoundedDecoder.for_encoding(response.headers.get("content-encoding", ""))
        if decoder is None:
            encoding = _shown(response.headers.get("content-encoding", ""), 40)
            raise _Failure(f"{_host_label(url)} sent the response in an unsupported encoding ({encoding})")
        chunks: list[bytes] = []
        size = 0
        async for raw in response.aiter_raw():
            piece = decoder.decode(raw, cap - size)
            size += len(piece)
            if size > cap:
                raise _Failure(too_large)
            chunks.append(piece)
        tail = decoder.flush()
        if size + len(tail) > cap:
            raise _Failure(too_large)
        chunks.append(tail)
        return b"".join(chunks)

    @asynccontextmanager
    async def _slot(self, url: httpx.URL) -> AsyncIterator[Callable[[], None]]:
        """Wait for a turn to send a request to `url`'s host.

        Yields a callable to call when the answer begins to arrive (the arXiv
        lane counts its interval from there)."""
        if self._in_arxiv_lane(url):
            async with self._arxiv_lane.turn() as answered, self._all_hosts:
                yield answered
            return
        key = _host_key(url)
        host_slots = self._per_host.get(key)
        if host_slots is None:
            host_slots = self._per_host[key] = asyncio.Semaphore(self.fetch_settings.per_host)
        async with host_slots, self._all_hosts:
            yield _nothing

    def _in_arxiv_lane(self, url: httpx.URL) -> bool:
        host = url.host.lower().rstrip(".")
        return host == "arxiv.org" or host.endswith(".arxiv.org") or _host_key(url) in self._arxiv_hosts


class LazyTLSTransport(httpx.AsyncBaseTransport):
    """Routes http and https to two pools; the https one, with full certificate
    verification, is built on the first https request. Loading the CA bundle
    costs CPU that a refresh of plain-http feeds (or a test on 127.0.0.1)
    should not pay."""

    def __init__(self, limits: httpx.Limits) -> None:
        self._limits = limits
        # Only ever given http:// requests, so it never negotiates TLS.
        self._plain = ShardedTransport(limits, verify=False)
        self._tls: ShardedTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "https":
            if self._tls is None:
                self._tls = ShardedTransport(self._limits)
            return await self._tls.handle_async_request(request)
        return await self._plain.handle_async_request(request)

    async def aclose(self) -> None:
        await self._plain.aclose()
        if self._tls is not None:
            await self._tls.aclose()


class ShardedTransport(httpx.AsyncBaseTransport):
    """Several small connection pools in place of one large one.

    httpcore 1.0's pool re-examines every connection for every waiting request
    each time a request starts or ends (`_assign_requests_to_connections`, a
    known quadratic cost: encode/httpcore#1035), which with many requests in
    flight on one pool costs several times the CPU of small pools
    (bench/bench_pool.py measures both). Pools of at most SHARD_CONNECTIONS
    keep it small. A request goes to the pool with the
    fewest requests under way, so no pool is asked for more connections than
    it has while the limit as a whole is kept (the Fetcher's semaphores hold
    requests in flight to `limits.max_connections`)."""

    def __init__(self, limits: httpx.Limits, *, verify: bool = True) -> None:
        # One TLS context for every pool: each pool making its own would load
        # the CA bundle once per pool, on the event loop.
        context = httpx.create_ssl_context(verify=verify)
        total = limits.max_connections or SHARD_CONNECTIONS
        count = max(1, -(-total // SHARD_CONNECTIONS))
        each = -(-total // count)
        kept = limits.max_keepalive_connections
        shard_limits = httpx.Limits(
            max_connections=each,
            max_keepalive_connections=None if kept is None else -(-kept // count),
            keepalive_expiry=limits.keepalive_expiry,
        )
        self._pools = [httpx.AsyncHTTPTransport(limits=shard_limits, verify=context) for _ in range(count)]
        self._busy = [0] * count

    @property
    def pools(self) -> int:
        return len(self._pools)

    @property
    def busy(self) -> list[int]:
        """Requests under way in each pool."""
        return list(self._busy)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        number = min(range(len(self._pools)), key=self._busy.__getitem__)
        self._busy[number] += 1
        try:
            response = await self._pools[number].handle_async_request(request)
        except BaseException:
            self._busy[number] -= 1
            raise
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_CountedStream(response.stream, lambda: self._release(number)),
            extensions=response.extensions,
            request=request,
        )

    def _release(self, number: int) -> None:
        self._busy[number] -= 1

    async def aclose(self) -> None:
        for pool in self._pools:
            await pool.aclose()


class _CountedStream(httpx.AsyncByteStream):
    """A response body that says once when it is closed (its request is then
    no longer under way in its pool)."""

    def __init__(self, stream: httpx.AsyncByteStream, on_close: Callable[[], None]) -> None:
        self._stream = stream
        self._on_close: Callable[[], None] | None = on_close

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            if self._on_close is not None:
                self._on_close, on_close = None, self._on_close
                on_close()


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
                    await _told_sleep(delay, self._why, self.on_wait)
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
            raise _Failure(f"arXiv asked to wait until {_clock(self._refused_until)}; no request goes to it before then")

    def _share(self, not_before: float) -> None:
        if self.shared is not None:
            loop_now = asyncio.get_running_loop().time()
            self.shared.record(time.time() + (not_before - loop_now))


class BoundedDecoder:
    """Decodes a Content-Encoding without ever producing much more than asked for."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._inflater = _new_inflater(encoding)
        self._started = False

    @classmethod
    def for_encoding(cls, header: str) -> BoundedDecoder | None:
        """A decoder for a Content-Encoding header value; None when unsupported."""
        encoding = header.strip().lower()
        if encoding in ("", "identity"):
            return cls("identity")
        if encoding in ("gzip", "x-gzip", "deflate"):
            return cls(encoding)
        return None

    def decode(self, data: bytes, room: int) -> bytes:
        """The decoded bytes of `data`, at most `room + 1` of them when compressed:
        getting `room + 1` back means the body is over the cap."""
        if self._inflater is None:
            return data
        try:
            out = self._inflater.decompress(data, max(room, 0) + 1)
        except zlib.error:
            # "deflate" is meant to be zlib-wrapped, but some servers send it raw.
            if self.encoding != "deflate" or self._started:
                raise
            self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            out = self._inflater.decompress(data, max(room, 0) + 1)
        self._started = True
        return out

    def flush(self) -> bytes:
        return self._inflater.flush() if self._inflater is not None else b""


async def _told_sleep(seconds: float, why: str, on_wait: WaitCallback | None) -> None:
    """Sleep; a wait worth telling is told to `on_wait` as it begins and when it
    is over (not when the refresh is stopped meanwhile: nothing is to be said then)."""
    tell = on_wait if on_wait is not None and seconds >= WAIT_WORTH_TELLING_S else None
    if tell is not None:
        tell(seconds, why)
    await asyncio.sleep(seconds)
    if tell is not None:
        tell(0.0, why)


def _new_inflater(encoding: str) -> zlib._Decompress | None:
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(zlib.MAX_WBITS)
    return None


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


def _clock(wall: float) -> str:
    """A wall-clock moment as the local time of day."""
    return datetime.fromtimestamp(wall).strftime("%H:%M:%S")


def _checked_url(url: str) -> httpx.URL:
    shown = _shown(url)
    try:
        parsed = httpx.URL(url.strip())
    except httpx.InvalidURL as exc:
        raise _Failure(f"invalid URL {shown!r}: {exc}") from None
    if not parsed.scheme:
        raise _Failure(f"invalid URL {shown!r}: it should start with http:// or https://")
    if parsed.scheme not in ("http", "https"):
        raise _Failure(f'unsupported URL scheme "{parsed.scheme}:" in {shown!r} (feedtui fetches only http and https)')
    if not parsed.host:
        raise _Failure(f"invalid URL {shown!r}: it names no host")
    if not _port_ok(parsed):
        raise _Failure(f"invalid URL {shown!r}: port {parsed.port} is not from 1 to 65535")
    return parsed


def _port_ok(url: httpx.URL) -> bool:
    """httpx takes any number as a port; connecting to 99999 failed as
    "unexpected error: ExceptionGroup(… OverflowError …)"."""
    return url.port is None or 0 < url.port < 65536


def _parse_or_none(url: str) -> httpx.URL | None:
    try:
        return _checked_url(url)
    except _Failure:
        return None


async def _hide_location(response: httpx.Response) -> None:
    """Move a redirect's Location header where httpx does not look for it.

    The Fetcher follows redirects itself (see _redirect_target), but httpx
    builds the request for a redirect even when it is not to follow it, and a
    Location it cannot make a request of (`javascript:alert(1)`, a control
    character) failed the whole exchange with an internal error instead of
    the message _redirect_target gives.
    """
    if response.status_code in REDIRECT_STATUSES and "location" in response.headers:
        response.extensions[_LOCATION] = response.headers["location"]
        del response.headers["location"]


def _redirect_target(answer: _Answer, visited: set[str], hops: int, max_redirects: int) -> httpx.URL:
    host = _host_label(answer.url)
    location = answer.location
    if not location:
        raise _Failure(f"{host} answered HTTP {answer.status} (a redirect) without saying where to")
    try:
        target = answer.url.join(location.strip())
    except httpx.InvalidURL as exc:
        reason = _shown(str(exc)).rstrip(".")
        raise _Failure(f"{host} redirected to an invalid URL {_shown(location)!r}: {reason}") from None
    if target.scheme not in ("http", "https"):
        raise _Failure(f'{host} redirected to an unsupported URL scheme "{target.scheme}:" (only http and https)')
    if not _port_ok(target):
        raise _Failure(f"{host} redirected to an invalid URL {_shown(str(target))!r}: port {target.port} is not from 1 to 65535")
    if str(target) in visited:
        raise _Failure(f"redirect loop: {_shown(str(answer.url))} redirects back to {_shown(str(target))}")
    if hops >= max_redirects:
        raise _Failure(f"too many redirects from {host} (more than {max_redirects})")
    return target


def _raise_for_status(answer: _Answer, *, conditional: bool) -> None:
    """Fail on an error status, and on a 304 to a request that had nothing to
    compare (no validators sent): it would leave the source looking up to date
    with nothing fetched from it, ever."""
    if 200 <= answer.status < 300 or (answer.status == 304 and conditional):
        return
    if answer.status == 304:
        raise _Failure(
            f"{_status_message(answer)} to a request for the whole feed (it sent nothing to compare with); "
            "the server is misconfigured",
            status=answer.status,
        )
    raise _Failure(_status_message(answer), status=answer.status)


def _status_message(answer: _Answer) -> str:
    try:
        phrase = HTTPStatus(answer.status).phrase
    except ValueError:
        phrase = ""
    label = f"HTTP {answer.status} {phrase}".rstrip()
    return f"{label} from {_host_label(answer.url)}"


def _after_attempts(message: str, attempts: int) -> str:
    return f"{message} (gave up after {attempts} attempts)" if attempts > 1 else message


def _timeout_message(exc: httpx.TimeoutException, host: str, settings: FetchSettings) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"timed out connecting to {host} (after {settings.connect_timeout:g} s)"
    if isinstance(exc, httpx.ReadTimeout):
        return f"timed out waiting for {host}: no data for {settings.read_timeout:g} s"
    if isinstance(exc, httpx.WriteTimeout):
        return f"timed out sending the request to {host}"
    return f"timed out waiting for a free connection to {host}"


def _transport_failure(exc: httpx.TransportError, url: httpx.URL) -> _Failure:
    """Translate what went wrong on the wire into words, and whether to try again."""
    host = _host_label(url)
    causes = _causes(exc)
    if any(isinstance(c, socket.gaierror) for c in causes):
        return _Failure(f"could not resolve host {url.host}")
    if any(isinstance(c, ConnectionRefusedError) for c in causes):
        return _Failure(f"could not connect to {host}: connection refused")
    ssl_errors = [c for c in causes if isinstance(c, ssl.SSLError)]
    if ssl_errors:
        reason = getattr(ssl_errors[-1], "reason", None) or ssl_errors[-1].__class__.__name__
        return _Failure(f"TLS handshake with {host} failed ({str(reason).replace('_', ' ').lower()})")
    if any(isinstance(c, ConnectionResetError) for c in causes):
        return _Failure(f"the connection to {host} was reset", retryable=True)
    if isinstance(exc, httpx.RemoteProtocolError):
        text = str(exc).lower()
        if "without sending a response" in text:
            return _Failure(f"{host} closed the connection without answering", retryable=True)
        if "incomplete" in text or "without sending complete" in text:
            return _Failure(f"{host} closed the connection before the response was complete", retryable=True)
        if "chunk" in text:
            return _Failure(f"{host} sent a malformed chunked body")
        return _Failure(f"{host} sent an invalid HTTP response ({_shown(_BYTES_SHOWN.sub('', str(exc)))})")
    if isinstance(exc, httpx.ConnectError):
        return _Failure(f"could not connect to {host}: {_shown(str(exc))}")
    return _Failure(f"network error talking to {host}: {_shown(str(exc))}", retryable=True)


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _conditional_headers(validators: Validators | None) -> dict[str, str]:
    headers: dict[str, str] = {}
    if validators is None:
        return headers
    if etag := _safe_header_value(validators.etag):
        headers["If-None-Match"] = etag
    if last_modified := _safe_header_value(validators.last_modified):
        headers["If-Modified-Since"] = last_modified
    return headers


def _validators_from(answer: _Answer, sent: Validators | None) -> Validators:
    etag = _safe_header_value(answer.headers.get("etag", ""))
    last_modified = _safe_header_value(answer.headers.get("last-modified", ""))
    if answer.status == 304 and sent is not None:
        return Validators(etag=etag or sent.etag, last_modified=last_modified or sent.last_modified)
    return Validators(etag=etag, last_modified=last_modified)


def _safe_header_value(value: str) -> str:
    """A validator fit to send back: printable ASCII of sensible length, else nothing."""
    value = value.strip()
    if not value or len(value) > 1024 or not value.isascii() or not value.isprintable():
        return ""
    return value


def _host_key(url: httpx.URL) -> str:
    port = url.port or (443 if url.scheme == "https" else 80)
    return f"{url.host.lower().rstrip('.')}:{port}"


def _host_label(url: httpx.URL) -> str:
    return f"{url.host}:{url.port}" if url.port else url.host


def _size_text(size: int) -> str:
    if size >= _MB:
        return f"{round(size / _MB, 1):g} MB"
    if size >= 1024:
        return f"{round(size / 1024, 1):g} KB"
    return f"{size} bytes"


def _shown(text: str, limit: int = 200) -> str:
    """Text from a URL or a server, fit for a one-line message."""
    return clean_line(text, html_allowed=False)[:limit]


def _nothing() -> None:
    return None
