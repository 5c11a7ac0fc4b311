"""Any RSS 0.9x / 1.0 / 2.0 or Atom feed, as feedparser read it → Papers.

Keys: an entry whose link or id is an arXiv abs/pdf/html URL or arXiv's DOI
for a paper (or an `arXiv:` / `oai:arXiv.org:` id) is that arXiv paper, so a blog post about a paper and the
paper from arXiv are one paper. Any other entry is `web:` + a hash of its guid
(id), or of its link when it has no guid; an entry with neither is skipped
with a warning (a title is no key: titles change and repeat), and so is one
whose guid (or link) an earlier entry of the feed already had.

An arXiv paper found this way takes the version its link names (else 1) and
the entry's own title, text and date — the post's, not the paper's. The post's
date stands for the paper's first-version date only when the post links the
first version and is from the month the id was issued in; otherwise (an old
paper, a later version) the last moment of the id's month (or the post's,
when earlier) is used, marked
`date_estimated` so momentum leaves the paper out. arXiv's own record of the
paper wins over a post about it (`Paper.merged_with`).

Fields: the title and summary (or, without a summary, the first content) as
plain text, HTML removed where feedparser saw HTML; authors from author /
dc:creator; categories from the tags, the first of them shown as the primary
category unless the entry names an `arxiv:primary_category`; `abs_url` is the
entry's link and `pdf_url` the first link or enclosure that is a PDF.

Text: only math (`$…$`, `\\(…\\)`, …) is rendered as Unicode; a blog's
`~/.bashrc`, `C:\\Windows` or `{key: value}` stays as written, unlike arXiv's
LaTeX abstracts.

Links: a relative link (`/p/rel1`; RSS wants absolute ones, but blogs write
them) is resolved against the URL the feed came from, and kept only when that
makes it an http(s) link with a host. The key is made from the link as the
feed wrote it, so it stays the same wherever the feed moves.

Dates: the entry's published date, else its updated date. An entry without
either is dated at the fetch time and marked as an estimate (fetched again, it
keeps the date it was first given: `Paper.merged_with`); implausible dates are
handled by `dates.DateChecker`.
"""

from __future__ import annotations

import re
from datetime import datetime
from urllib.parse import urljoin

from feedtui.model import Author, Paper
from feedtui.sources.base import ParsedFeed
from feedtui.sources.parse import text
from feedtui.sources.parse.dates import DateChecker, from_struct_time, parse_datetime
from feedtui.sources.parse.ids import (
    arxiv_id_from_reference,
    estimated_first_version,
    months_after_issue,
    web_key,
)
from feedtui.sources.parse.links import http_url
from feedtui.sources.parse.read_feedparser import MARKUP_TYPES, FeedparserResult, is_markup, string


# A URL that names its scheme (`https:`, `javascript:`) is not relative.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def generic_feed(parsed: FeedparserResult, url: str, now: datetime, base: str = "") -> ParsedFeed:
    dates = DateChecker(now)
    sources = (url,) if url else ()
    feed = parsed.feed
    result = ParsedFeed(
        kind=parsed.kind,
        title=text.line(string(feed, "title"), text.MAX_TITLE, html=is_markup(feed, "title_detail")),
    )
    skipped = 0
    # Entries keyed like an earlier one, by what they were keyed by ("guid",
    # "link"): the first is kept, as the store would keep it, and the rest are
    # said. (Posts about one arXiv paper are records of it, merged by design.)
    seen: set[str] = set()
    repeated: dict[str, int] = {}
    for entry in parsed.entries:
        paper = _paper(entry, url, dates, sources, base or url)
        if paper is None:
            skipped += 1
        elif not paper.is_arxiv and paper.id in seen:
            by = "guid" if string(entry, "id").strip() else "link"
            repeated[by] = repeated.get(by, 0) + 1
        else:
            seen.add(paper.id)
            result.papers.append(paper)
    if skipped:
        result.warnings.append(f"{text.entries(skipped)} without a guid or link skipped")
    for by, count in repeated.items():
        result.warnings.append(f"{text.entries(count)} with a repeated {by} skipped")
    result.warnings.extend(dates.warnings())
    return result


