"""Paging through the arXiv API against a loopback server that serves invented papers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

import pytest

from feedtui.model import Author, Paper
from feedtui.settings import ArxivSettings, FetchSettings
from feedtui.sources.arxiv_api import (
    API_ERROR_PREFIX,
    build_query_url,
    category_feed_url,
    expected_results,
    fetch_query,
)
from feedtui.sources.base import FeedError, ParsedFeed, Validators
from feedtui.sources.http import Fetcher
from feedtui.sources.parse.route import parse_feed

UTC = timezone.utc
NEWEST = datetime(2026, 9, 1, 12, 0, tzinfo=UTC)
QUERY = "cat:cs.DC AND abs:scheduler"

# --- an invented arXiv API, in its real Atom shape ------------------------------------------------

ATOM = "http://www.w3.org/2005/Atom"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
ARXIV = "http://arxiv.org/schemas/atom"


def invented_paper(index: int) -> dict:
    """Paper number `index`, submitted `index` days before NEWEST."""
    published = NEWEST - timedelta(days=index)
    return {
        "id": f"2609.{10000 + index:05d}",
        "version": 1 + index % 3,
        "title": f"Invented scheduler study number {index}",
        "summary": f"We schedule {index} imaginary jobs on $n^2$ imaginary cores.",
        "published": published,
        "authors": [f"Ada Example{index}", "Bo Invented"],
    }


def api_feed(papers: list[dict], total: int, start: int, per_page: int) -> bytes:
    """An arXiv API response page, as export.arxiv.org shapes it."""
    entries = []
    for p in papers:
        stamp = p["published"].strftime("%Y-%m-%dT%H:%M:%SZ")
        authors = "".join(f"<author><name>{escape(name)}</name></author>" for name in p["authors"])
        entries.append(
            f"""<entry>
    <id>http://arxiv.org/abs/{p['id']}v{p['version']}</id>
    <updated>{stamp}</updated>
    <published>{stamp}</published>
    <title>{escape(p['title'])}</title>
    <summary>{escape(p['summary'])}</summary>
    {authors}
    <link href="http://arxiv.org/abs/{p['id']}v{p['version']}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{p['id']}v{p['version']}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="{ARXIV}" term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>
  </entry>"""
        )
    return _feed("\n  ".join(entries), total, start, per_page)


def api_error_feed(message: str) -> bytes:
    entry = f"""<entry>
    <id>http://arxiv.org/api/errors#{escape(message.replace(' ', '_'))}</id>
    <title>Error</title>
    <summary>{escape(message)}</summary>
    <updated>2026-09-01T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#{escape(message.replace(' ', '_'))}" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>"""
    return _feed(entry, 1, 0, 1)


def _feed(entries: str, total: int, start: int, per_page: int) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="{ATOM}">
  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: invented</title>
  <id>http://arxiv.org/api/invented</id>
  <updated>2026-09-01T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="{OPENSEARCH}">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="{OPENSEARCH}">{start}</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="{OPENSEARCH}">{per_page}</opensearch:itemsPerPage>
  {entries}
</feed>
""".encode()


def parse_api_page(data: bytes, url: str) -> ParsedFeed:
    """A test-only reader of the pages above (the real parser lives in feedtui.sources.parse).

    It follows the agreed convention: an API error entry becomes a warning
    starting with "arXiv API error:"."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise FeedError(f"not an Atom feed: {exc}") from None
    ns = {"a": ATOM, "os": OPENSEARCH, "arxiv": ARXIV}
    feed = ParsedFeed(kind="arxiv-api", total_results=int(root.findtext("os:totalResults", "0", ns)))
    for entry in root.findall("a:entry", ns):
        entry_id = entry.findtext("a:id", "", ns)
        if entry_id.startswith("http://arxiv.org/api/errors"):
            feed.warnings.append(f"{API_ERROR_PREFIX} {entry.findtext('a:summary', '', ns)}")
            continue
        arxiv_id, _, version = entry_id.rsplit("/", 1)[1].partition("v")
        title = entry.findtext("a:title", "", ns)
        summary = entry.findtext("a:summary", "", ns)
        feed.papers.append(
            Paper(
                id=arxiv_id,
                version=int(version),
                title=title,
                abstract=summary,
                published=datetime.fromisoformat(entry.findtext("a:published", "", ns)),
                updated=datetime.fromisoformat(entry.findtext("a:updated", "", ns)),
                authors=tuple(Author(a.findtext("a:name", "", ns)) for a in entry.findall("a:author", ns)),
                primary_category="cs.DC",
                categories=("cs.DC",),
                sources=(url,),
            )
        )
    return feed


