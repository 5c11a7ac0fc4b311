"""arXiv's category feeds (rss.arxiv.org/rss/<cats>, and the same content at /atom/) → Papers.

Each item says what arXiv announced that day: `new` (first version), `cross`
(a new paper cross-listed here), `replace` and `replace-cross` (a new version
of an older paper). The id, version and announce type lead the description —
`arXiv:2609.01234v2 Announce Type: replace \\nAbstract: …` — and are repeated
in the guid (`oai:arXiv.org:2609.01234v2`) and `arxiv:announce_type`. All
authors share one `dc:creator`, separated by commas and/or "and".

Dates: the item's date is the day arXiv announced it. For `new` and `cross`
that is the paper's first appearance, so it is kept as `published` (exact) —
when the id was issued in the announcement's month or the month before. For
an older id (a cross-list added years later, listed as `cross`) and for a
replacement the first version's date is not in the feed: `published` is then
the last moment of the month in the id (`2607.04410` → 2026-07-31
23:59:59), marked
`date_estimated` so momentum leaves it out until the arXiv API supplies the
real date; `updated` is the announcement date. The feed gives no PDF link;
`pdf_url` is arXiv's stable PDF address for the announced version.

The description is arXiv's plain abstract text, not HTML (an abstract may well
say `$a<b$`), so it is not read as HTML; `dc:creator` is (the feeds before 2024
wrapped each name in a link).
"""

from __future__ import annotations

import re
from datetime import datetime

from feedtui.model import Author, Paper, split_arxiv_id
from feedtui.sources.base import ParsedFeed
from feedtui.sources.parse import text
from feedtui.sources.parse.dates import DateChecker, parse_datetime
from feedtui.sources.parse.ids import arxiv_id_from_reference, estimated_first_version, months_after_issue
from feedtui.sources.parse.links import http_url
from feedtui.sources.parse.read_feedparser import FeedparserResult, string

_ANNOUNCEMENT = re.compile(
    r"^\s*arXiv:(?P<id>\S+)\s+Announce\s+Type:\s*(?P<type>[A-Za-z-]+)[ \t]*(?:\r?\n\s*Abstract:\s*)?",
    re.IGNORECASE,
)
_ABSTRACT_LABEL = re.compile(r"^\s*Abstract:\s*", re.IGNORECASE)
_REPLACEMENTS = frozenset({"replace", "replace-cross"})
_COMMA_OR_PARENTHESIS = re.compile(r"[,()]")
_AND = re.compile(r"\s+and\s+|^and\s+", re.IGNORECASE)
# The whole dc:creator line, cut before splitting: room for MAX_AUTHORS names
# of about 60 characters (real names average under 20), not MAX_NAME each,
# which let a hostile entry make us clean 3 MB of HTML.
_MAX_CREATORS = 64 * text.MAX_AUTHORS


def arxiv_listing_feed(parsed: FeedparserResult, url: str, now: datetime) -> ParsedFeed:
    dates = DateChecker(now)
    sources = (url,) if url else ()
    result = ParsedFeed(kind="arxiv-rss", title=text.line(dict.get(parsed.feed, "title"), text.MAX_TITLE))
    skipped = 0
    for entry in parsed.entries:
        paper = _paper(entry, dates, sources)
        if paper is None:
            skipped += 1
        else:
            result.papers.append(paper)
    if skipped:
        result.warnings.append(f"{text.entries(skipped)} without an arXiv id skipped")
    result.warnings.extend(dates.warnings())
    return result