def _paper(entry: dict, url: str, dates: DateChecker, sources: tuple[str, ...], base: str) -> Paper | None:
    link = string(entry, "link").strip()
    guid = string(entry, "id").strip()
    arxiv = arxiv_id_from_reference(link) or arxiv_id_from_reference(guid)
    if arxiv is not None:
        key, version = arxiv[0], arxiv[1] or 1
    elif guid or link:
        key, version = web_key(guid or link, url), 1
    else:
        return None
    title = text.line(string(entry, "title"), text.MAX_TITLE, html=is_markup(entry, "title_detail"))
    abstract = _abstract(entry)
    first = _date(entry, "published")
    latest = _date(entry, "updated")
    published, estimated = dates.check(first or latest)
    updated = latest if dates.plausible(latest) and latest >= published else published
    if arxiv is not None and not estimated and not _dates_the_first_version(key, version, published):
        published, estimated = estimated_first_version(key, published), True
    categories = _categories(entry)
    authors, authors_omitted = _authors(entry)
    return Paper(
        id=key,
        version=version,
        title=title,
        abstract=abstract,
        published=published,
        updated=updated,
        authors=authors,
        authors_omitted=authors_omitted,
        primary_category=text.line(_primary_category(entry), text.MAX_CATEGORY)
        or (categories[0] if categories else ""),
        categories=categories,
        comment=text.block(string(entry, "arxiv_comment"), text.MAX_COMMENT),
        journal_ref=text.line(string(entry, "arxiv_journal_ref"), text.MAX_JOURNAL_REF),
        doi=text.line(string(entry, "arxiv_doi"), text.MAX_DOI),
        abs_url=http_url(_resolved(link, base)),
        pdf_url=_pdf_url(entry, base),
        # A web feed is no LaTeX document: only its math is rendered.
        title_display=text.title_display(title, math_only=True),
        abstract_display=text.abstract_display(abstract, math_only=True),
        date_estimated=estimated,
        sources=sources,
        secondhand=arxiv is not None,
    )


def _dates_the_first_version(arxiv_id: str, version: int, posted: datetime) -> bool:
    """Whether a post's date can stand for the first-version date of the arXiv
    paper it links: it links the first version, and was posted in the month
    the id was issued in. A post about an older paper (`1706.03762` in 2026)
    or about a later version is no new paper."""
    return version == 1 and months_after_issue(arxiv_id, posted) in (0, None)


def _abstract(entry: dict) -> str:
    """The summary, else the first content. (feedparser copies a content into
    `summary` when there is no summary, but not its type: that is on the content.)"""
    contents = [c for c in dict.get(entry, "content") or () if isinstance(c.get("value"), str)]
    summary = string(entry, "summary")
    if summary and dict.get(entry, "summary_detail") is not None:
        return text.block(summary, text.MAX_ABSTRACT, html=is_markup(entry, "summary_detail"))
    for content in contents:
        if content["value"].strip():
            return text.block(content["value"], text.MAX_ABSTRACT, html=content.get("type") in MARKUP_TYPES)
    return text.block(summary, text.MAX_ABSTRACT, html=True)


def _authors(entry: dict) -> tuple[tuple[Author, ...], int]:
    """Each author once: RSS items often name the same person in <author> and
    in <dc:creator>, and feedparser lists both. The first MAX_AUTHORS, and how
    many more are named (not checked for repeats)."""
    authors: list[Author] = []
    seen: set[str] = set()
    details = dict.get(entry, "authors") or ()
    if not details and string(entry, "author"):
        details = ({"name": string(entry, "author")},)
    for index, detail in enumerate(details):
        if len(authors) == text.MAX_AUTHORS:
            return tuple(authors), text.named(str(d.get("name") or "") for d in details[index:])
        name = text.line(str(detail.get("name") or ""), text.MAX_NAME, html=True)
        if not name or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        affiliations = dict.fromkeys(
            a for a in (text.line(str(a), text.MAX_AFFILIATION) for a in detail.get("arxiv_affiliations", ())) if a
        )
        authors.append(Author(name, tuple(affiliations)[: text.MAX_AFFILIATIONS]))
    return tuple(authors), 0


def _categories(entry: dict) -> tuple[str, ...]:
    terms = (
        text.line(str(tag.get("term") or tag.get("label") or ""), text.MAX_CATEGORY)
        for tag in dict.get(entry, "tags") or ()
    )
    return tuple(dict.fromkeys(t for t in terms if t))[: text.MAX_CATEGORIES]


def _primary_category(entry: dict) -> str:
    value = dict.get(entry, "arxiv_primary_category")
    return str(value.get("term") or "") if isinstance(value, dict) else ""


def _resolved(link: str, base: str) -> str:
    """A relative link made absolute against `base`; any other as it is."""
    if not link or not base or _SCHEME.match(link):
        return link
    try:
        return urljoin(base, link)
    except ValueError:  # a malformed [IPv6] host in either
        return ""


def _pdf_url(entry: dict, base: str) -> str:
    """The first link or enclosure that is a PDF: by its type, a path ending in .pdf, or arXiv's /pdf/ pages."""
    for link in dict.get(entry, "links") or ():
        href = _resolved(str(link.get("href") or "").strip(), base)
        path = href.lower().split("?")[0]
        is_pdf = (
            str(link.get("type") or "").lower() == "application/pdf"
            or path.endswith(".pdf")
            or "arxiv.org/pdf/" in path
        )
        if is_pdf and (url := http_url(href)):
            return url
    return ""


def _date(entry: dict, key: str) -> datetime | None:
    return parse_datetime(string(entry, key)) or from_struct_time(dict.get(entry, key + "_parsed"))