class InventedApi:
    """Serves `count` invented papers newest first, paged by start/max_results."""

    def __init__(self, count: int) -> None:
        self.papers = [invented_paper(i) for i in range(count)]
        # start -> how many more times that page comes back empty.
        self.empty_pages: dict[int, int] = {}
        self.etag = '"page-one-v1"'
        # Submitted while a client pages: goes to the top once page one is served.
        self.late_arrival: dict | None = None
        # start -> how many more times that page's XML is cut off halfway
        # (the HTTP response itself complete).
        self.cut_pages: dict[int, int] = {}
        # Results claimed in totalResults beyond those served (arXiv's count is often off).
        self.overcount = 0

    async def __call__(self, request, reply) -> None:
        if request.query.get("start") == "0" and request.headers.get("if-none-match") == self.etag:
            await reply.send(304, headers={"ETag": self.etag})
            return
        start = int(request.query["start"])
        per_page = int(request.query["max_results"])
        page = self.papers[start : start + per_page]
        if self.empty_pages.get(start, 0) > 0:
            self.empty_pages[start] -= 1
            page = []
        headers = {"Content-Type": "application/atom+xml; charset=utf-8"}
        if start == 0:
            headers["ETag"] = self.etag
        body = api_feed(page, len(self.papers) + self.overcount, start, per_page)
        if self.cut_pages.get(start, 0) > 0:
            self.cut_pages[start] -= 1
            body = body[: len(body) * 3 // 5]
        await reply.send(200, body, headers)
        if start == 0 and self.late_arrival is not None:
            self.papers.insert(0, self.late_arrival)
            self.late_arrival = None


def settings_for(server, **overrides) -> ArxivSettings:
    values = dict(api_url=server.url("/api/query"), rss_url=server.url("/rss/"), min_interval=0.05, page_size=10)
    values.update(overrides)
    return ArxivSettings(**values)


def fetch_settings() -> FetchSettings:
    return FetchSettings(connect_timeout=2.0, read_timeout=2.0, timeout=5.0, retries=1, backoff=0.01)


def pages_asked(server) -> list[tuple[int, int]]:
    return [(int(r.query["start"]), int(r.query["max_results"])) for r in server.requests_to("/api/query")]


def ids(indices) -> list[str]:
    return [f"2609.{10000 + i:05d}" for i in indices]


async def run_query(arxiv: ArxivSettings, *, since: datetime, validators: Validators | None = None, parse=parse_api_page):
    async with Fetcher(fetch_settings(), arxiv) as fetcher:
        return await fetch_query(fetcher, arxiv, QUERY, since=since, parse=parse, validators=validators)


# --- URLs ----------------------------------------------------------------------------------------


def test_build_query_url_encodes_the_query_and_asks_newest_first():
    url = build_query_url("https://export.arxiv.org/api/query", 'cat:cs.DC AND ti:"fair share" & more', 200, 100)
    assert url == (
        "https://export.arxiv.org/api/query?search_query=cat:cs.DC+AND+ti:%22fair+share%22+%26+more"
        "&start=200&max_results=100&sortBy=submittedDate&sortOrder=descending"
    )
    query = parse_qs(urlsplit(url).query)
    assert query["search_query"] == ['cat:cs.DC AND ti:"fair share" & more']
    assert build_query_url("http://127.0.0.1:8000/api?key=1", "all:x", 0, 10).startswith(
        "http://127.0.0.1:8000/api?key=1&search_query=all:x&start=0"
    )


def test_category_feed_url_joins_categories_in_one_request():
    assert category_feed_url("https://rss.arxiv.org/rss/", ["cs.DC", "cs.AR"]) == "https://rss.arxiv.org/rss/cs.DC+cs.AR"
    assert category_feed_url("http://127.0.0.1:8000/rss", ["hep-th"]) == "http://127.0.0.1:8000/rss/hep-th"
    with pytest.raises(ValueError):
        category_feed_url("https://rss.arxiv.org/rss/", [])


# --- paging ---------------------------------------------------------------------------------------


async def test_pages_until_papers_fall_outside_the_window_paced_on_one_connection(loopback):
    server = loopback()
    server.route("/api/query", InventedApi(100))
    arxiv = settings_for(server, min_interval=0.2)
    result = await run_query(arxiv, since=NEWEST - timedelta(days=25, hours=12))
    assert result.ok, result.error
    assert [p.id for p in result.papers] == ids(range(26))
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 10)]
    assert result.pages == 3 and result.requests == 3 and result.total_results == 100
    first = server.requests[0].query
    assert first["search_query"] == QUERY
    assert (first["sortBy"], first["sortOrder"]) == ("submittedDate", "descending")
    times = [r.arrived for r in server.requests]
    assert min(b - a for a, b in zip(times, times[1:])) >= 0.2
    assert server.max_connections == 1


