"""The Fetcher: one GET, through its host's limits, redirects and retries.

See `feedtui.sources.http` for what it does by hand rather than leave to
httpx, and why.
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import httpx

from feedtui import __version__
from feedtui.settings import ArxivSettings, FetchSettings
from feedtui.sources.base import FetchResult, Validators
from feedtui.sources.http.answers import (
    LOCATION,
    REDIRECT_STATUSES,
    RETRY_STATUSES,
    Answer,
    conditional_headers,
    hide_location,
    raise_for_status,
    redirect_target,
    status_message,
    validators_from,
)
from feedtui.sources.http.body import read_body
from feedtui.sources.http.failures import Failure, after_attempts, clock, host_label, timeout_message, transport_failure
from feedtui.sources.http.pacing import PacedLane, WaitCallback, retry_after_seconds, told_sleep
from feedtui.sources.http.transport import LazyTLSTransport
from feedtui.sources.http.urls import checked_url, host_key, parse_or_none
from feedtui.sources.pace import SharedPace

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
# A wait longer than this is said as "more than a day", not as 27 digits.
_DAY_S = 86400.0


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
            host_key(url) for url in map(parse_or_none, (arxiv.api_url, arxiv.rss_url)) if url is not None
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
            event_hooks={"response": [hide_location]},
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def is_arxiv_host(self, url: str) -> bool:
        """True when requests to `url` go through the paced arXiv lane."""
        parsed = parse_or_none(url)
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
        except Failure as failure:
            result.error = failure.message
            result.status = failure.status
            self.stats.failures += 1
            return result
        result.status = answer.status
        result.final_url = str(answer.url)
        result.body = answer.body
        result.content_type = answer.headers.get("content-type", "")
        result.validators = validators_from(answer, validators)
        self.stats.statuses[answer.status] += 1
        self.stats.bytes_received += len(answer.body)
        return result

    async def _follow(self, url: str, validators: Validators | None, result: FetchResult) -> Answer:
        """Send the request, following redirects and retrying, until a final answer."""
        settings = self.fetch_settings
        current = checked_url(url)
        visited = {str(current)}
        headers = conditional_headers(validators)
        retries = 0
        waited = 0.0
        while True:
            result.attempts += 1
            try:
                answer = await self._attempt(current, headers)
            except Failure as failure:
                if not failure.retryable or retries >= settings.retries:
                    raise Failure(after_attempts(failure.message, retries + 1), status=failure.status) from None
                wait, asked = settings.backoff * 2**retries, None
            else:
                if answer.status in REDIRECT_STATUSES:
                    current = redirect_target(answer, visited, len(visited) - 1, settings.max_redirects)
                    visited.add(str(current))
                    continue
                if answer.status not in RETRY_STATUSES:
                    raise_for_status(answer, conditional=bool(headers))
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
                    raise Failure(after_attempts(status_message(answer), retries + 1), status=answer.status)
                wait = settings.backoff * 2**retries if asked is None else asked
            retries += 1
            waited += wait
            self.stats.retries += 1
            why = self._wait_reason(current, asked)
            if self._in_arxiv_lane(current):
                await self._arxiv_lane.hold_off(wait, why=why)
            await told_sleep(wait, why, self.on_wait)

    def _wait_reason(self, url: httpx.URL, asked: float | None) -> str:
        """Why a retry waits, for `on_wait`: "arXiv asked (Retry-After)"."""
        host = "arXiv" if self._in_arxiv_lane(url) else host_label(url)
        return f"{host} asked (Retry-After)" if asked is not None else f"before asking {host} again"

    async def _too_long_to_wait(self, answer: Answer, asked: float, attempts: int) -> Failure:
        """Give up on a Retry-After too long to wait for (longer than what is
        left of `max_retry_after` after the waits before), but keep to it: the
        host is not asked again before then (arXiv by no process, up to an
        hour; another host by this Fetcher)."""
        until = time.time() + min(asked, RETRY_AFTER_HOLD_CAP_S)
        if self._in_arxiv_lane(answer.url):
            await self._arxiv_lane.hold_off(until - time.time(), refuse=True)
            advice = f"try again after {clock(until)}"
        else:
            self._held_hosts[host_key(answer.url)] = until
            advice = "try again later"
        lead = f"rate-limited by {host_label(answer.url)}" if answer.status == 429 else status_message(answer)
        wait = "more than a day" if asked > _DAY_S else f"{asked:.0f} s"
        return Failure(after_attempts(f"{lead}: the server asked to wait {wait}; {advice}", attempts), status=answer.status)

    async def _attempt(self, url: httpx.URL, headers: dict[str, str]) -> Answer:
        """One HTTP request within its host's limits and the whole-request deadline."""
        settings = self.fetch_settings
        host = host_label(url)
        held_until = self._held_hosts.get(host_key(url), 0.0)
        if held_until > time.time():
            raise Failure(f"{host} asked to wait until {clock(held_until)}; not asked again in this refresh")
        async with self._slot(url) as answered:
            self.stats.requests += 1
            try:
                async with asyncio.timeout(settings.timeout):
                    return await self._exchange(url, headers, answered)
            except TimeoutError:
                raise Failure(f"timed out: {host} did not deliver the response within {settings.timeout:g} s") from None
            except httpx.TimeoutException as exc:
                raise Failure(timeout_message(exc, host, settings)) from None
            except httpx.TransportError as exc:
                raise transport_failure(exc, url) from None
            except zlib.error:
                raise Failure(f"{host} sent a corrupt compressed response") from None

    async def _exchange(self, url: httpx.URL, headers: dict[str, str], answered: Callable[[], None]) -> Answer:
        assert self._client is not None
        request = self._client.build_request("GET", url, headers=headers)
        response = await self._client.send(request, stream=True)
        answered()
        try:
            answer = Answer(
                url=url, status=response.status_code, headers=response.headers, location=response.extensions.get(LOCATION, "")
            )
            if 200 <= answer.status < 300:
                answer.body = await read_body(response, url, self.fetch_settings.max_bytes)
            return answer
        finally:
            await response.aclose()

    @asynccontextmanager
    async def _slot(self, url: httpx.URL) -> AsyncIterator[Callable[[], None]]:
        """Wait for a turn to send a request to `url`'s host.

        Yields a callable to call when the answer begins to arrive (the arXiv
        lane counts its interval from there)."""
        if self._in_arxiv_lane(url):
            async with self._arxiv_lane.turn() as answered, self._all_hosts:
                yield answered
            return
        key = host_key(url)
        host_slots = self._per_host.get(key)
        if host_slots is None:
            host_slots = self._per_host[key] = asyncio.Semaphore(self.fetch_settings.per_host)
        async with host_slots, self._all_hosts:
            yield _nothing

    def _in_arxiv_lane(self, url: httpx.URL) -> bool:
        host = url.host.lower().rstrip(".")
        return host == "arxiv.org" or host.endswith(".arxiv.org") or host_key(url) in self._arxiv_hosts


def _nothing() -> None:
    return None
