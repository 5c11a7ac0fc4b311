"""The Fetcher against real servers on 127.0.0.1 that misbehave on purpose."""

from __future__ import annotations

import asyncio
import gzip
import json
import ssl
import time
import zlib
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import httpx
import pytest

from feedtui import __version__
from feedtui.settings import ArxivSettings, FetchSettings
from feedtui.sources.base import Validators
from feedtui.sources.http import Fetcher
from feedtui.sources.http.body import BoundedDecoder
from feedtui.sources.http.pacing import retry_after_seconds
from feedtui.sources.http.transport import ShardedTransport
from feedtui.sources.pace import SharedPace

FEED = b"<?xml version='1.0'?><rss version='2.0'><channel><title>Invented</title></channel></rss>"


def fast(**overrides) -> FetchSettings:
    """Fetch settings with test-sized timeouts and backoff."""
    values = dict(connect_timeout=2.0, read_timeout=2.0, timeout=5.0, retries=2, backoff=0.01, max_retry_after=5.0)
    values.update(overrides)
    return FetchSettings(**values)


def arxiv_on(server, interval: float = 0.2) -> ArxivSettings:
    """arXiv settings whose API and RSS URLs point at a loopback server."""
    return ArxivSettings(api_url=server.url("/api/query"), rss_url=server.url("/rss/"), min_interval=interval)


def gaps(requests) -> list[float]:
    times = sorted(r.arrived for r in requests)
    return [later - earlier for earlier, later in zip(times, times[1:])]


# --- plain fetching --------------------------------------------------------------


