"""The domain: papers, authors and the topics that group them.

Everything here is plain data. Sources produce `Paper` objects, the store keeps
them, the topics package decides which topics they belong to, and the UI draws
them. Times are always timezone-aware UTC datetimes.

The topics' and refreshes' records are plain slotted classes (SlotRecord),
not dataclasses: this module is imported on the way to the reader's first
paint, where a dataclass compiles its generated methods.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timezone
from operator import attrgetter

from feedtui.slot_record import SlotRecord

UTC = timezone.utc

# New-style ids (0704.0001, 2609.01234) and old-style ids (hep-th/9901001,
# math.GT/0309136), each with an optional version suffix.
_ARXIV_ID = re.compile(
    r"^(?P<id>\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v(?P<version>\d+))?$"
)


def split_arxiv_id(text: str) -> tuple[str, int | None] | None:
    """Split `2609.01234v2` into (`2609.01234`, 2); None when it is not an arXiv id.

    Accepts the forms users paste: a bare id, `arXiv:` prefixes and abs/pdf URLs.
    """
    candidate = text.strip()
    candidate = re.sub(r"^(?:arxiv:)", "", candidate, flags=re.IGNORECASE)
    candidate = re.sub(r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/", "", candidate)
    candidate = re.sub(r"\.pdf$", "", candidate)
    match = _ARXIV_ID.match(candidate)
    if not match:
        return None
    version = match.group("version")
    return match.group("id"), int(version) if version else None


# Shown for a paper whose source gave it no title (a feed item without
# <title>). Only shown: the stored title stays empty, so queries (`ti:`), the
# ask ranking and `papers --json` never take the placeholder for the title.
UNTITLED = "(untitled)"


def shown_title(title: str) -> str:
    """A title as screens, the CLI and BibTeX show it: "(untitled)" for none."""
    return title if title.strip() else UNTITLED


@dataclass(frozen=True, slots=True)
class Author:
    name: str
    affiliations: tuple[str, ...] = ()

    def __reduce__(self) -> tuple:
        # Papers travel between the parser processes and the app by pickle. A
        # frozen dataclass is otherwise rebuilt field by field in Python, which
        # is much of the time papers with many authors take to pickle and load.
        return (type(self), (self.name, self.affiliations))


@dataclass(slots=True)
class Paper:
    """One paper, merged across every source and version that carried it.

    `id` is the arXiv id without its version (`2609.01234`), or for entries
    that are not on arXiv a stable key derived from the entry's guid or link
    (`web:3f2a…`), never from its title. `title` and `abstract` keep the source
    text (HTML removed, control characters stripped, LaTeX kept); the
    `*_display` forms have LaTeX rendered as Unicode and are what the UI shows.
    """

    id: str
    version: int
    title: str
    abstract: str
    published: datetime
    updated: datetime
    authors: tuple[Author, ...] = ()
    # Authors the source named beyond the first MAX_AUTHORS kept in `authors`
    # (a hostile feed may name millions); 0 for every real paper so far.
    authors_omitted: int = 0
    primary_category: str = ""
    categories: tuple[str, ...] = ()
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    abs_url: str = ""
    pdf_url: str = ""
    title_display: str = ""
    abstract_display: str = ""
    # arXiv category feeds: new, cross, replace, replace-cross.
    announce_type: str = ""
    # True when the first-version date is a guess (a replacement announced in a
    # category feed without its history, a blog post about an older paper);
    # such papers are kept out of momentum.
    date_estimated: bool = False
    # The source URLs this paper was seen in.
    sources: tuple[str, ...] = ()
    # Topics whose arXiv API query returned this paper: it belongs to them even
    # where local evaluation of the query disagrees.
    fetched_for: tuple[str, ...] = ()
    # A third party's mention of an arXiv paper (a blog post linking to it): its
    # title, dates and authors are the post's, so arXiv's own record wins.
    secondhand: bool = False

    @property
    def is_arxiv(self) -> bool:
        return not self.id.startswith("web:")

    @property
    def readable_title(self) -> str:
        """The title with its LaTeX rendered (as fetched when it had none)."""
        return self.title_display or self.title

    @property
    def readable_abstract(self) -> str:
        """The abstract with its LaTeX rendered (as fetched when it had none)."""
        return self.abstract_display or self.abstract

    @property
    def html_url(self) -> str:
        """arXiv's HTML version of the paper (its latest version); "" for a
        feed item, which has none."""
        return f"https://arxiv.org/html/{self.id}" if self.is_arxiv else ""

    @property
    def versioned_id(self) -> str:
        return f"{self.id}v{self.version}" if self.is_arxiv else self.id

    @property
    def affiliations(self) -> tuple[str, ...]:
        """Unique affiliations in author order."""
        seen: dict[str, None] = {}
        for author in self.authors:
            for affiliation in author.affiliations:
                seen.setdefault(affiliation, None)
        return tuple(seen)

    def __reduce__(self) -> tuple:
        # As `Author.__reduce__`: the parser processes send every parsed paper
        # back by pickle, and a slotted dataclass is otherwise restored field
        # by field in Python, in the process that stores the papers.
        return (type(self), _paper_values(self))

    def merged_with(self, other: Paper) -> Paper:
        """Combine the record held (`self`) with one fetched since (`other`): the
        newer version's fields win, sources and API attributions are the union
        (the held record's first), the first-version date is the earliest known
        exact one. A record its source gave no date is dated at its fetch
        (`DateChecker.check`): that says when it was seen, not when it changed,
        so seen again it keeps the date it had, and a dated record of the same
        version replaces it whatever the dates. See `_replaces` for ties and for
        entries that are not on arXiv."""
        if other.id != self.id:
            raise ValueError(f"cannot merge {self.id} with {other.id}")
        if self.secondhand != other.secondhand:
            newer, older = (other, self) if self.secondhand else (self, other)
            published = (newer.published, newer.date_estimated)
            updated = newer.updated
        else:
            newer, older = (other, self) if _replaces(other, self) else (self, other)
            published = _earliest_published(self, other)
            updated = older.updated if _undated(newer) and newer.version == older.version else newer.updated
        merged = replace(
            newer,
            published=published[0],
            updated=updated,
            date_estimated=published[1],
            sources=_union(self.sources, other.sources),
            fetched_for=_union(self.fetched_for, other.fetched_for),
            secondhand=self.secondhand and other.secondhand,
        )
        # A category feed knows less than the API: keep what the older record had.
        for name in ("comment", "journal_ref", "doi", "pdf_url", "abs_url", "primary_category"):
            if not getattr(merged, name) and getattr(older, name):
                setattr(merged, name, getattr(older, name))
        if not any(a.affiliations for a in merged.authors) and any(a.affiliations for a in older.authors):
            if [a.name for a in merged.authors] == [a.name for a in older.authors]:
                merged.authors, merged.authors_omitted = older.authors, older.authors_omitted
        if not merged.categories and older.categories:
            merged.categories = older.categories
        return merged


# A Paper's field values in the order its constructor takes them (see `Paper.__reduce__`).
_paper_values = attrgetter(*(f.name for f in fields(Paper)))


def _replaces(candidate: Paper, current: Paper) -> bool:
    """Whether a record fetched now replaces the fields of the one held.

    An entry not on arXiv belongs to the feed it was first seen in (the held
    record's first source): the same guid in another feed adds that feed to
    its sources but never rewrites its title, text or link, whatever date it
    claims. Otherwise the later version wins, then a real date over the fetch
    time standing in for none (an entry cut off in a broken feed, then read
    whole), then the later date; on equal dates a record from the feed that
    owns the entry wins, so that a post corrected without a new date shows
    the correction."""
    owner = current.sources[0] if current.sources else ""
    if not current.is_arxiv and owner and owner not in candidate.sources:
        return False
    if candidate.version != current.version:
        return candidate.version > current.version
    if _undated(candidate) != _undated(current):
        return _undated(current)
    if candidate.updated != current.updated:
        return candidate.updated > current.updated
    return bool(owner) and owner in candidate.sources


def _undated(paper: Paper) -> bool:
    """Dated at the fetch time, its source having no (plausible) date for it. (A
    category feed's replacement has an estimated `published` too, but its
    `updated` is the announcement's.)"""
    return paper.date_estimated and paper.updated == paper.published


def _earliest_published(a: Paper, b: Paper) -> tuple[datetime, bool]:
    exact = [p.published for p in (a, b) if not p.date_estimated]
    if exact:
        return min(exact), False
    return min(a.published, b.published), True


def _union(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(first + second))


class TopicDefinition(SlotRecord):
    """What a topic is made of: an arXiv query, arXiv categories, feed URLs, or a mix.

    With feeds, `query` (when set) narrows the feeds' entries; with neither
    categories nor feeds it is sent to the arXiv API. Never changed once made.
    """

    __slots__ = ("query", "categories", "feeds")

    def __init__(self, query: str = "", categories: tuple[str, ...] = (), feeds: tuple[str, ...] = ()) -> None:
        self.query = query
        self.categories = categories
        self.feeds = feeds

    @property
    def is_empty(self) -> bool:
        return not (self.query or self.categories or self.feeds)

    def describe(self) -> str:
        """One line for headers and listings."""
        parts: list[str] = []
        if self.categories:
            parts.append("categories " + " ".join(self.categories))
        if self.feeds:
            parts.append("feeds " + " ".join(self.feeds))
        if self.query:
            parts.append(("matching " if (self.feeds or self.categories) else "query ") + self.query)
        return "; ".join(parts) if parts else "(empty)"

    def to_dict(self) -> dict:
        data: dict = {}
        if self.query:
            data["query"] = self.query
        if self.categories:
            data["categories"] = list(self.categories)
        if self.feeds:
            data["feeds"] = list(self.feeds)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> TopicDefinition:
        return cls(
            query=str(data.get("query", "") or ""),
            categories=tuple(str(c) for c in data.get("categories", ()) or ()),
            feeds=tuple(str(f) for f in data.get("feeds", ()) or ()),
        )


class Topic(SlotRecord):
    """A named topic; never changed once made."""

    __slots__ = ("name", "definition", "description", "origin")

    def __init__(
        self,
        name: str,
        definition: TopicDefinition,
        description: str = "",
        # "catalogue" (shipped with feedtui), "user" (added by the user, or a
        # catalogue topic the user overrode), "config" (from the config file).
        origin: str = "user",
    ) -> None:
        self.name = name
        self.definition = definition
        self.description = description
        self.origin = origin


class SourceReport(SlotRecord):
    """What happened to one source during a refresh."""

    __slots__ = (
        "url", "label", "ok", "status", "papers", "new_papers", "not_modified", "skipped", "error", "warning",
        "reading_notes", "requests", "topics",
    )

    def __init__(
        self,
        url: str,
        label: str,
        ok: bool,
        status: int | None = None,
        papers: int = 0,
        new_papers: int = 0,
        not_modified: bool = False,
        skipped: str = "",
        error: str = "",
        # Worth telling even though the source worked (a result cap reached, …).
        warning: str = "",
        # How the feed was read, where it was not as it should be (not well-formed
        # and read leniently, entries without an id skipped): for the record.
        reading_notes: tuple[str, ...] = (),
        requests: int = 0,
        # The topics this source is fetched for (one arXiv query serves several).
        topics: tuple[str, ...] = (),
    ) -> None:
        self.url = url
        self.label = label
        self.ok = ok
        self.status = status
        self.papers = papers
        self.new_papers = new_papers
        self.not_modified = not_modified
        self.skipped = skipped
        self.error = error
        self.warning = warning
        self.reading_notes = reading_notes
        self.requests = requests
        self.topics = topics


class RefreshReport(SlotRecord):
    __slots__ = ("sources", "new_papers", "updated_papers", "notes", "started", "finished")

    def __init__(
        self,
        sources: list[SourceReport] | None = None,
        new_papers: int = 0,
        updated_papers: int = 0,
        # Things the user must hear that concern no single source.
        notes: list[str] | None = None,
        started: datetime | None = None,
        finished: datetime | None = None,
    ) -> None:
        self.sources = [] if sources is None else sources
        self.new_papers = new_papers
        self.updated_papers = updated_papers
        self.notes = [] if notes is None else notes
        self.started = started
        self.finished = finished

    @property
    def failed(self) -> list[SourceReport]:
        return [s for s in self.sources if not s.ok]

    @property
    def failed_topics(self) -> list[str]:
        """The topics a failed source was fetched for, each once, in order:
        what the reader counts, as a source is named by its topics."""
        names: dict[str, None] = {}
        for source in self.failed:
            names.update(dict.fromkeys(source.topics or (source.label,)))
        return list(names)

    @property
    def ok(self) -> bool:
        return not self.failed

    @property
    def fetched(self) -> list[SourceReport]:
        """The sources that answered (a 304 too); not those skipped, such as an
        arXiv query already answered today."""
        return [s for s in self.sources if s.ok and not s.skipped]

    @property
    def offline(self) -> bool:
        """Nothing answered and something failed (offline, say): no refresh
        happened, and none is claimed."""
        return bool(self.failed) and not self.fetched


def utcnow() -> datetime:
    return datetime.now(UTC)