def _paper(entry: dict, dates: DateChecker, sources: tuple[str, ...]) -> Paper | None:
    description = string(entry, "summary")
    announcement = _ANNOUNCEMENT.match(description)
    identity = (
        (split_arxiv_id(announcement.group("id")) if announcement else None)
        or arxiv_id_from_reference(string(entry, "id"))
        or arxiv_id_from_reference(string(entry, "link"))
    )
    if identity is None:
        return None
    arxiv_id, version = identity
    version = version or 1
    announce_type = text.line(string(entry, "arxiv_announce_type"), text.MAX_CATEGORY).lower()
    if not announce_type and announcement:
        announce_type = announcement.group("type").lower()
    abstract_text = description[announcement.end() :] if announcement else _ABSTRACT_LABEL.sub("", description)
    abstract = text.block(abstract_text, text.MAX_ABSTRACT)
    title = text.line(string(entry, "title"), text.MAX_TITLE)
    announced, estimated = dates.check(parse_datetime(string(entry, "published") or string(entry, "updated")))
    published = announced
    if announce_type in _REPLACEMENTS or version > 1 or not _issued_lately(arxiv_id, announced):
        published = estimated_first_version(arxiv_id, announced)
        estimated = True
    categories = tuple(dict.fromkeys(c for c in _categories(entry) if c))[: text.MAX_CATEGORIES]
    names = split_creators(_creators(entry))
    return Paper(
        id=arxiv_id,
        version=version,
        title=title,
        abstract=abstract,
        published=published,
        updated=max(announced, published),
        authors=tuple(Author(text.cut(name, text.MAX_NAME)) for name in names[: text.MAX_AUTHORS]),
        authors_omitted=max(0, len(names) - text.MAX_AUTHORS),
        primary_category=categories[0] if categories else "",
        categories=categories,
        comment=text.block(string(entry, "arxiv_comment"), text.MAX_COMMENT),
        journal_ref=text.line(
            string(entry, "arxiv_journal_reference") or string(entry, "arxiv_journal_ref"), text.MAX_JOURNAL_REF
        ),
        doi=text.line(string(entry, "arxiv_doi"), text.MAX_DOI),
        abs_url=http_url(string(entry, "link")),
        pdf_url=f"https://arxiv.org/pdf/{arxiv_id}v{version}",
        title_display=text.title_display(title),
        abstract_display=text.abstract_display(abstract),
        announce_type=announce_type,
        date_estimated=estimated,
        sources=sources,
    )


def _issued_lately(arxiv_id: str, announced: datetime) -> bool:
    """Whether the id is young enough for this announcement to be the paper's
    first: issued in the announcement's month or the one before (a paper
    submitted late in a month is announced early in the next). arXiv also lists
    cross-lists added later to older papers, and they are no new papers."""
    return (months_after_issue(arxiv_id, announced) or 0) <= 1


def split_creators(raw: str) -> list[str]:
    """`A, B and C`, `A, B, and C`, `A, B, C` → [A, B, C]; `Carlos Méndez, Jr.` stays one name.

    Commas inside parentheses (`A (Lab, City)`) do not split. Every name is
    returned, uncut: the caller keeps MAX_AUTHORS and counts the rest.
    """
    line = text.line(raw, _MAX_CREATORS, html=True)
    names: list[str] = []
    for part in _top_level_parts(line):
        for piece in _AND.split(part):
            name = piece.strip()
            if not name:
                continue
            if names and name.lower() in text.NAME_SUFFIXES:
                names[-1] = f"{names[-1]} {name}"
            else:
                names.append(name)
    return names


def _top_level_parts(line: str) -> list[str]:
    """`line` split at each comma whose next parenthesis, if any, is not a
    closing one, in one pass: a lookahead regex for that took time growing
    with the square of the line, and a collaboration's line holds thousands
    of names."""
    if ")" not in line:  # every comma cuts; the common line, at a tenth of the cost
        return line.split(",")
    cuts: list[int] = []
    pending: list[int] = []
    for match in _COMMA_OR_PARENTHESIS.finditer(line):
        mark = match.group()
        if mark == ",":
            pending.append(match.start())
            continue
        if mark == "(":
            cuts += pending
        pending.clear()
    cuts += pending
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(line)]
    return [line[start:end] for start, end in zip(starts, ends)]


def _creators(entry: dict) -> str:
    names = [str(a.get("name") or "") for a in dict.get(entry, "authors") or ()]
    return ", ".join(n for n in names if n) or string(entry, "author")


def _categories(entry: dict) -> list[str]:
    return [
        text.line(str(tag.get("term") or tag.get("label") or ""), text.MAX_CATEGORY)
        for tag in dict.get(entry, "tags") or ()
    ]