async def test_get_returns_body_type_and_sends_identifying_headers(loopback):
    server = loopback()
    url = server.route("/feed.xml", server.respond(200, FEED, {"Content-Type": "application/rss+xml"}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.ok and result.status == 200
    assert result.body == FEED
    assert result.content_type == "application/rss+xml"
    assert result.final_url == url and result.attempts == 1
    sent = server.requests[0].headers
    assert sent["user-agent"] == f"feedtui/{__version__} (terminal paper reader; +https://pypi.org/project/feedtui-papers/)"
    assert sent["accept-encoding"] == "gzip, deflate"
    assert "if-none-match" not in sent and "if-modified-since" not in sent
    assert fetcher.stats.statuses[200] == 1 and fetcher.stats.bytes_received == len(FEED)


async def test_user_agent_can_be_overridden(loopback):
    server = loopback()
    url = server.route("/feed.xml", server.respond(200, FEED))
    async with Fetcher(fast(), ArxivSettings(), user_agent="feedtui-bench/1") as fetcher:
        await fetcher.get(url)
    assert server.requests[0].headers["user-agent"] == "feedtui-bench/1"


async def test_get_outside_the_context_is_a_programming_error():
    with pytest.raises(RuntimeError):
        await Fetcher(fast(), ArxivSettings()).get("http://127.0.0.1:9/")


# --- conditional GET ------------------------------------------------------------------

ETAG = '"v1-invented"'
LAST_MODIFIED = "Tue, 01 Sep 2026 10:00:00 GMT"


def conditional_handler(server):
    async def handler(request, reply):
        if request.headers.get("if-none-match") == ETAG:
            await reply.send(304, headers={"Date": "Tue, 01 Sep 2026 11:00:00 GMT"})
        else:
            await reply.send(200, FEED, {"ETag": ETAG, "Last-Modified": LAST_MODIFIED})

    return handler


async def test_second_fetch_is_conditional_and_answered_304(loopback):
    server = loopback()
    url = server.route("/feed.xml", conditional_handler(server))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        first = await fetcher.get(url)
        second = await fetcher.get(url, first.validators)
    assert first.validators == Validators(etag=ETAG, last_modified=LAST_MODIFIED)
    sent = server.requests[1].headers
    assert sent["if-none-match"] == ETAG and sent["if-modified-since"] == LAST_MODIFIED
    assert second.ok and second.not_modified and second.body == b""
    # The 304 carried no validators: the old ones are kept.
    assert second.validators == first.validators
    assert fetcher.stats.statuses == {200: 1, 304: 1}


async def test_validators_follow_the_latest_answer(loopback):
    server = loopback()
    url = server.route(
        "/feed.xml",
        server.in_turn(
            server.respond(304, headers={"ETag": '"v2"'}),
            server.respond(200, FEED),
        ),
    )
    old = Validators(etag='"v1"', last_modified=LAST_MODIFIED)
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        refreshed = await fetcher.get(url, old)
        replaced = await fetcher.get(url, refreshed.validators)
    assert refreshed.validators == Validators(etag='"v2"', last_modified=LAST_MODIFIED)
    # A full answer without validators leaves none to send next time.
    assert replaced.status == 200 and replaced.validators.empty


async def test_a_304_to_a_request_with_nothing_to_compare_is_a_failure(loopback):
    """Answered 304 at the first fetch, a source would look up to date for ever
    with nothing fetched from it; its validators are not kept."""
    server = loopback()
    url = server.route("/feed.xml", server.respond(304, headers={"ETag": '"always"'}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
        conditional = await fetcher.get(url, Validators(etag='"always"'))
    assert not result.ok and result.status == 304
    assert "HTTP 304 Not Modified from 127.0.0.1" in result.error
    assert "to a request for the whole feed (it sent nothing to compare with); the server is misconfigured" in result.error
    assert result.validators.empty
    assert conditional.ok and conditional.not_modified


async def test_validators_with_control_characters_are_not_sent_back(loopback):
    server = loopback()
    url = server.route("/feed.xml", server.respond(200, FEED))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url, Validators(etag='"a"\r\nX-Injected: 1', last_modified=LAST_MODIFIED))
    assert result.ok
    sent = server.requests[0].headers
    assert "if-none-match" not in sent and "x-injected" not in sent
    assert sent["if-modified-since"] == LAST_MODIFIED


# --- the arXiv lane ---------------------------------------------------------------------


async def test_arxiv_requests_are_paced_on_one_connection_while_other_hosts_run_concurrently(loopback):
    arxiv, other = loopback(), loopback()
    arxiv.route("/api/query", arxiv.respond(200, FEED))
    arxiv.route("/rss/cs.DC", arxiv.respond(200, FEED))
    held = other.hold_until(6, FEED)
    other_urls = [other.route(f"/feed{i}.xml", held) for i in range(6)]
    arxiv_urls = [arxiv.url(f"/api/query?start={i * 10}") for i in range(4)] + [arxiv.url("/rss/cs.DC")] * 2
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.25)) as fetcher:
        results = await asyncio.gather(*(fetcher.get(u) for u in arxiv_urls + other_urls))
    assert all(r.ok for r in results)
    assert len(arxiv.requests) == 6
    assert min(gaps(arxiv.requests)) >= 0.25
    assert arxiv.max_connections == 1 and arxiv.connections_opened == 1
    assert arxiv.max_in_flight == 1
    # The other host is not paced: all six of its requests were in flight together,
    # while the arXiv lane was still working through its queue.
    assert other.max_in_flight == 6
    assert max(r.arrived for r in other.requests) < sorted(r.arrived for r in arxiv.requests)[2]


async def test_retries_and_redirects_to_arxiv_keep_the_interval(loopback):
    arxiv = loopback()
    arxiv.route("/api/query", arxiv.in_turn(arxiv.respond(503), arxiv.respond(302, headers={"Location": "/api/moved"})))
    arxiv.route("/api/moved", arxiv.respond(200, FEED))
    async with Fetcher(fast(backoff=0.01), arxiv_on(arxiv, interval=0.2)) as fetcher:
        result = await fetcher.get(arxiv.url("/api/query"))
    assert result.ok and result.attempts == 3
    assert [r.path for r in arxiv.requests] == ["/api/query", "/api/query", "/api/moved"]
    assert min(gaps(arxiv.requests)) >= 0.2


async def test_retry_after_from_arxiv_holds_the_whole_lane(loopback):
    arxiv = loopback()
    arxiv.route("/api/query", arxiv.in_turn(arxiv.respond(429, headers={"Retry-After": "1"}), arxiv.respond(200, FEED)))
    arxiv.route("/rss/cs.AR", arxiv.respond(200, FEED))
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.05)) as fetcher:
        throttled = asyncio.create_task(fetcher.get(arxiv.url("/api/query")))
        await asyncio.sleep(0.1)
        other = await fetcher.get(arxiv.url("/rss/cs.AR"))
        assert (await throttled).ok and other.ok
    first = arxiv.requests[0].arrived
    later = [r.arrived - first for r in arxiv.requests[1:]]
    assert len(later) == 2 and min(later) >= 1.0


async def test_arxiv_retry_after_is_honoured_beyond_the_budget_of_other_hosts(loopback, monkeypatch):
    """Other hosts give up past fetch.max_retry_after; arXiv's lane waits up to
    ARXIV_RETRY_BUDGET_S, as arXiv asked (and holds the lane meanwhile)."""
    from feedtui.sources.http import fetcher

    monkeypatch.setattr(fetcher, "ARXIV_RETRY_BUDGET_S", 3.0)
    arxiv, other = loopback(), loopback()
    arxiv.route("/api/query", arxiv.in_turn(arxiv.respond(503, headers={"Retry-After": "1"}), arxiv.respond(200, FEED)))
    other.route("/feed", other.respond(503, headers={"Retry-After": "1"}))
    async with Fetcher(fast(max_retry_after=0.5), arxiv_on(arxiv, interval=0.05)) as fetcher:
        from_arxiv = await fetcher.get(arxiv.url("/api/query"))
        elsewhere = await fetcher.get(other.url("/feed"))
    assert from_arxiv.ok and gaps(arxiv.requests)[0] >= 1.0
    assert not elsewhere.ok and "asked to wait 1 s; try again later" in elsewhere.error
    assert len(other.requests) == 1


