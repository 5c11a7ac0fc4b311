"""The arXiv API's Atom layout, as read by either parser, → Papers.

Both readers of an API response — the fast one on ElementTree and the one on
feedparser — only collect the raw strings of each entry into `ApiFeed` /
`ApiEntry`; everything that decides what a Paper looks like happens once, in
`build_api_feed`. That is what makes the two paths give identical Papers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from feedtui.model import Author, Paper
from feedtui.sources.base import ParsedFeed
from feedtui.sources.parse import text
from feedtui.sources.parse.dates import DateChecker, parse_datetime
from feedtui.sources.parse.ids import arxiv_id_from_reference
from feedtui.sources.parse.links import http_url

API_FEED_ID_PREFIXES = (
    "http://arxiv.org/api/",
    "https://arxiv.org/api/",
    "http://export.arxiv.org/api/",
    "https://export.arxiv.org/api/",
)
API_ERROR_ID_PREFIXES = ("http://arxiv.org/api/errors", "https://arxiv.org/api/errors")
API_ERROR_PREFIX = "arXiv API error: "


def is_api_feed_id(feed_id: str | None) -> bool:
    """An Atom feed is an arXiv API response when its own id says so."""
    return bool(feed_id) and feed_id.strip().startswith(API_FEED_ID_PREFIXES)


@dataclass(slots=True)
class ApiAuthor:
    name: str = ""
    affiliations: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ApiLink:
    href: str = ""
    rel: str = "alternate"
    title: str = ""


@dataclass(slots=True)
class ApiEntry:
    """One `<entry>` as raw strings (whitespace and markup untouched)."""

    id: str = ""
    title: str = ""
    title_html: bool = False
    summary: str = ""
    summary_html: bool = False
    published: str = ""
    updated: str = ""
    authors: list[ApiAuthor] = field(default_factory=list)
    primary_category: str = ""
    categories: list[str] = field(default_factory=list)
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    links: list[ApiLink] = field(default_factory=list)


@dataclass(slots=True)
class ApiFeed:
    title: str = ""
    title_html: bool = False
    total_results: str | None = None
    start_index: str | None = None
    items_per_page: str | None = None
    entries: list[ApiEntry] = field(default_factory=list)


def build_api_feed(feed: ApiFeed, url: str, now: datetime) -> ParsedFeed:
    dates = DateChecker(now)
    sources = (url,) if url else ()
    parsed = ParsedFeed(
        kind="arxiv-api",
        title=text.line(feed.title, text.MAX_TITLE, html=feed.title_html),
        total_results=_integer(feed.total_results),
        start_index=_integer(feed.start_index),
        items_per_page=_integer(feed.items_per_page),
        entries=len(feed.entries),
    )
    skipped = 0
    lines = _Lines()
    for entry in feed.entries:
        entry_id = entry.id.strip()
        if entry_id.startswith(API_ERROR_ID_PREFIXES):
            message = text.line(entry.summary, text.MAX_COMMENT) or text.line(entry.title, text.MAX_TITLE)
            parsed.warnings.append(API_ERROR_PREFIX + (message or "(no message)"))
            continue
        paper = _paper(entry, dates, sources, lines)
        if paper is None:
            skipped += 1
        else:
            parsed.papers.append(paper)
    if skipped:
        parsed.warnings.append(f"{text.entries(skipped)} without an arXiv id skipped")
    parsed.warnings.extend(dates.warnings())
    return parsed


class _Lines:
    """Cleaned one-line strings remembered for one feed: names, affiliations and
    categories come back entry after entry."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        self._affiliations: dict[str, str] = {}
        self._categories: dict[str, str] = {}

    def name(self, raw: str) -> str:
        return _remembered(self._names, raw, text.MAX_NAME)

    def affiliation(self, raw: str) -> str:
        return _remembered(self._affiliations, raw, text.MAX_AFFILIATION)

    def category(self, raw: str) -> str:
        return _remembered(self._categories, raw, text.MAX_CATEGORY)


def _remembered(cleaned: dict[str, str], raw: str, limit: int) -> str:
    value = cleaned.get(raw)
    if value is None:
        value = cleaned[raw] = text.line(raw, limit)
    return value


def _paper(entry: ApiEntry, dates: DateChecker, sources: tuple[str, ...], lines: _Lines) -> Paper | None:
    identity = arxiv_id_from_reference(entry.id)
    if identity is None:
        return None
    arxiv_id, version = identity
    title = text.line(entry.title, text.MAX_TITLE, html=entry.title_html)
    abstract = text.block(entry.summary, text.MAX_ABSTRACT, html=entry.summary_html)
    first = parse_datetime(entry.published)
    latest = parse_datetime(entry.updated)
    published, estimated = dates.check(first or latest)
    updated = latest if dates.plausible(latest) and latest >= published else published
    primary, categories = _categories(entry, lines)
    abs_url, pdf_url = _links(entry.links)
    authors, authors_omitted = _authors(entry.authors, lines)
    return Paper(
        id=arxiv_id,
        version=version or 1,
        title=title,
        abstract=abstract,
        published=published,
        updated=updated,
        authors=authors,
        authors_omitted=authors_omitted,
        primary_category=primary,
        categories=categories,
        comment=text.block(entry.comment, text.MAX_COMMENT),
        journal_ref=text.line(entry.journal_ref, text.MAX_JOURNAL_REF),
        doi=text.line(entry.doi, text.MAX_DOI),
        abs_url=abs_url,
        pdf_url=pdf_url,
        title_display=text.title_display(title),
        abstract_display=text.abstract_display(abstract),
        date_estimated=estimated,
        sources=sources,
    )


def _authors(raw: list[ApiAuthor], lines: _Lines) -> tuple[tuple[Author, ...], int]:
    """Authors with a name, each with its affiliations (no repeats), the first
    MAX_AUTHORS; and how many more are named (only then are the rest looked at)."""
    authors: list[Author] = []
    for index, author in enumerate(raw):
        if len(authors) == text.MAX_AUTHORS:
            return tuple(authors), text.named(a.name for a in raw[index:])
        name = lines.name(author.name)
        if not name:
            continue
        affiliations: tuple[str, ...] = ()
        if author.affiliations:
            cleaned = dict.fromkeys(lines.affiliation(a) for a in author.affiliations)
            cleaned.pop("", None)
            affiliations = tuple(cleaned)[: text.MAX_AFFILIATIONS]
        authors.append(Author(name, affiliations))
    return tuple(authors), 0


def _categories(entry: ApiEntry, lines: _Lines) -> tuple[str, tuple[str, ...]]:
    """The primary category and all categories, primary first, in order, without repeats."""
    ordered = dict.fromkeys([lines.category(entry.primary_category), *map(lines.category, entry.categories)])
    ordered.pop("", None)
    categories = tuple(ordered)[: text.MAX_CATEGORIES]
    return (categories[0] if categories else ""), categories


def _links(links: list[ApiLink]) -> tuple[str, str]:
    """The abstract page (the first rel="alternate" link) and the PDF (the first titled "pdf")."""
    abs_url = pdf_url = ""
    for link in links:
        if not abs_url and link.rel.strip().lower() == "alternate":
            abs_url = http_url(link.href)
        if not pdf_url and link.title.strip().lower() == "pdf":
            pdf_url = http_url(link.href)
    return abs_url, pdf_url


def _integer(value: str | None) -> int | None:
    if value is None:
        return None
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 12:
        return None
    return int(value)
