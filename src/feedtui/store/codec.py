"""How papers are written into the cache: the full document and the card row.

The full document keeps everything (source text and display forms) and lives
in a weekly shard that is read only when a paper is opened, searched or
retagged. The card row is the small part the list needs — dates, category,
title, the first authors and affiliations, the head of the abstract — and is
what start-up loads for every cached paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from feedtui.model import UTC, Author, Paper

# Characters of the display abstract kept for cards: three lines of a card on a
# wide terminal.
ABSTRACT_HEAD_CHARS = 500
CARD_NAMES = 3


def paper_to_doc(paper: Paper, first_seen: str) -> dict:
    doc = {
        "version": paper.version,
        "title": paper.title,
        "abstract": paper.abstract,
        "title_display": paper.title_display,
        "abstract_display": paper.abstract_display,
        "published": _iso(paper.published),
        "updated": _iso(paper.updated),
        "authors": [[a.name, list(a.affiliations)] for a in paper.authors],
        "primary_category": paper.primary_category,
        "categories": list(paper.categories),
        "comment": paper.comment,
        "journal_ref": paper.journal_ref,
        "doi": paper.doi,
        "abs_url": paper.abs_url,
        "pdf_url": paper.pdf_url,
        "announce_type": paper.announce_type,
        "date_estimated": paper.date_estimated,
        "sources": list(paper.sources),
        "fetched_for": list(paper.fetched_for),
        "secondhand": paper.secondhand,
        "first_seen": first_seen,
    }
    if paper.authors_omitted:  # only past MAX_AUTHORS: no other paper's document grows
        doc["authors_omitted"] = paper.authors_omitted
    return doc


def paper_from_doc(paper_id: str, doc: dict) -> Paper:
    return Paper(
        id=paper_id,
        version=int(doc.get("version", 1)),
        title=doc.get("title", ""),
        abstract=doc.get("abstract", ""),
        title_display=doc.get("title_display", ""),
        abstract_display=doc.get("abstract_display", ""),
        published=_parse_iso(doc["published"]),
        updated=_parse_iso(doc.get("updated") or doc["published"]),
        authors=tuple(Author(name, tuple(affs)) for name, affs in doc.get("authors", ())),
        authors_omitted=doc.get("authors_omitted", 0),
        primary_category=doc.get("primary_category", ""),
        categories=tuple(doc.get("categories", ())),
        comment=doc.get("comment", ""),
        journal_ref=doc.get("journal_ref", ""),
        doi=doc.get("doi", ""),
        abs_url=doc.get("abs_url", ""),
        pdf_url=doc.get("pdf_url", ""),
        announce_type=doc.get("announce_type", ""),
        date_estimated=bool(doc.get("date_estimated", False)),
        sources=tuple(doc.get("sources", ())),
        fetched_for=tuple(doc.get("fetched_for", ())),
        secondhand=bool(doc.get("secondhand", False)),
    )


def doc_search_texts(doc: dict) -> tuple[str, str, str]:
    """What Ask indexes of a document, as `paper_from_doc` would give it: the
    readable title, the authors' names and the readable abstract. Read
    straight from the document, without building the paper."""
    return (
        doc.get("title_display") or doc.get("title", ""),
        " ".join(name for name, _ in doc.get("authors", ())),
        doc.get("abstract_display") or doc.get("abstract", ""),
    )


class CardRow(NamedTuple):
    """What the list shows of a paper, and where its documents are: one row
    per cached paper, loaded for all of them at start-up. On disk a row is
    a JSON array of these fields in this order (`index_shape` checks it); in
    memory a tuple, which is no larger than a list. Author and affiliation
    lists are stored already shortened for the card ("A, B, C +7"); the head
    of the abstract lives in a separate per-week file (see `head_of`) that
    is read only for cards on screen."""

    version: int
    published: int  # epoch seconds, first version
    updated: int
    estimated: bool
    primary: str
    title: str
    authors: str  # "Ada Lovelace, Alan Turing, Grace Hopper +7"
    affiliations: str  # "A · B · C +2"
    fetched_for: list[str]
    first_seen: int  # epoch seconds
    shard: str


def shorten_names(names: Sequence[str], keep: int = CARD_NAMES, sep: str = ", ", omitted: int = 0) -> str:
    """`A, B, C +7`: the first `keep` names, then how many more there are
    (`omitted` more than `names` holds)."""
    shown = sep.join(names[:keep])
    rest = len(names) - keep + omitted
    return f"{shown} +{rest}" if rest > 0 else shown


def card_row(paper: Paper, first_seen: str, shard: str) -> CardRow:
    return CardRow(
        paper.version,
        int(paper.published.timestamp()),
        int(paper.updated.timestamp()),
        paper.date_estimated,
        paper.primary_category,
        paper.readable_title,
        shorten_names([a.name for a in paper.authors], omitted=paper.authors_omitted),
        shorten_names(paper.affiliations, sep=" · "),
        list(paper.fetched_for),
        _epoch(first_seen),
        shard,
    )


@lru_cache(maxsize=64)
def _epoch(stamp: str) -> int:
    """Seconds since the epoch of an ISO time; one stamp serves a whole store."""
    return int(_parse_iso(stamp).timestamp())


def head_of(paper: Paper) -> str:
    """The start of the display abstract: enough for a card clamped to a few
    lines. A longer abstract is cut after a whole word and ends in "…", so a
    card wide enough to show all of the head still shows that it goes on."""
    abstract = paper.readable_abstract
    if len(abstract) <= ABSTRACT_HEAD_CHARS:
        return abstract
    cut = abstract[: ABSTRACT_HEAD_CHARS - 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    if space > ABSTRACT_HEAD_CHARS // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def shard_for(published: datetime) -> str:
    """Papers are sharded by the Monday of their first-version week (UTC)."""
    return _shard_of_day(published.astimezone(UTC).date())


@lru_cache(maxsize=1024)
def _shard_of_day(day: date) -> str:
    if day.year < 1991:
        return "old"
    monday = day - timedelta(days=day.weekday())
    return monday.isoformat()


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _parse_iso(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