async def test_waits_worth_telling_are_told_with_why_as_they_begin_and_end(loopback, monkeypatch):
    """A refresh sleeping on a Retry-After showed nothing: the Fetcher now tells
    `on_wait` of each long wait, the request that got it and the ones waiting
    in arXiv's lane behind it; the lane's usual pause is not told."""
    from feedtui.sources.http import pacing

    monkeypatch.setattr(pacing, "WAIT_WORTH_TELLING_S", 0.5)
    arxiv, other = loopback(), loopback()
    arxiv.route("/api/query", arxiv.in_turn(arxiv.respond(429, headers={"Retry-After": "1"}), arxiv.respond(200, FEED)))
    arxiv.route("/rss/cs.AR", arxiv.respond(200, FEED))
    other.route("/feed", other.in_turn(other.respond(503, headers={"Retry-After": "1"}), other.respond(200, FEED)))
    told: list[tuple[float, str]] = []
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.05), on_wait=lambda s, why: told.append((s, why))) as fetcher:
        throttled = asyncio.create_task(fetcher.get(arxiv.url("/api/query")))
        await asyncio.sleep(0.1)
        behind = await fetcher.get(arxiv.url("/rss/cs.AR"))
        assert (await throttled).ok and behind.ok
        assert told[0] == (1.0, "arXiv asked (Retry-After)")
        assert [why for seconds, why in told if seconds] == ["arXiv asked (Retry-After)"] * 2
        assert [why for seconds, why in told if not seconds] == ["arXiv asked (Retry-After)"] * 2
        told.clear()
        assert (await fetcher.get(other.url("/feed"))).ok
        assert told == [(1.0, f"{other.host} asked (Retry-After)"), (0.0, f"{other.host} asked (Retry-After)")]
        told.clear()
        assert (await fetcher.get(arxiv.url("/rss/cs.AR"))).ok and (await fetcher.get(arxiv.url("/rss/cs.AR"))).ok
    assert told == []


def clock_between(earliest: float, latest: float) -> set[str]:
    """The local times of day ("14:05:12") a message may name for a moment in [earliest, latest]."""
    return {datetime.fromtimestamp(t).strftime("%H:%M:%S") for t in range(int(earliest), int(latest) + 2)}


async def test_a_retry_after_too_long_to_wait_for_holds_arxiv_in_every_process(loopback, tmp_path):
    """feedtui gave up on arXiv's Retry-After: 200 and said "try again later",
    then sent its next arXiv request 3 s later, and so did the next refresh."""
    arxiv = loopback()
    arxiv.route("/api/query", arxiv.respond(429, headers={"Retry-After": "200"}))
    arxiv.route("/rss/cs.DC", arxiv.respond(200, FEED))
    pace_file = tmp_path / "arxiv-pace.json"
    asked_at = time.time()
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.05), shared_pace=SharedPace(pace_file)) as fetcher:
        limited = await fetcher.get(arxiv.url("/api/query"))
        started = time.monotonic()
        same_run = await fetcher.get(arxiv.url("/rss/cs.DC"))
        assert time.monotonic() - started < 1.0
    # Another process reads the hold from the pace file.
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.05), shared_pace=SharedPace(pace_file)) as fetcher:
        next_run = await fetcher.get(arxiv.url("/api/query"))
    assert len(arxiv.requests) == 1
    until = clock_between(asked_at + 200, time.time() + 200)
    advice = limited.error.removeprefix(f"rate-limited by {arxiv.host}: the server asked to wait 200 s; try again after ")
    assert advice in until
    for refused in (same_run, next_run):
        assert not refused.ok
        assert refused.error == f"arXiv asked to wait until {advice}; no request goes to it before then"


async def test_arxiv_is_held_at_most_an_hour_whatever_it_asks(loopback, tmp_path):
    arxiv = loopback()
    arxiv.route("/api/query", arxiv.respond(503, headers={"Retry-After": "9" * 26}))
    pace_file = tmp_path / "arxiv-pace.json"
    asked_at = time.time()
    async with Fetcher(fast(), arxiv_on(arxiv, interval=0.05), shared_pace=SharedPace(pace_file)) as fetcher:
        result = await fetcher.get(arxiv.url("/api/query"))
    assert "the server asked to wait more than a day; try again after " in result.error
    assert result.error[-8:] in clock_between(asked_at + 3600, time.time() + 3600)
    held_until = json.loads(pace_file.read_text())["held_until"]
    assert asked_at + 3600 <= held_until <= time.time() + 3600


