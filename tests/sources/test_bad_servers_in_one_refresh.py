"""Every kind of bad server in one refresh, through the engine: each source
gets its own message, and the healthy feed beside them is stored all the same."""

from __future__ import annotations

import asyncio
import gzip
from datetime import timedelta
from email.utils import format_datetime

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition, utcnow

# What the arXiv API answers, with HTTP 200, to a query it cannot read.
API_ERROR = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <title>ArXiv Query</title>
  <id>http://arxiv.org/api/invented</id>
  <updated>2026-11-30T00:00:00-05:00</updated>
  <opensearch:totalResults>1</opensearch:totalResults>
  <opensearch:startIndex>0</opensearch:startIndex>
  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/api/errors#malformed_query_near_AND_AND</id>
    <title>Error</title>
    <summary>malformed query near AND AND</summary>
    <updated>2026-11-30T00:00:00-05:00</updated>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>
"""


def healthy_rss(now) -> bytes:
    items = "".join(
        f"""<item><title>Healthy paper {n}</title><guid>urn:invented:healthy-{n}</guid>
        <link>https://papers.example.org/healthy-{n}</link>
        <description>An invented abstract number {n}.</description>
        <pubDate>{format_datetime(now - timedelta(days=n))}</pubDate></item>"""
        for n in (1, 2)
    )
    return f"<?xml version='1.0'?><rss version='2.0'><channel><title>Healthy</title>{items}</channel></rss>".encode()


async def drip(request, reply):
    await reply.head(200, {"Content-Length": "1000"})
    for _ in range(1000):
        await reply.raw(b"x")
        await asyncio.sleep(0.05)


async def endless(request, reply):
    await reply.head(200, {"Content-Type": "application/rss+xml"})
    while True:
        await reply.raw(b"<item>" * 8192)


async def test_each_bad_server_is_named_and_the_healthy_feed_still_lands(tmp_path, loopback, closed_port):
    now = utcnow()
    # The API has a host of its own: the Retry-After: 3600 below, from an arXiv
    # host, would hold every request to it for the hour.
    server, tls, api = loopback(), loopback(), loopback()
    api.route("/api/query", api.respond(200, API_ERROR, {"Content-Type": "application/atom+xml"}))
    tls.greeting = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
    bomb = gzip.compress(b"\0" * (4 * 1024 * 1024), compresslevel=9)
    assert len(bomb) * 1000 < 4 * 1024 * 1024 * 1.1
    far = format_datetime(now + timedelta(hours=2), usegmt=True)
    whole = healthy_rss(now)
    partly = whole[: whole.index(b"<item>", whole.index(b"<item>") + 1) + 40]
    routes = {
        "/healthy.xml": server.respond(200, healthy_rss(now), {"Content-Type": "application/rss+xml"}),
        "/stall.xml": server.respond(200, b"<rss/>", delay=5),
        "/drip.xml": drip,
        "/endless.xml": endless,
        "/announced.xml": server.respond(200, b"", {"Content-Length": str(3 * 1024 * 1024)}),
        "/bomb.xml": server.respond(200, bomb, {"Content-Encoding": "gzip"}),
        "/loop-a.xml": server.respond(302, headers={"Location": "/loop-b.xml"}),
        "/loop-b.xml": server.respond(302, headers={"Location": "/loop-a.xml"}),
        "/gone.xml": server.respond(410),
        "/broken.xml": server.respond(500, b"<html>oops</html>"),
        "/limited.xml": server.respond(429, headers={"Retry-After": "3600"}),
        "/busy.xml": server.respond(503, headers={"Retry-After": far}),
        "/page.xml": server.respond(200, b"<!DOCTYPE html><html><body>Sign in</body></html>", {"Content-Type": "text/html"}),
        # Cut short: in the first entry, and after the first of two.
        "/cut.xml": server.respond(200, healthy_rss(now)[:130], {"Content-Type": "application/rss+xml"}),
        "/partly.xml": server.respond(200, partly, {"Content-Type": "application/rss+xml"}),
    }
    for path, handler in routes.items():
        server.route(path, handler)
    expected = {
        server.url("/healthy.xml"): None,
        f"http://127.0.0.1:{closed_port}/feed.xml": "connection refused",
        "http://feedtui-test.invalid/feed.xml": "could not resolve host feedtui-test.invalid",
        f"https://{tls.host}/feed.xml": f"TLS handshake with {tls.host} failed",
        server.url("/stall.xml"): f"timed out waiting for {server.host}",
        server.url("/drip.xml"): f"{server.host} did not deliver the response within 2 s",
        server.url("/endless.xml"): "larger than 1 MB cap",
        server.url("/announced.xml"): "larger than 1 MB cap (it announced 3 MB)",
        server.url("/bomb.xml"): "larger than 1 MB cap",
        server.url("/loop-a.xml"): "redirect loop",
        server.url("/nowhere.xml"): f"HTTP 404 Not Found from {server.host}",
        server.url("/gone.xml"): f"HTTP 410 Gone from {server.host}",
        server.url("/broken.xml"): f"HTTP 500 Internal Server Error from {server.host}",
        server.url("/limited.xml"): f"rate-limited by {server.host}",
        server.url("/busy.xml"): "try again later",
        server.url("/page.xml"): "not a feed: the response is HTML",
        server.url("/cut.xml"): "not a feed: XML error at line 1",
    }

    config = Config()
    config.settings.auto_refresh = False
    fetch = config.settings.fetch
    fetch.connect_timeout, fetch.read_timeout, fetch.timeout = 1.0, 0.5, 2.0
    fetch.max_bytes, fetch.retries, fetch.backoff, fetch.max_retry_after = 1024 * 1024, 1, 0.01, 5.0
    config.settings.arxiv.api_url = api.url("/api/query")
    config.settings.arxiv.min_interval = 0.05
    engine = Engine(config, tmp_path / "data", background_writes=False)
    try:
        for number, url in enumerate(expected):
            engine.add_topic(f"Feed {number:02}", TopicDefinition(feeds=(url,)))
            engine.follow(f"Feed {number:02}")
        engine.add_topic("Partly", TopicDefinition(feeds=(server.url("/partly.xml"),)))
        engine.follow("Partly")
        engine.add_topic("Bad query", TopicDefinition(query='abs:"anything at all"'))
        engine.follow("Bad query")

        report = await engine.refresh()

        by_url = {source.url: source for source in report.sources}
        for url, message in expected.items():
            source = by_url[url]
            if message is None:
                assert source.ok and source.papers == 2, source
            else:
                assert not source.ok, url
                assert message in source.error, (url, source.error)
        arxiv = [s for s in report.sources if s.label == "Bad query"]
        assert len(arxiv) == 1 and arxiv[0].error == "arXiv API error: malformed query near AND AND"
        # Read leniently: what was whole is kept, and the report says the rest is not.
        partly_read = by_url[server.url("/partly.xml")]
        assert partly_read.ok and partly_read.papers == 1
        assert partly_read.reading_notes[0].startswith("the feed is not well-formed (XML error at line ")
        assert partly_read.warning == ""
        assert report.new_papers == 2  # the partly read paper has the guid of a healthy one
        titles = [paper.title for paper in engine.papers(engine.topic_positions("Feed 00"))]
        assert titles == ["Healthy paper 1", "Healthy paper 2"]
    finally:
        engine.close()