async def test_each_page_tells_how_many_results_are_read_of_about_how_many(loopback):
    """A query of 50 pages said nothing for 2.5 minutes. Papers a day apart, a
    window of 25.5 days: the pages read so far tell the rest (10 in 9 days → ~28),
    while totalResults and max_results bound it."""
    server = loopback()
    server.route("/api/query", InventedApi(100))
    arxiv = settings_for(server)
    read: list[tuple[int, int]] = []
    async with Fetcher(fetch_settings(), arxiv) as fetcher:
        result = await fetch_query(
            fetcher, arxiv, QUERY, since=NEWEST - timedelta(days=25, hours=12), parse=parse_api_page,
            on_read=lambda n, of: read.append((n, of)),
        )
    assert result.ok and len(result.papers) == 26
    assert read == [(10, 28), (20, 27), (30, 26)]
    read.clear()
    async with Fetcher(fetch_settings(), arxiv) as fetcher:
        await fetch_query(
            fetcher, arxiv.replaced(max_results=25), QUERY, since=NEWEST - timedelta(days=365), parse=parse_api_page,
            on_read=lambda n, of: read.append((n, of)),
        )
    assert read == [(10, 25), (20, 25), (25, 25)]
    assert expected_results(10, 23, 2000, NEWEST, NEWEST - timedelta(days=9), NEWEST - timedelta(days=365)) == 23


async def test_max_results_caps_the_pages(loopback):
    server = loopback()
    server.route("/api/query", InventedApi(100))
    result = await run_query(settings_for(server, max_results=25), since=NEWEST - timedelta(days=365))
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 5)]
    assert [p.id for p in result.papers] == ids(range(25))
    assert result.ok


async def test_stops_when_total_results_are_exhausted(loopback):
    server = loopback()
    server.route("/api/query", InventedApi(23))
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 10)]
    assert len(result.papers) == 23 and result.total_results == 23 and result.ok


async def test_a_paper_pushed_onto_the_next_page_is_kept_once(loopback):
    server = loopback()
    api = InventedApi(30)
    newcomer = invented_paper(0) | {"id": "2609.20000", "title": "Submitted while paging"}
    api.late_arrival = newcomer
    server.route("/api/query", api)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert result.ok, result.error
    # Paper 9 comes back at the top of page two; the newcomer waits for the next refresh.
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 10), (30, 10)]
    assert [p.id for p in result.papers] == ids(range(30))


async def handed_over_with_a_newcomer(loopback, revise_the_repeated_paper: bool) -> tuple[list[str], Paper]:
    """The ids `on_page` is given while paper 9 is pushed onto page two (and, if
    asked, revised to its next version meanwhile), and the record kept of paper 9."""
    server = loopback()
    api = InventedApi(30)
    api.late_arrival = invented_paper(0) | {"id": "2609.20000"}

    async def serve(request, reply):
        await api(request, reply)
        if request.query["start"] == "0" and revise_the_repeated_paper:
            api.papers[10]["version"] += 1  # paper 9, now at the top of page two

    server.route("/api/query", serve)
    arxiv = settings_for(server)
    handed: list[str] = []
    async with Fetcher(fetch_settings(), arxiv) as fetcher:
        result = await fetch_query(
            fetcher, arxiv, QUERY, since=NEWEST - timedelta(days=365), parse=parse_api_page,
            on_page=lambda papers: handed.extend(p.id for p in papers),
        )
    assert result.ok and [p.id for p in result.papers] == ids(range(30))
    [repeated] = [p for p in result.papers if p.id == ids([9])[0]]
    return handed, repeated