async def test_another_host_s_long_retry_after_holds_that_host_for_the_refresh(loopback):
    server, other = loopback(), loopback()
    server.route("/a.xml", server.respond(429, headers={"Retry-After": "200"}))
    server.route("/b.xml", server.respond(200, FEED))
    other.route("/c.xml", other.respond(200, FEED))
    asked_at = time.time()
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        limited = await fetcher.get(server.url("/a.xml"))
        same_host = await fetcher.get(server.url("/b.xml"))
        elsewhere = await fetcher.get(other.url("/c.xml"))
    assert limited.error == f"rate-limited by {server.host}: the server asked to wait 200 s; try again later"
    assert [r.path for r in server.requests] == ["/a.xml"]
    until = same_host.error.removeprefix(f"{server.host} asked to wait until ").removesuffix("; not asked again in this refresh")
    assert until in clock_between(asked_at + 200, time.time() + 200)
    assert elsewhere.ok


def test_which_hosts_share_the_arxiv_lane():
    fetcher = Fetcher(
        FetchSettings(),
        ArxivSettings(api_url="http://127.0.0.1:8001/api/query", rss_url="http://localhost:8002/rss/"),
    )
    assert fetcher.is_arxiv_host("https://export.arxiv.org/api/query?search_query=cat:cs.DC")
    assert fetcher.is_arxiv_host("https://rss.arxiv.org/rss/cs.DC")
    assert fetcher.is_arxiv_host("https://arxiv.org/abs/2609.01234")
    assert fetcher.is_arxiv_host("http://127.0.0.1:8001/anything")
    assert fetcher.is_arxiv_host("http://localhost:8002/rss/cs.AR")
    assert not fetcher.is_arxiv_host("http://127.0.0.1:8003/feed.xml")
    assert not fetcher.is_arxiv_host("https://notarxiv.org/feed")
    assert not fetcher.is_arxiv_host("https://arxiv.org.example.com/feed")


# --- concurrency --------------------------------------------------------------------------


async def test_concurrency_reaches_the_global_cap_against_one_fast_host(loopback):
    server = loopback()
    # Beyond httpx's default pool of 100 connections.
    held = server.hold_until(110, FEED)
    urls = [server.route(f"/f{i}", held) for i in range(120)]
    async with Fetcher(fast(concurrency=110, per_host=110), ArxivSettings()) as fetcher:
        results = await asyncio.gather(*(fetcher.get(u) for u in urls))
    assert all(r.ok for r in results)
    assert server.max_in_flight == 110


async def test_many_requests_to_one_host_spread_over_small_pools_that_keep_their_connections(loopback):
    server = loopback()
    first = server.hold_until(40, FEED)
    second = server.hold_until(40, FEED)
    wave_one = [server.route(f"/a{i}", first) for i in range(40)]
    wave_two = [server.route(f"/b{i}", second) for i in range(40)]
    async with Fetcher(fast(concurrency=40, per_host=40), ArxivSettings()) as fetcher:
        assert all(r.ok for r in await asyncio.gather(*(fetcher.get(u) for u in wave_one)))
        # Every pool got its share (no pool holds more than SHARD_CONNECTIONS),
        # and counted its requests as ended: the second wave, all in flight at
        # once again, finds each pool's connections free and opens none.
        assert all(r.ok for r in await asyncio.gather(*(fetcher.get(u) for u in wave_two)))
    assert server.max_in_flight == 40
    assert server.connections_opened == 40


async def test_a_sharded_pool_counts_each_request_as_ended_once_answered_or_failed(loopback, unanswered_port):
    server = loopback()
    held = server.hold_until(24, FEED)
    urls = [server.route(f"/f{i}", held) for i in range(24)]
    transport = ShardedTransport(httpx.Limits(max_connections=24, max_keepalive_connections=24), verify=False)
    assert transport.pools == 3
    async with httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(5.0)) as client:
        answers = await asyncio.gather(*(client.get(u) for u in urls))
        assert [a.content for a in answers] == [FEED] * 24
        assert transport.busy == [0, 0, 0]
        for _ in range(4):
            with pytest.raises(httpx.TimeoutException):
                await client.get(f"http://127.0.0.1:{unanswered_port}/feed", timeout=0.2)
        assert transport.busy == [0, 0, 0]
    # All 24 at once: no pool was asked for more than its 8 connections.
    assert server.max_in_flight == 24 and server.connections_opened == 24


def test_a_sharded_pool_loads_the_ca_bundle_once(monkeypatch):
    """Each of the 8 pools built its own TLS context, loading the CA bundle
    each time: 0.3 s on the event loop at a refresh's first https request."""
    loads = []
    real = ssl.SSLContext.load_verify_locations

    def counted(self, *args, **kwargs):
        loads.append(args or kwargs)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    transport = ShardedTransport(httpx.Limits(max_connections=64, max_keepalive_connections=64))
    assert transport.pools == 8
    assert len(loads) == 1


