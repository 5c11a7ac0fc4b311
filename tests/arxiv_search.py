"""A loopback arXiv for end-to-end tests: an API that answers `search_query`
by evaluating it, and category feeds.

The API parses the search_query it receives with feedtui's own parser and
filters an invented corpus with the local matcher, so for our query syntax it
answers as arXiv would: newest submissions first, paged by `start` and
`max_results`, with `opensearch:totalResults`. A `submittedDate:[FROM TO TO]`
query is answered with `total_new` as its total (the count of all new papers
arXiv would report). `disagree` makes the server return papers that do not
match locally — as arXiv does when it stems words — whenever a received query
contains a given term. `/rss/<cat>+<cat>` lists the announcements in any of
those categories. An `id_list` request gets the records of those ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import parse_qs, unquote

from werkzeug.wrappers import Request, Response

from feedtui.model import TopicDefinition
from feedtui.topics.query import MatchDoc, compile_query, parse_query

from tests.arxiv_rss import Announcement, rss_feed
from tests.atom import Entry, api_feed

SUBMITTED_DATE = re.compile(r"submittedDate:\[(\d{12}) TO (\d{12})\]")


@dataclass
class ApiRequest:
    search_query: str
    start: int
    max_results: int

    @property
    def is_total(self) -> bool:
        return self.search_query.startswith("submittedDate:")


def published(entry: Entry) -> datetime:
    return datetime.fromisoformat(entry.published.replace("Z", "+00:00")).astimezone(UTC)


def match_doc(entry: Entry) -> MatchDoc:
    """The entry as the local matcher sees it (the corpus holds no LaTeX, so
    its text is its display text)."""
    return MatchDoc.build(
        id=entry.id,
        title=entry.title,
        abstract=entry.summary,
        authors=[name for name, _ in entry.authors],
        categories=entry.categories,
        comment=entry.comment or "",
        journal_ref=entry.journal_ref or "",
    )


def in_categories(entry: Entry, categories: tuple[str, ...]) -> bool:
    """A topic's `categories`, read as the documentation says: `cs.DC` exactly,
    `cs.*` any cs category, an archive (`hep-lat`) itself or any of its categories."""
    for wanted in categories:
        prefix = wanted[:-1] if wanted.endswith(".*") else wanted + "."
        if any(c == wanted or c.startswith(prefix) for c in entry.categories):
            return True
    return False


def belongs(entry: Entry, definition: TopicDefinition) -> bool:
    """Brute force: does an arXiv paper belong to a topic of categories and/or a query?"""
    if definition.feeds and not definition.categories:
        return False
    if definition.categories and not in_categories(entry, definition.categories):
        return False
    if definition.query:
        return compile_query(parse_query(definition.query))(match_doc(entry))
    return True


@dataclass
class LoopbackArxiv:
    corpus: list[Entry]
    total_new: int = 6000
    # A received search_query containing the key also returns these entries.
    disagree: dict[str, list[Entry]] = field(default_factory=dict)
    announcements: list[Announcement] = field(default_factory=list)
    announced: datetime = datetime(2026, 10, 1, 4, 0, tzinfo=UTC)
    api_requests: list[ApiRequest] = field(default_factory=list)
    rss_requests: list[list[str]] = field(default_factory=list)
    id_list_requests: list[list[str]] = field(default_factory=list)

    def install(self, httpserver) -> LoopbackArxiv:
        httpserver.expect_request("/api/query").respond_with_handler(self.answer_api)
        httpserver.expect_request(re.compile(r"^/rss/")).respond_with_handler(self.answer_rss)
        return self

    @property
    def search_requests(self) -> list[ApiRequest]:
        return [r for r in self.api_requests if not r.is_total]

    @property
    def total_requests(self) -> list[ApiRequest]:
        return [r for r in self.api_requests if r.is_total]

    def answer_api(self, request: Request) -> Response:
        args = parse_qs(request.query_string.decode(), keep_blank_values=True)
        if "id_list" in args:
            return self.answer_id_list(args)
        text = args["search_query"][0]
        start = int(args.get("start", ["0"])[0])
        size = int(args.get("max_results", ["10"])[0])
        self.api_requests.append(ApiRequest(text, start, size))
        if args.get("sortBy") != ["submittedDate"] or args.get("sortOrder") != ["descending"]:
            return Response("sortBy=submittedDate&sortOrder=descending expected", status=400)
        window = SUBMITTED_DATE.fullmatch(text)
        if window:
            low, high = (datetime.strptime(t, "%Y%m%d%H%M").replace(tzinfo=UTC) for t in window.groups())
            found = [e for e in self.corpus if low <= published(e) <= high]
            return _atom(found[start : start + size], self.total_new, start)
        matcher = compile_query(parse_query(text))
        found = {e.id: e for e in self.corpus if matcher(match_doc(e))}
        for term, extra in self.disagree.items():
            if term in text:
                found.update((e.id, e) for e in extra)
        ordered = sorted(found.values(), key=lambda e: (published(e), e.id), reverse=True)
        return _atom(ordered[start : start + size], len(ordered), start)

    def answer_id_list(self, args: dict[str, list[str]]) -> Response:
        """The records of the ids asked for, in the order asked (ids arXiv does not know are left out)."""
        ids = args["id_list"][0].split(",")
        self.id_list_requests.append(ids)
        by_id = {e.id: e for e in self.corpus}
        found = [by_id[i] for i in ids if i in by_id]
        return _atom(found, len(found), 0)

    def answer_rss(self, request: Request) -> Response:
        names = unquote(request.path.removeprefix("/rss/")).split("+")
        self.rss_requests.append(names)
        listed = [a for a in self.announcements if in_categories(a.entry, tuple(names))]
        return Response(rss_feed(names, listed, self.announced), content_type="application/rss+xml")


def _atom(entries: list[Entry], total: int, start: int) -> Response:
    return Response(api_feed(entries, total=total, start=start), content_type="application/atom+xml")


def loopback_cli(tmp_path, httpserver, monkeypatch, config_text: str) -> Callable[..., int]:
    """`feedtui` CLI calls with data and config (`config_text`) under
    `tmp_path`, and the arXiv API and RSS base URLs on the loopback `httpserver`."""
    from feedtui.cli import main

    config = tmp_path / "config.toml"
    config.write_text(config_text)
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", httpserver.url_for("/api/query"))
    monkeypatch.setenv("FEEDTUI_ARXIV_RSS_URL", httpserver.url_for("/rss/"))
    data = tmp_path / "data"

    def cli(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    return cli


def cli_against(arxiv: LoopbackArxiv, tmp_path, httpserver, monkeypatch) -> Callable[..., int]:
    """`feedtui` CLI calls pointed at `arxiv`, installed on the loopback `httpserver`."""
    arxiv.install(httpserver)
    return loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.01\npage_size = 20\n")