async def test_a_paper_repeated_on_the_next_page_is_handed_over_once(loopback):
    """Handed over again with the second page's URL added to its sources, it was stored as updated."""
    handed, repeated = await handed_over_with_a_newcomer(loopback, revise_the_repeated_paper=False)
    assert handed == ids(range(30))
    # One record of both pages' answers: their sources, merged.
    assert sorted(parse_qs(urlsplit(source).query)["start"] for source in repeated.sources) == [["0"], ["10"]]


async def test_a_paper_revised_while_it_moved_to_the_next_page_is_handed_over_again(loopback):
    handed, repeated = await handed_over_with_a_newcomer(loopback, revise_the_repeated_paper=True)
    assert handed == ids([*range(10), *range(9, 30)])
    assert repeated.version == invented_paper(9)["version"] + 1
    assert len(repeated.sources) == 2


async def test_an_empty_result_is_not_an_error(loopback):
    server = loopback()
    server.route("/api/query", InventedApi(0))
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert result.ok and result.papers == [] and result.total_results == 0
    assert pages_asked(server) == [(0, 10)]


async def test_api_error_entry_is_the_query_error(loopback):
    server = loopback()
    server.route("/api/query", server.respond(200, api_error_feed("malformed query near AND AND")))
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert result.error == "arXiv API error: malformed query near AND AND"
    assert result.papers == [] and result.pages == 1


async def test_empty_page_is_retried_then_reading_goes_on(loopback):
    server = loopback()
    api = InventedApi(30)
    api.empty_pages[10] = 1
    server.route("/api/query", api)
    result = await run_query(settings_for(server, empty_page_retries=2), since=NEWEST - timedelta(days=365))
    assert result.ok, result.error
    assert pages_asked(server) == [(0, 10), (10, 10), (10, 10), (20, 10)]
    assert [p.id for p in result.papers] == ids(range(30))


async def test_empty_page_that_stays_empty_is_reported_and_earlier_pages_kept(loopback):
    server = loopback()
    api = InventedApi(30)
    api.empty_pages[10] = 99
    server.route("/api/query", api)
    result = await run_query(settings_for(server, empty_page_retries=2), since=NEWEST - timedelta(days=365))
    assert result.error == (
        "the arXiv API returned an empty page at result 10 although it reports 30 results "
        "(asked 3 times); try again later"
    )
    assert pages_asked(server) == [(0, 10), (10, 10), (10, 10), (10, 10)]
    assert [p.id for p in result.papers] == ids(range(10))


async def test_a_short_page_then_an_empty_one_is_the_end_whatever_total_results_says(loopback):
    server = loopback()
    api = InventedApi(25)
    api.overcount = 15
    server.route("/api/query", api)
    result = await run_query(settings_for(server, empty_page_retries=2), since=NEWEST - timedelta(days=365))
    assert result.ok, result.error
    # The empty page is asked for again all the same: arXiv serves empty pages that are not the end.
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 10), (25, 10), (25, 10), (25, 10)]
    assert [p.id for p in result.papers] == ids(range(25))
    assert result.warnings == ["the arXiv API served 25 of the 40 results it reports"]


async def test_an_entry_that_cannot_be_read_still_counts_towards_its_page(loopback):
    """Paging went on from the papers read: one entry without an id made the next page start one early."""
    server = loopback()
    api = InventedApi(30)
    api.papers[3]["id"] = "garbled"
    server.route("/api/query", api)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365), parse=parse_feed)
    assert result.ok, result.error
    assert pages_asked(server) == [(0, 10), (10, 10), (20, 10)]
    assert [p.id for p in result.papers] == ids([*range(3), *range(4, 30)])