async def test_per_host_cap_limits_one_host_but_not_another(loopback):
    busy, other = loopback(), loopback()
    busy_urls = [busy.route(f"/f{i}", busy.respond(200, FEED, delay=0.4)) for i in range(8)]
    held = other.hold_until(3, FEED)
    other_urls = [other.route(f"/f{i}", held) for i in range(3)]
    async with Fetcher(fast(concurrency=10, per_host=3), ArxivSettings()) as fetcher:
        results = await asyncio.gather(*(fetcher.get(u) for u in busy_urls + other_urls))
    assert all(r.ok for r in results)
    assert busy.max_in_flight == 3 and other.max_in_flight == 3
    # The other host did not queue behind the busy one's three waves.
    assert max(r.arrived for r in other.requests) < max(r.arrived for r in busy.requests) - 0.4


async def test_waiting_out_a_retry_after_blocks_no_other_host(loopback):
    slow, other = loopback(), loopback()
    slow_url = slow.route("/feed", slow.in_turn(slow.respond(429, headers={"Retry-After": "1"}), slow.respond(200, FEED)))
    other_urls = [other.route(f"/f{i}", other.respond(200, FEED)) for i in range(5)]
    async with Fetcher(fast(concurrency=1, per_host=1), ArxivSettings()) as fetcher:
        waiting = asyncio.create_task(fetcher.get(slow_url))
        await asyncio.sleep(0.1)
        others = await asyncio.gather(*(fetcher.get(u) for u in other_urls))
        assert all(r.ok for r in others)
        assert not waiting.done()
        assert (await waiting).ok
    first = slow.requests[0].arrived
    assert all(r.arrived - first < 0.9 for r in other.requests)


# --- retries and Retry-After ------------------------------------------------------------------


