"""Response bytes → Papers: `parse_feed`, the one entry point for every kind of feed.

Kinds: "arxiv-api" (export.arxiv.org/api/query responses), "arxiv-rss"
(rss.arxiv.org category feeds, RSS or Atom), "rss" (RSS 0.9x, 1.0, 2.0) and
"atom". A response that holds no feed raises FeedError with a message for the
user; a feed with no entries is a feed.

The route: `document` settles the encoding and turns away what is not
XML (or is a web page). An arXiv API response is read by the fast path
(`read_fast`, on expat); everything else — and an API response that is
malformed or strays from the API's layout — by feedparser, which is lenient.
When neither finds a feed, the error names the XML problem and where it is.

Both paths are synchronous and CPU-bound: callers run them off the event loop.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime
from xml.parsers.expat import ErrorString

from feedtui.model import UTC, utcnow
from feedtui.sources.base import FeedError, ParsedFeed
from feedtui.sources.parse.build_api import build_api_feed
from feedtui.sources.parse.build_arxiv_rss import arxiv_listing_feed
from feedtui.sources.parse.build_generic import generic_feed
from feedtui.sources.parse.document import Document, prepare
from feedtui.sources.parse.read_fast import NotApiLayout, may_be_api_response, read_api_feed
from feedtui.sources.parse.read_feedparser import run, xml_error_text
from feedtui.sources.parse.read_feedparser_api import api_feed


def parse_feed(
    data: bytes, url: str = "", content_type: str = "", *, now: datetime | None = None, base: str = ""
) -> ParsedFeed:
    """Parse one response body.

    `url` is recorded as every paper's source and scopes the keys of entries
    whose guid is a bare token; `content_type` (the HTTP header) may name the
    charset; `now` (default: the current time; naive means UTC) dates entries
    that have no plausible date of their own; `base` (default: `url`) is the
    URL the body came from, after redirects, against which the relative links
    of web feeds' entries are resolved.
    """
    now = _aware(now)
    document = prepare(data, content_type)
    xml_error = ""
    if may_be_api_response(document):
        try:
            feed = read_api_feed(document.data)
        except ET.ParseError as error:
            xml_error = xml_error_text(ErrorString(error.code), *error.position)
        except NotApiLayout:
            pass
        else:
            return _with_notes(build_api_feed(feed, url, now), document, "")
    return _parse_with_feedparser(document, url, now, xml_error, base or url)


def parse_feed_with_feedparser(
    data: bytes, url: str = "", content_type: str = "", *, now: datetime | None = None
) -> ParsedFeed:
    """`parse_feed` without the fast path: for tests that compare the two, and for benchmarks."""
    return _parse_with_feedparser(prepare(data, content_type), url, _aware(now), "", url)


def _aware(now: datetime | None) -> datetime:
    if now is None:
        return utcnow()
    return now.replace(tzinfo=UTC) if now.tzinfo is None else now.astimezone(UTC)


def _parse_with_feedparser(document: Document, url: str, now: datetime, xml_error: str, base: str) -> ParsedFeed:
    parsed = run(document.data)
    error = xml_error or parsed.xml_error
    if error and not parsed.entries:
        # Lenient parsing found nothing to keep: the error is the news.
        raise FeedError(f"not a feed: {error}")
    if parsed.kind == "arxiv-api":
        feed = build_api_feed(api_feed(parsed), url, now)
    elif parsed.kind == "arxiv-rss":
        feed = arxiv_listing_feed(parsed, url, now)
    elif parsed.kind:
        feed = generic_feed(parsed, url, now, base)
    else:
        raise FeedError(f"not a feed: the XML document is <{document.root}>, not RSS or Atom")
    if error and not feed.papers:
        # Read leniently, and not one entry could be kept (cut short in its first, say).
        raise FeedError("; ".join([f"not a feed: {error}", *feed.warnings]))
    return _with_notes(feed, document, error)


def _with_notes(feed: ParsedFeed, document: Document, xml_error: str) -> ParsedFeed:
    notes = list(document.warnings)
    if xml_error:
        notes.append(f"the feed is not well-formed ({xml_error}); read leniently, some entries may be incomplete")
    feed.warnings[:0] = notes
    feed.xml_error = xml_error
    return feed
