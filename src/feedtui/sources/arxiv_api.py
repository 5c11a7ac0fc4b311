"""Querying the arXiv API page by page, and the URLs of arXiv's feeds.

Results are asked for newest first (`sortBy=submittedDate`,
`sortOrder=descending`), so paging can stop as soon as a page reaches papers
older than the window. Every request goes through the `Fetcher`, whose arXiv
lane keeps pages at least `min_interval` seconds apart on one connection.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from urllib.parse import quote, urlencode

from feedtui.model import Paper
from feedtui.settings import ArxivSettings
from feedtui.sources.base import FeedError, ParsedFeed, Validators
from feedtui.sources.http import Fetcher

# The parser reports an arXiv API error entry (an entry whose id starts with
# http://arxiv.org/api/errors, served with HTTP 200) as a ParsedFeed warning
# that starts with this.
API_ERROR_PREFIX = "arXiv API error:"

# A parser, plain (run in a thread) or a coroutine function (awaited as it is).
# How an API page ends (arXiv sends UTF-8).
_FEED_END = re.compile(rb"</(?:[\w.-]+:)?feed>\s*\Z")

Parse = Callable[[bytes, str], ParsedFeed] | Callable[[bytes, str], Awaitable[ParsedFeed]]


@dataclass(slots=True)
class ApiQueryResult:
    """What one paged arXiv API query brought back.

    Papers fetched before an error are kept: a query that fails on its third
    page still delivers its first two.
    """

    papers: list[Paper] = field(default_factory=list)
    # opensearch:totalResults of the last page read.
    total_results: int | None = None
    # Pages asked for (an empty page asked for again counts each time), and the
    # HTTP requests that took (retries and redirect hops included).
    pages: int = 0
    requests: int = 0
    # The first page answered 304: nothing new since the validators were saved.
    not_modified: bool = False
    error: str = ""
    # The first page's validators, to keep for the next conditional GET.
    validators: Validators = field(default_factory=Validators)
    # Parser warnings that did not stop the query (entries skipped, …).
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.error


def build_query_url(api_url: str, search_query: str, start: int, max_results: int) -> str:
    """The API URL for one page of `search_query`, newest submissions first.

    `search_query` is sent exactly as given (spaces encoded as `+`, which the
    API reads back as spaces)."""
    params = urlencode(
        {
            "search_query": search_query,
            "start": start,
            "max_results": max_results,
            "sortBy": "submittedDate",
            "sortOrder": "descending",
        },
        safe=":",
    )
    separator = "&" if "?" in api_url else "?"
    return f"{api_url}{separator}{params}"


def build_id_list_url(api_url: str, ids: Sequence[str]) -> str:
    """The API URL that asks for the records of these arXiv ids (`id_list`), all on one page."""
    params = urlencode({"id_list": ",".join(ids), "start": 0, "max_results": len(ids)}, safe=":,/")
    separator = "&" if "?" in api_url else "?"
    return f"{api_url}{separator}{params}"


def category_feed_url(rss_url: str, categories: Sequence[str]) -> str:
    """One arXiv RSS URL for several categories: `<rss_url>cs.DC+cs.AR`."""
    if not categories:
        raise ValueError("category_feed_url needs at least one category")
    base = rss_url if rss_url.endswith("/") else rss_url + "/"
    return base + "+".join(quote(category.strip(), safe=".-") for category in categories)


async def fetch_query(
    fetcher: Fetcher,
    arxiv: ArxivSettings,
    search_query: str,
    *,
    since: datetime,
    parse: Parse,
    validators: Validators | None = None,
    on_page: Callable[[list[Paper]], None] | None = None,
    on_read: Callable[[int, int], None] | None = None,
) -> ApiQueryResult:
    """Page through `search_query` until papers fall before `since` (timezone-aware),
    `arxiv.max_results` results have been read, or the API has no more.

    Only the first page is a conditional GET (with `validators`); a 304 there
    means nothing is new and paging stops. `parse(body, url)` turns a page into
    a ParsedFeed and runs in a worker thread; it reports an API error entry as a
    warning starting with `API_ERROR_PREFIX` ("arXiv API error:"), which ends
    the query with that warning as its error. A page that comes back empty while
    `opensearch:totalResults` says there is more is asked for again up to
    `arxiv.empty_page_retries` times, then reported, unless the page before it
    was short (fewer entries served than asked for, whether or not they could
    be read): that is the end of the results, whatever totalResults says (it
    is known to be off), and is noted as a warning. A page cut short (not
    well-formed, and without its closing `</feed>`) is asked for again like a
    failed request, then reported, rather than read leniently: its last entry
    would be stored incomplete and never asked for again. Any other page that
    is not well-formed (a stray control character, say, which asking again
    would not mend) is read leniently, with the parser's note.

    `on_page`, if given, is called with each page's papers within the window
    as they come, so that a caller can store them before the query ends or
    fails. A paper repeated from the page before is handed over again (merged)
    only if it changed in more than its `sources`: stored again, it would count
    as updated. `on_read`, if given, is called after each page with the results
    read so far and about how many the query will have read when it ends (see
    `expected_results`).
    """
    result = ApiQueryResult()
    found: dict[str, Paper] = {}
    handed_over: dict[str, Paper] = {}
    start = 0
    empty_answers = 0
    garbled_answers = 0
    last_page_short = False
    newest: datetime | None = None
    while start < arxiv.max_results:
        page_size = min(arxiv.page_size, arxiv.max_results - start)
        url = build_query_url(arxiv.api_url, search_query, start, page_size)
        first_page = result.pages == 0
        fetched = await fetcher.get(url, validators if first_page else None)
        result.pages += 1
        result.requests += fetched.attempts
        if start == 0:
            result.validators = fetched.validators
        if not fetched.ok:
            result.error = _on_page(fetched.error, start)
            break
        if fetched.not_modified:
            # Only the first page is conditional; a 304 to any other fails in the fetcher.
            result.not_modified = True
            break
        try:
            page_url = fetched.final_url or url
            if inspect.iscoroutinefunction(parse):
                page = await parse(fetched.body, page_url)
            else:
                page = await asyncio.to_thread(parse, fetched.body, page_url)
        except FeedError as exc:
            result.error = _on_page(str(exc), start)
            break
        api_errors = [w for w in page.warnings if w.startswith(API_ERROR_PREFIX)]
        if api_errors:
            result.error = api_errors[0]
            break
        if page.xml_error and _cut_short(fetched.body):
            if garbled_answers >= fetcher.fetch_settings.retries:
                result.error = _on_page(_cut_short_message(page.xml_error, garbled_answers + 1), start)
                break
            garbled_answers += 1
            continue
        garbled_answers = 0
        result.warnings.extend(page.warnings)
        if page.total_results is not None:
            result.total_results = page.total_results
        # Entries the parser dropped were served all the same: they count
        # towards a full page and the next page's start.
        served = len(page.papers) if page.entries is None else page.entries
        if not served:
            if result.total_results is None or start >= result.total_results:
                break
            if empty_answers < arxiv.empty_page_retries:
                empty_answers += 1
                continue
            if last_page_short:
                result.warnings.append(
                    f"the arXiv API served {start:,} of the {result.total_results:,} results it reports"
                )
                break
            result.error = (
                f"the arXiv API returned an empty page at result {start} although it reports "
                f"{result.total_results} results (asked {empty_answers + 1} times); try again later"
            )
            break
        empty_answers = 0
        last_page_short = served < page_size
        in_window = [paper for paper in page.papers if paper.published >= since]
        for paper in in_window:
            # Papers submitted while we page push older ones down a place, so
            # the next page can repeat the last one: one record per paper.
            known = found.get(paper.id)
            found[paper.id] = paper if known is None else known.merged_with(paper)
        if on_page is not None:
            page_ids = dict.fromkeys(paper.id for paper in in_window)
            news = [found[pid] for pid in page_ids if _news(handed_over.get(pid), found[pid])]
            handed_over.update((paper.id, paper) for paper in news)
            if news:
                on_page(news)
        start += served
        if on_read is not None and page.papers:
            newest = newest or page.papers[0].published
            oldest = page.papers[-1].published
            on_read(start, expected_results(start, result.total_results, arxiv.max_results, newest, oldest, since))
        reached_window_end = len(in_window) < len(page.papers)
        if reached_window_end or (result.total_results is not None and start >= result.total_results):
            break
    result.papers = list(found.values())
    return result


def _news(handed_over: Paper | None, merged: Paper) -> bool:
    """Whether `merged` says more than the record handed over before (if any):
    a paper repeated on the next page only adds that page's URL to its sources."""
    return handed_over is None or replace(handed_over, sources=merged.sources) != merged


def expected_results(
    read: int, total: int | None, cap: int, newest: datetime, oldest: datetime, since: datetime
) -> int:
    """About how many results a query newest first will have read when it ends,
    having read `read` from `newest` back to `oldest`: no more than the API
    reports or the cap allows, and, if the window ends first, as many as the
    part of it read so far suggests for the whole (papers come at about the
    same rate week by week)."""
    bounds = [cap] if total is None else [cap, total]
    span = (newest - since).total_seconds()
    covered = (newest - oldest).total_seconds()
    if span > 0 and covered > 0:
        bounds.append(round(read * span / covered))
    return min(bounds)


def _on_page(error: str, start: int) -> str:
    return error if start == 0 else f"{error} (while reading results from {start} on)"


def _cut_short(body: bytes) -> bool:
    return _FEED_END.search(body) is None


def _cut_short_message(xml_error: str, asked: int) -> str:
    times = f"; asked {asked} times" if asked > 1 else ""
    return f"the arXiv API sent a page cut short ({xml_error}{times}); try again later"