async def test_429_with_retry_after_seconds_then_success(loopback):
    server = loopback()
    url = server.route("/feed", server.in_turn(server.respond(429, headers={"Retry-After": "1"}), server.respond(200, FEED)))
    async with Fetcher(fast(backoff=0.01), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.ok and result.body == FEED and result.attempts == 2
    assert gaps(server.requests)[0] >= 1.0
    assert fetcher.stats.retries == 1


async def test_503_with_retry_after_http_date_is_honoured(loopback):
    server = loopback()

    async def unavailable_for_two_seconds(request, reply):
        when = datetime.now(timezone.utc) + timedelta(seconds=2)
        await reply.send(503, headers={"Retry-After": format_datetime(when.replace(microsecond=0), usegmt=True)})

    url = server.route("/feed", server.in_turn(unavailable_for_two_seconds, server.respond(200, FEED)))
    async with Fetcher(fast(backoff=0.01), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.ok and result.attempts == 2
    # The date has one-second resolution: at least one whole second was waited.
    assert gaps(server.requests)[0] >= 1.0


async def test_retry_after_beyond_the_limit_is_not_waited_for(loopback):
    server = loopback()
    url = server.route("/api/query", server.respond(429, headers={"Retry-After": "3600"}))
    async with Fetcher(fast(max_retry_after=120), ArxivSettings()) as fetcher:
        started = time.monotonic()
        result = await fetcher.get(url)
    assert time.monotonic() - started < 1.0
    assert result.error == f"rate-limited by {server.host}: the server asked to wait 3600 s; try again later"
    assert result.status == 429
    assert len(server.requests) == 1


async def test_retry_after_waits_of_one_source_never_add_up_beyond_the_limit(loopback):
    """A feed answering 503 with Retry-After: 120 four times once held a
    refresh for six minutes; the waits now share one budget."""
    server = loopback()
    url = server.route("/feed", server.respond(503, headers={"Retry-After": "1"}))
    async with Fetcher(fast(retries=3, max_retry_after=1.5), ArxivSettings()) as fetcher:
        started = time.monotonic()
        result = await fetcher.get(url)
    assert time.monotonic() - started < 2.0
    assert result.error == (
        f"HTTP 503 Service Unavailable from {server.host}: the server asked to wait 1 s; try again later"
        " (gave up after 2 attempts)"  # it did wait once: the message says the wait was tried
    )
    assert len(server.requests) == 2


async def test_503_exhausting_retries_backs_off_exponentially_and_says_so(loopback):
    server = loopback()
    url = server.route("/feed", server.respond(503))
    async with Fetcher(fast(retries=3, backoff=0.1), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert not result.ok and result.status == 503
    assert result.error == f"HTTP 503 Service Unavailable from {server.host} (gave up after 4 attempts)"
    assert len(server.requests) == 4 and result.attempts == 4
    waits = gaps(server.requests)
    assert waits[0] >= 0.1 and waits[1] >= 0.2 and waits[2] >= 0.4
    assert fetcher.stats.failures == 1


@pytest.mark.parametrize(
    ("status", "words"),
    [(404, "Not Found"), (410, "Gone"), (400, "Bad Request"), (500, "Internal Server Error")],
)
async def test_client_and_server_errors_are_reported_once_without_retrying(loopback, status, words):
    server = loopback()
    url = server.route("/feed", server.respond(status, b"<html>nope</html>"))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"HTTP {status} {words} from {server.host}"
    assert result.status == status and result.body == b""
    assert len(server.requests) == 1


async def test_connection_closed_without_an_answer_is_retried(loopback):
    server = loopback()

    async def hang_up(request, reply):
        reply.close = True

    url = server.route("/feed", server.in_turn(hang_up, server.respond(200, FEED)))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.ok and result.body == FEED and result.attempts == 2


async def test_an_absurd_retry_after_is_said_in_words(loopback):
    """Retry-After: 10^26 was shown as "wait 100000000000000004764729344 s"."""
    server = loopback()
    url = server.route("/feed", server.respond(429, headers={"Retry-After": "9" * 26}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"rate-limited by {server.host}: the server asked to wait more than a day; try again later"
    assert len(server.requests) == 1


@pytest.mark.parametrize("body", [b"ZZZ\r\nhello\r\n", b"5\r\nhelloXX0\r\n\r\n"])
async def test_a_malformed_chunked_body_is_said_in_words(loopback, body):
    """It was "sent an invalid HTTP response (illegal chunk header: bytearray(b'ZZZ\\r\\n'))"."""
    server = loopback()

    async def broken_chunks(request, reply):
        await reply.head(200, {"Content-Type": "application/rss+xml", "Transfer-Encoding": "chunked"})
        await reply.raw(body)
        reply.close = True

    url = server.route("/feed", broken_chunks)
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"{server.host} sent a malformed chunked body"
    assert len(server.requests) == 1


async def test_an_invalid_header_line_is_named_without_the_bytes_of_python(loopback):
    server = loopback()

    async def bad_header(request, reply):
        await reply.raw(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nno colon here\r\n\r\n")
        reply.close = True

    url = server.route("/feed", bad_header)
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"{server.host} sent an invalid HTTP response (illegal header line)"


def test_retry_after_parses_seconds_and_http_dates():
    now = datetime(2026, 9, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("120", now) == 120.0
    assert retry_after_seconds(" 7 ", now) == 7.0
    assert retry_after_seconds("Tue, 01 Sep 2026 12:00:30 GMT", now) == 30.0
    assert retry_after_seconds("Tue, 01 Sep 2026 11:00:00 GMT", now) == 0.0
    assert retry_after_seconds("soon", now) is None
    assert retry_after_seconds("", now) is None
    assert retry_after_seconds("-5", now) is None


# --- timeouts ----------------------------------------------------------------------------------


async def test_server_that_stalls_before_headers_times_out_on_read(loopback):
    stalled, healthy = loopback(), loopback()
    stalled_url = stalled.route("/feed", stalled.respond(200, FEED, delay=5))
    healthy_url = healthy.route("/feed", healthy.respond(200, FEED))
    async with Fetcher(fast(read_timeout=0.3, timeout=3.0), ArxivSettings()) as fetcher:
        started = time.monotonic()
        bad, good = await asyncio.gather(fetcher.get(stalled_url), fetcher.get(healthy_url))
        elapsed = time.monotonic() - started
    assert good.ok
    assert bad.error == f"timed out waiting for {stalled.host}: no data for 0.3 s"
    assert len(stalled.requests) == 1
    assert elapsed < 2.0


async def test_connect_timeout_is_named(loopback, unanswered_port):
    healthy = loopback()
    healthy_url = healthy.route("/feed", healthy.respond(200, FEED))
    async with Fetcher(fast(connect_timeout=0.3), ArxivSettings()) as fetcher:
        started = time.monotonic()
        bad, good = await asyncio.gather(fetcher.get(f"http://127.0.0.1:{unanswered_port}/feed"), fetcher.get(healthy_url))
        elapsed = time.monotonic() - started
    assert good.ok
    assert bad.error == f"timed out connecting to 127.0.0.1:{unanswered_port} (after 0.3 s)"
    assert bad.attempts == 1 and elapsed < 2.0


async def test_drip_fed_body_ends_at_the_whole_request_deadline(loopback):
    server = loopback()

    async def drip(request, reply):
        await reply.head(200, {"Content-Length": "1000"})
        for _ in range(1000):
            await reply.raw(b"x")
            await asyncio.sleep(0.05)

    url = server.route("/feed", drip)
    async with Fetcher(fast(read_timeout=1.0, timeout=0.6), ArxivSettings()) as fetcher:
        started = time.monotonic()
        result = await fetcher.get(url)
        elapsed = time.monotonic() - started
    assert result.error == f"timed out: {server.host} did not deliver the response within 0.6 s"
    assert 0.6 <= elapsed < 1.5
    assert len(server.requests) == 1


# --- size cap and decompression ----------------------------------------------------------------


async def test_announced_content_length_over_the_cap_is_refused_before_reading(loopback):
    server = loopback()

    async def announce_three_megabytes(request, reply):
        await reply.head(200, {"Content-Length": str(3 * 1024 * 1024)})
        await reply.raw(b"<rss>")
        await asyncio.sleep(2)

    url = server.route("/big", announce_three_megabytes)
    async with Fetcher(fast(max_bytes=2 * 1024 * 1024), ArxivSettings()) as fetcher:
        started = time.monotonic()
        result = await fetcher.get(url)
    assert time.monotonic() - started < 1.0
    assert result.error == f"response from {server.host} larger than 2 MB cap (it announced 3 MB)"


async def test_endless_body_without_content_length_is_cut_off_at_the_cap(loopback):
    server = loopback()
    sent: list[int] = []

    async def endless(request, reply):
        await reply.head(200, {"Content-Type": "application/rss+xml", "Connection": "close"})
        chunk = b"<item>" + b"y" * 16378 + b"</item>"
        while True:
            await reply.raw(chunk)
            sent.append(len(chunk))

    url = server.route("/endless", endless)
    async with Fetcher(fast(max_bytes=100_000), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"response from {server.host} larger than 97.7 KB cap"
    assert result.body == b""
    # The client stopped reading soon after the cap (socket buffers hold the rest).
    await asyncio.sleep(0.2)
    assert sum(sent) < 20 * 1024 * 1024


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    """About 40 KB on the wire, 40 MB decoded."""
    return gzip.compress(b"\0" * (40 * 1024 * 1024), compresslevel=9)


async def test_gzip_bomb_is_cut_off_at_the_cap(loopback, gzip_bomb):
    assert len(gzip_bomb) < 100 * 1024
    server = loopback()
    url = server.route("/bomb", server.respond(200, gzip_bomb, {"Content-Encoding": "gzip"}))
    async with Fetcher(fast(max_bytes=1024 * 1024), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"response from {server.host} larger than 1 MB cap"


def test_bounded_decoder_never_inflates_past_the_room_it_is_given(gzip_bomb):
    decoder = BoundedDecoder.for_encoding("gzip")
    assert decoder is not None
    out = decoder.decode(gzip_bomb, 5000)
    assert len(out) == 5001


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, as some servers send it
    ],
)
async def test_compressed_responses_are_decoded(loopback, encoding, compress):
    server = loopback()
    body = FEED * 200
    url = server.route("/feed", server.respond(200, compress(body), {"Content-Encoding": encoding}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.ok and result.body == body


async def test_corrupt_and_unknown_encodings_are_reported(loopback):
    server = loopback()
    corrupt = server.route("/corrupt", server.respond(200, b"this is not gzip at all", {"Content-Encoding": "gzip"}))
    brotli = server.route("/br", server.respond(200, b"\x8b\x03\x80hello\x03", {"Content-Encoding": "br"}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        bad, unknown = await fetcher.get(corrupt), await fetcher.get(brotli)
    assert bad.error == f"{server.host} sent a corrupt compressed response"
    assert unknown.error == f"{server.host} sent the response in an unsupported encoding (br)"


# --- redirects ---------------------------------------------------------------------------------


async def test_redirects_are_followed_across_paths_and_hosts(loopback):
    first, second = loopback(), loopback()
    final = second.route("/final.xml", second.respond(200, FEED))
    first.route("/old", first.respond(301, headers={"Location": "/middle"}))
    first.route("/middle", first.respond(307, headers={"Location": final}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(first.url("/old"))
    assert result.ok and result.body == FEED
    assert result.final_url == final and result.url == first.url("/old")
    assert result.attempts == 3


async def test_redirect_loop_is_reported(loopback):
    server = loopback()
    server.route("/a", server.respond(302, headers={"Location": "/b"}))
    server.route("/b", server.respond(302, headers={"Location": "/a"}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(server.url("/a"))
    assert result.error == f"redirect loop: {server.url('/b')} redirects back to {server.url('/a')}"
    assert len(server.requests) == 2


async def test_too_many_redirects_are_reported(loopback):
    server = loopback()
    for hop in range(10):
        server.route(f"/hop{hop}", server.respond(302, headers={"Location": f"/hop{hop + 1}"}))
    async with Fetcher(fast(max_redirects=5), ArxivSettings()) as fetcher:
        result = await fetcher.get(server.url("/hop0"))
    assert result.error == f"too many redirects from {server.host} (more than 5)"
    assert len(server.requests) == 6


@pytest.mark.parametrize(
    "location", ["file:///etc/passwd", "javascript:alert(1)", "JavaScript:alert(1)", "mailto:someone@example.org"]
)
async def test_redirect_to_another_scheme_is_refused_in_words(loopback, location):
    """httpx builds the next request of a redirect even when not following it,
    and `javascript:alert(1)` made that fail as "unexpected error: InvalidURL(...)"."""
    server = loopback()
    url = server.route("/feed", server.respond(302, headers={"Location": location}))
    scheme = location.split(":")[0].lower()
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f'{server.host} redirected to an unsupported URL scheme "{scheme}:" (only http and https)'
    assert len(server.requests) == 1


async def test_redirect_to_a_port_out_of_range_is_refused_in_words(loopback):
    """It was "unexpected error: ExceptionGroup(... OverflowError(...))"."""
    server = loopback()
    url = server.route("/feed", server.respond(302, headers={"Location": "http://127.0.0.1:99999/x"}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == f"{server.host} redirected to an invalid URL 'http://127.0.0.1:99999/x': port 99999 is not from 1 to 65535"


async def test_redirect_to_a_location_with_a_control_character_is_refused_in_words(loopback):
    server = loopback()
    url = server.route("/feed", server.respond(302, headers={"Location": "/next?\x1b[31mred"}))
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == (
        f"{server.host} redirected to an invalid URL '/next?red': "
        "Invalid non-printable ASCII character in URL, '\\x1b' at position 6"
    )
    assert "\x1b" not in result.error and ".." not in result.error
    assert len(server.requests) == 1


# --- failures before any answer ------------------------------------------------------------------


async def test_connection_refused(closed_port):
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(f"http://127.0.0.1:{closed_port}/feed.xml")
    assert result.error == f"could not connect to 127.0.0.1:{closed_port}: connection refused"
    assert result.attempts == 1 and result.status is None


async def test_dns_failure():
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get("http://feedtui-test.invalid/feed.xml")
    assert result.error == "could not resolve host feedtui-test.invalid"


async def test_tls_failure_is_reported(loopback):
    server = loopback()
    server.greeting = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(f"https://{server.host}/feed")
    assert result.error.startswith(f"TLS handshake with {server.host} failed (")


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("file:///etc/passwd", "unsupported URL scheme \"file:\" in 'file:///etc/passwd' (feedtui fetches only http and https)"),
        ("javascript:alert(1)", "unsupported URL scheme \"javascript:\" in 'javascript:alert(1)' (feedtui fetches only http and https)"),
        ("data:text/xml,<rss/>", "unsupported URL scheme \"data:\" in 'data:text/xml,<rss/>' (feedtui fetches only http and https)"),
        ("ftp://example.org/feed", "unsupported URL scheme \"ftp:\" in 'ftp://example.org/feed' (feedtui fetches only http and https)"),
        ("example.org/feed", "invalid URL 'example.org/feed': it should start with http:// or https://"),
        ("http://", "invalid URL 'http://': it names no host"),
        ("http://[::1", "invalid URL 'http://[::1': Invalid port: ':1'"),
        ("http://127.0.0.1:99999/x", "invalid URL 'http://127.0.0.1:99999/x': port 99999 is not from 1 to 65535"),
    ],
)
async def test_urls_that_are_not_fetched(url, error):
    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        result = await fetcher.get(url)
    assert result.error == error
    assert result.attempts == 0 and fetcher.stats.requests == 0


async def test_requests_do_not_search_for_modules_again_and_again(loopback, monkeypatch):
    """httpcore imports sniffio (and anyio its helpers) each time it makes a
    lock or an event; a module that is not installed is searched for on disk
    every time (encode/httpcore#1103). feedtui depends on sniffio so that
    never happens: after the first request, the next ones import nothing new."""
    import builtins
    import sys

    server = loopback()
    urls = [server.route(f"/feed{i}.xml", server.respond(200, FEED)) for i in range(6)]
    searched: list[str] = []
    real_import = builtins.__import__

    def watching_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name not in sys.modules:
            searched.append(name)
        return real_import(name, globals, locals, fromlist, level)

    async with Fetcher(fast(), ArxivSettings()) as fetcher:
        assert (await fetcher.get(urls[0])).ok
        monkeypatch.setattr(builtins, "__import__", watching_import)
        results = await asyncio.gather(*(fetcher.get(url) for url in urls[1:]))
        monkeypatch.undo()
    assert all(r.ok for r in results)
    assert searched == []


def test_the_client_leaves_httpx_command_line_client_unimported(tmp_path):
    """httpx's own CLI (click, rich, pygments) is never imported with the
    client, whatever is installed; httpx still works, and its `main` only
    says the CLI is missing."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "import feedtui.sources.http\n"
        "import httpx\n"
        "assert sys.modules.get('httpx._main') is None, 'httpx._main was imported'\n"
        "assert 'click' not in sys.modules and 'rich.console' not in sys.modules\n"
        "assert httpx.Client and httpx.AsyncClient and callable(httpx.main)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