async def test_an_empty_page_after_a_page_with_an_unreadable_entry_is_asked_for_again(loopback):
    """A full page with one unreadable entry looked short, so arXiv's passing empty
    page ended the query as a success: 9 of 29 papers, and a false "served 9 of 30"."""
    server = loopback()
    api = InventedApi(30)
    api.papers[3]["id"] = "garbled"
    # The second page comes back empty once, wherever it starts.
    api.empty_pages.update({9: 1, 10: 1})
    server.route("/api/query", api)
    arxiv = settings_for(server, empty_page_retries=2)
    result = await run_query(arxiv, since=NEWEST - timedelta(days=365), parse=parse_feed)
    assert result.ok, result.error
    assert pages_asked(server) == [(0, 10), (10, 10), (10, 10), (20, 10)]
    assert len(result.papers) == 29
    assert result.warnings == ["1 entry without an arXiv id skipped"]


async def test_http_failure_on_a_later_page_keeps_the_earlier_ones(loopback):
    server = loopback()
    api = InventedApi(30)

    async def fail_second_page(request, reply):
        if request.query["start"] == "10":
            await reply.send(500)
        else:
            await api(request, reply)

    server.route("/api/query", fail_second_page)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert result.error == f"HTTP 500 Internal Server Error from {server.host} (while reading results from 10 on)"
    assert [p.id for p in result.papers] == ids(range(10))


async def test_a_page_cut_off_in_its_xml_is_asked_for_again_not_read_leniently(loopback):
    server = loopback()
    api = InventedApi(30)
    api.cut_pages[10] = 1
    server.route("/api/query", api)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365), parse=parse_feed)
    assert result.ok, result.error
    assert pages_asked(server) == [(0, 10), (10, 10), (10, 10), (20, 10)]
    assert [p.id for p in result.papers] == ids(range(30))
    assert all(p.categories == ("cs.DC",) and p.pdf_url for p in result.papers)
    assert result.warnings == []


async def test_a_page_that_stays_cut_off_fails_the_query_and_earlier_pages_are_kept(loopback):
    server = loopback()
    api = InventedApi(30)
    api.cut_pages[10] = 99
    server.route("/api/query", api)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365), parse=parse_feed)
    assert result.error.startswith("the arXiv API sent a page cut short (XML error at line ")
    assert result.error.endswith("; asked 2 times); try again later (while reading results from 10 on)")
    assert pages_asked(server) == [(0, 10), (10, 10), (10, 10)]
    assert [p.id for p in result.papers] == ids(range(10))


async def test_a_page_that_does_not_parse_is_reported(loopback):
    server = loopback()
    server.route("/api/query", server.respond(200, b"<html><body>Service maintenance</body>"))
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    assert result.error.startswith("not an Atom feed: ")


# --- conditional GET ------------------------------------------------------------------------------


async def test_first_page_is_conditional_and_304_means_nothing_new(loopback):
    server = loopback()
    server.route("/api/query", InventedApi(30))
    arxiv = settings_for(server)
    since = NEWEST - timedelta(days=365)
    first = await run_query(arxiv, since=since)
    assert first.validators == Validators(etag='"page-one-v1"')
    assert len(server.requests) == 3
    assert not any("if-none-match" in r.headers for r in server.requests)

    second = await run_query(arxiv, since=since, validators=first.validators)
    assert second.ok and second.not_modified
    assert second.papers == [] and second.pages == 1
    assert second.validators == first.validators
    assert server.requests[3].headers["if-none-match"] == '"page-one-v1"'
    assert len(server.requests) == 4


async def test_only_the_first_page_carries_validators(loopback):
    server = loopback()
    api = InventedApi(30)
    api.etag = '"page-one-v2"'
    server.route("/api/query", api)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365), validators=Validators(etag='"page-one-v1"'))
    assert result.ok and not result.not_modified and len(result.papers) == 30
    assert result.validators == Validators(etag='"page-one-v2"')
    sent = [r.headers.get("if-none-match") for r in server.requests]
    assert sent == ['"page-one-v1"', None, None]


async def test_304_to_a_later_page_is_reported(loopback):
    server = loopback()
    api = InventedApi(30)

    async def not_modified_later(request, reply):
        if request.query["start"] == "10":
            await reply.send(304)
        else:
            await api(request, reply)

    server.route("/api/query", not_modified_later)
    result = await run_query(settings_for(server), since=NEWEST - timedelta(days=365))
    host = settings_for(server).api_url.split("/")[2]
    assert result.error == (
        f"HTTP 304 Not Modified from {host} to a request for the whole feed (it sent nothing to compare with); "
        "the server is misconfigured (while reading results from 10 on)"
    )
    assert not result.not_modified and len(result.papers) == 10
