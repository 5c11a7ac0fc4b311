"""What the sources layer hands to the rest of feedtui."""

from __future__ import annotations

from dataclasses import dataclass, field

from feedtui.model import Paper


class FeedError(Exception):
    """A source could not be read or parsed; the message is for the user."""


@dataclass(slots=True)
class ParsedFeed:
    """The papers of one response, plus what the feed said about itself."""

    kind: str  # "arxiv-api", "arxiv-rss", "rss", "atom"
    papers: list[Paper] = field(default_factory=list)
    title: str = ""
    # arXiv API: opensearch:totalResults / startIndex / itemsPerPage.
    total_results: int | None = None
    start_index: int | None = None
    items_per_page: int | None = None
    # arXiv API: the entries the response held, read or not (papers are the
    # ones that could be read): how far the results went.
    entries: int | None = None
    # Problems worth telling the user that did not stop the parse
    # (an arXiv API error entry, entries skipped for lack of an id, …).
    warnings: list[str] = field(default_factory=list)
    # Where and why the document is not well-formed XML, when it was read
    # leniently all the same ("" when it is well-formed).
    xml_error: str = ""


@dataclass(slots=True)
class Validators:
    """HTTP validators remembered per URL for conditional GET."""

    etag: str = ""
    last_modified: str = ""

    @property
    def empty(self) -> bool:
        return not (self.etag or self.last_modified)


@dataclass(slots=True)
class FetchResult:
    """The outcome of one GET. `error` is set (in words a user understands) on failure."""

    url: str
    status: int | None = None
    body: bytes = b""
    content_type: str = ""
    validators: Validators = field(default_factory=Validators)
    error: str = ""
    attempts: int = 0
    final_url: str = ""

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def not_modified(self) -> bool:
        return self.status == 304
