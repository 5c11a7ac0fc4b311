"""Deciding what to fetch for a refresh, then fetching it.

Planning is pure: given the topics, what was fetched when, and the clock, it
lists the requests to make.

- Query topics are combined into as few arXiv API requests as the query
  length allows (`(q1) OR (q2) OR …`, at most `arxiv.max_query_length`
  characters of search_query), each paged back only as far as needed: the
  whole window the first time, since the last answer (less a week of slack
  for late announcements, `SLACK`) afterwards. A topic answered today is not asked
  again unless forced: arXiv publishes once a day.
- Which topics a paper belongs to is then decided locally (see
  `feedtui.topics.tagging`). A request made for one topic alone also marks its
  papers as the API's answer for that topic (`Paper.fetched_for`), so they
  belong to it even where local evaluation disagrees. A combined request
  cannot say which topic a paper answered, so its papers go to the topics
  whose queries match them locally; a paper that matches none of them (arXiv
  stems words, local matching does not) is kept in the cache, untagged, where
  a topic added later can still find it.
- Category topics share one category-feed request (`cs.DC+cs.AR`), which
  carries the latest announcements. When a category topic has never been
  fetched from the API, or not for more than a day and a half, the API fills
  the gap (its categories as `cat:` terms, batched like query topics).
- Feed URLs are fetched every time, with conditional GET.
- Starred arXiv papers the cache lacks (stars imported from another
  machine, of papers no feed lists any more) are asked for by id, with the
  API's `id_list`, `ID_BATCH` ids a request, once a day at most.
- Whenever arXiv is asked anything, the count of all new arXiv papers in the
  last 28 days (a `submittedDate:[FROM TO TO]` query, one result) is fetched
  once a day: the denominator of the topics' momentum share.

Fetching runs every planned source concurrently through one `Fetcher`
(which paces arXiv hosts, across processes and restarts through the data
directory's shared pace) and parses off the event loop.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from feedtui.core.packed import PackedPapers, pack_papers
from feedtui.model import Paper, SourceReport
from feedtui.settings import Settings
from feedtui.sources.arxiv_api import API_ERROR_PREFIX, build_id_list_url, build_query_url, category_feed_url, fetch_query
from feedtui.sources.base import FeedError, Validators
from feedtui.sources.http import Fetcher
from feedtui.store.fetch_state import FetchState, new_papers_key, topic_answered_key
from feedtui.text.links import hide_passwords
from feedtui.text.sanitize import clean_line
from feedtui.topics.query import combine_any
from feedtui.topics.registry import TopicEntry
from feedtui.topics.tagging import forget_topics, parse_and_tag, register_topics, topic_specs

if TYPE_CHECKING:
    from feedtui.core.embedding import Embedder

# How far before a query's last answer the next one reads back. arXiv lists
# papers newest submission first, and announces them later than they were
# submitted: a Friday afternoon's papers come out on Monday evening, three
# days on, and holidays and papers held for moderation add days. A paper
# submitted before this reach but announced after the last answer is missed.
SLACK = timedelta(days=7)
# arXiv's own limit on the results of one query.
MAX_RESULTS_PER_REQUEST = 10_000
RSS_COVERS = timedelta(hours=36)
# Ids asked for in one id_list request: a URL of about 1,500 characters.
ID_BATCH = 100
# The "answered" key of the requests for starred papers the cache lacks.
STARRED_ANSWERED = "starred-not-cached"
# How long after the requests begin the parse pool starts to prepare (see
# `fetch_sources`).
PREPARE_AFTER_S = 0.1
# With this many sources expected to answer with bodies, the parse workers
# are forked as soon as the pool is prepared, while the answers are awaited,
# instead of by the first large body (whose parse would wait for the fork).
FORK_EARLY_BODIES = 4


@dataclass(slots=True)
class PlannedSource:
    kind: str  # "api", "rss", "feed", "total", "ids"
    label: str
    url: str = ""
    query: str = ""
    # The arXiv ids asked for ("ids").
    ids: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    # Signature keys of the topics answered by this source, for "answered today".
    answers: tuple[str, ...] = ()
    since: datetime | None = None
    # An API request made for one topic alone: its `fetch_key`, recorded in
    # every paper it returns.
    fetched_for: str = ""


@dataclass(slots=True)
class SourceOutcome:
    plan: PlannedSource
    report: SourceReport
    papers: list[Paper] = field(default_factory=list)
    validators: dict[str, Validators] = field(default_factory=dict)
    total: int | None = None
    # Topics each paper matched as parsed, and its normalised texts (both
    # computed beside the parser; see topics.tagging.parse_and_tag).
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    texts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A feed's papers (with their tags and texts) as the parse worker packed
    # them, when the refresh spools them (see core/packed.py): `papers` is
    # then empty.
    packed: PackedPapers | None = None
    # One page of an API query, handed over as it came (see `on_page`): its
    # papers are stored, but it answers nothing (the query may yet fail or be
    # stopped), so no validators or "answered" are recorded for it. It shares
    # the query's report.
    page: bool = False
    # The query's final outcome when its pages were handed over: `papers`
    # lists them all for the report, and none is stored again.
    pages_handed_over: bool = False

    @property
    def to_store(self) -> list[Paper]:
        return [] if self.pages_handed_over else self.papers


@dataclass(slots=True, frozen=True)
class Paging:
    """An arXiv API query part way: `read` results so far, of about `expected`."""

    label: str
    read: int
    expected: int

    def text(self, label_width: int = 60) -> str:
        label = _cut(self.label, label_width)
        if self.expected > self.read:
            return f"{label}: {self.read:,} of ~{_about(self.expected):,} papers"
        return f"{label}: {self.read:,} papers so far"


@dataclass(slots=True, frozen=True)
class Waiting:
    """A wait of `seconds` before the next request, and why (see Fetcher's
    on_wait); it ends at `until` on time.monotonic's clock."""

    seconds: float
    why: str
    until: float

    @classmethod
    def starting(cls, seconds: float, why: str) -> Waiting:
        return cls(seconds, why, time.monotonic() + seconds)

    def text(self, label_width: int = 60) -> str:
        """What is left of the wait, said as it counts down (1 s at the end:
        the sleep may outlast its time a little)."""
        left = self.until - time.monotonic()
        return f"waiting {max(1, math.ceil(left - 0.05))} s: {self.why}"


# What a refresh is at, beyond the sources it has ended (None: nothing to say).
Activity = Paging | Waiting | None


def _about(count: int) -> int:
    """An estimate as it is said: to two significant figures."""
    return round(count, 2 - len(str(count))) if count >= 100 else count


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def answered_key(entry: TopicEntry) -> str:
    return topic_answered_key(entry.signature)


def rss_category(category: str) -> str:
    """A topic's category as the category feed's URL names it (`cs.*` is `cs`)."""
    category = category.strip()
    return category[:-2] if category.endswith(".*") else category


def plan_refresh(
    entries: Sequence[TopicEntry],
    *,
    settings: Settings,
    fetch_state: FetchState,
    now: datetime,
    force: bool,
    starred_not_cached: Sequence[str] = (),
) -> tuple[list[PlannedSource], list[SourceReport]]:
    """The requests to make for `entries`, and the topics skipped (with why).
    `starred_not_cached`: arXiv ids of starred papers the cache lacks."""
    window_start = now - timedelta(weeks=settings.window_weeks)
    today = now.date()
    plans: list[PlannedSource] = []
    skipped: list[SourceReport] = []
    api_topics: list[tuple[TopicEntry, datetime]] = []
    rss_categories: dict[str, None] = {}
    rss_topics: list[str] = []
    feeds: dict[str, list[str]] = {}

    for entry in entries:
        if entry.error:
            skipped.append(SourceReport(url="", label=entry.name, ok=False, error=entry.error, topics=(entry.name,)))
            continue
        definition = entry.topic.definition
        last = fetch_state.answered_at(answered_key(entry))
        if last is not None and last > now:  # the clock went backwards
            last = None
        since = max(window_start, last - SLACK) if last else window_start
        if definition.feeds:
            for url in definition.feeds:
                feeds.setdefault(url, []).append(entry.name)
        if definition.categories:
            rss_categories.update(dict.fromkeys(rss_category(c) for c in definition.categories))
            rss_topics.append(entry.name)
            if force or last is None or now - last > RSS_COVERS:
                api_topics.append((entry, since))
        elif entry.api_query is not None:
            if not force and last is not None and last.date() == today:
                skipped.append(
                    SourceReport(
                        url="", label=entry.name, ok=True, skipped="already fetched today (arXiv publishes daily)"
                    )
                )
                continue
            api_topics.append((entry, since))

    plans.extend(_api_batches(api_topics, settings))
    if rss_categories:
        url = category_feed_url(settings.arxiv.rss_url, list(rss_categories))
        plans.append(PlannedSource("rss", f"arXiv {'+'.join(rss_categories)}", url=url, topics=tuple(rss_topics)))
    for url, names in feeds.items():
        # A URL stored before feed URLs were checked may hold an escape sequence.
        label = hide_passwords(f"{topics_label(names)} ({clean_line(url, html_allowed=False)})", url)
        plans.append(PlannedSource("feed", label, url=url, topics=tuple(names)))
    plans.extend(_starred_batches(starred_not_cached, fetch_state, now, force))
    if any(p.kind in ("api", "rss") for p in plans):
        key = new_papers_key(now)
        if fetch_state.total(key, today) is None:
            plans.append(PlannedSource("total", "arXiv new-paper count", query=total_query(now), answers=(key,)))
    return plans, skipped


def _starred_batches(ids: Sequence[str], fetch_state: FetchState, now: datetime, force: bool) -> list[PlannedSource]:
    """Requests for starred papers the cache lacks, unless asked for today
    (an id arXiv does not return would otherwise be asked for at every refresh)."""
    def asked_today(paper_id: str) -> bool:
        last = fetch_state.answered_at(_starred_answer(paper_id))
        return last is not None and last.date() == now.date() and last <= now

    ids = [paper_id for paper_id in ids if force or not asked_today(paper_id)]
    if not ids:
        return []
    batches = [tuple(ids[i : i + ID_BATCH]) for i in range(0, len(ids), ID_BATCH)]
    label = f"starred papers not in the cache ({len(ids):,})"
    return [PlannedSource("ids", label, ids=batch, answers=tuple(map(_starred_answer, batch))) for batch in batches]


def _starred_answer(paper_id: str) -> str:
    """The "answered" key of a request for one starred paper: each id is asked
    for once a day, so a star added after the day's request is asked for at once."""
    return f"{STARRED_ANSWERED}:{paper_id}"


def _api_batches(topics: list[tuple[TopicEntry, datetime]], settings: Settings) -> list[PlannedSource]:
    """Pack topic queries, in order of how far back they must reach, into
    requests whose combined search_query fits `arxiv.max_query_length` (a
    query longer than that on its own is sent alone)."""
    limit = settings.arxiv.max_query_length
    batches: list[PlannedSource] = []
    current: list[tuple[TopicEntry, datetime]] = []
    sent = ""
    for entry, since in sorted(topics, key=lambda item: item[1]):
        assert entry.api_query is not None
        trial = _combined(current + [(entry, since)])
        if current and len(trial) > limit:
            batches.append(_batch(current, sent))
            current, trial = [], entry.api_query.to_api()
        current.append((entry, since))
        sent = trial
    if current:
        batches.append(_batch(current, sent))
    return batches


def _combined(topics: list[tuple[TopicEntry, datetime]]) -> str:
    return combine_any(entry.api_query for entry, _ in topics).to_api()  # type: ignore[misc]


def _batch(topics: list[tuple[TopicEntry, datetime]], query: str) -> PlannedSource:
    names = tuple(entry.name for entry, _ in topics)
    return PlannedSource(
        "api",
        topics_label(names),
        query=query,
        topics=names,
        answers=tuple(answered_key(entry) for entry, _ in topics),
        since=min(since for _, since in topics),
        fetched_for=topics[0][0].fetch_key if len(topics) == 1 else "",
    )


def topics_label(names: Sequence[str]) -> str:
    """How a source is named: its topic, or "4 topics (A, B, C…)"."""
    if len(names) == 1:
        return names[0]
    return f"{len(names)} topics ({', '.join(names[:3])}{'…' if len(names) > 3 else ''})"


def total_query(now: datetime) -> str:
    start = now - timedelta(days=28)
    return f"submittedDate:[{start:%Y%m%d%H%M} TO {now:%Y%m%d%H%M}]"


ProgressCallback = Callable[[SourceOutcome], None]
ActivityCallback = Callable[[Activity], None]


class ActivityTeller:
    """Tells what a refresh is at: the query being paged, or a wait worth
    telling; when the wait is over, the query paged before it again, and
    nothing once that query has ended."""

    def __init__(self, tell: ActivityCallback) -> None:
        self._tell = tell
        self.paging: Paging | None = None
        # Waits under way, the latest last: one ending leaves the others told.
        self.waits: list[Waiting] = []
        self.shown: Activity = None

    def paged(self, label: str, read: int, expected: int) -> None:
        self.paging = Paging(label, read, expected)
        self.tell(self.paging)

    def waited(self, seconds: float, why: str) -> None:
        """A wait begins (`seconds` > 0) or the first begun for `why` ends (0);
        the latest news is told: a page read, a wait begun, else the wait
        still under way, else the query being paged."""
        if seconds:
            self.waits.append(Waiting.starting(seconds, why))
        else:
            ended = next((wait for wait in self.waits if wait.why == why), None)
            if ended is not None:
                self.waits.remove(ended)
        self.tell(self.waits[-1] if self.waits else self.paging)

    def ended(self, label: str) -> None:
        if self.paging is not None and self.paging.label == label:
            if self.shown is self.paging:
                self.tell(None)
            self.paging = None

    def tell(self, activity: Activity) -> None:
        self.shown = activity
        self._tell(activity)


def _parse_and_tag(token: int, data: bytes, url: str, content_type: str, now, base: str = "", pack: bool = False):
    """`parse_and_tag`: (feed, tags, texts). With `pack`, the papers come
    packed: (feed, PackedPapers) (see `_packed`)."""
    feed, tags, texts = parse_and_tag(token, data, url, content_type, now, base)
    return _packed(feed, tags, texts) if pack else (feed, tags, texts)


def _parse_and_tag_for_embedding(token: int, data: bytes, url: str, content_type: str, now, base: str = "", pack: bool = False):
    """`_parse_and_tag`, and last the texts its papers are embedded and
    indexed by (see discovery/at_parse.py), for the parser's Embedder."""
    from feedtui.discovery.at_parse import embedding_texts

    feed, tags, texts = parse_and_tag(token, data, url, content_type, now, base)
    wanted = embedding_texts(feed.papers)
    return (*_packed(feed, tags, texts), wanted) if pack else (feed, tags, texts, wanted)


def _packed(feed, tags, texts):
    """(feed without its papers, PackedPapers of them with their tags and
    texts): see core/packed.py."""
    packed = pack_papers(feed.papers, tags, texts)
    feed.papers = []
    return feed, packed


class Parser:
    """Parses (and tags) response bodies on the CPU pool."""

    def __init__(self, topics: Sequence[TopicEntry], *, embedder: Embedder | None = None, pack: bool = False) -> None:
        """`embedder`: the papers parsed are handed to it, to be embedded
        and indexed (see core/embedding.py). `pack`: a feed's papers come
        packed (`parse_packed`)."""
        self.topics = topics
        self.embedder = embedder
        self.pack = pack
        self.token = 0
        # Made for the first body to parse, or by `start` when bodies are
        # expected: a refresh of 304s never imports multiprocessing.
        self.pool = None

    def _pool(self):
        if self.pool is None:
            from feedtui.cpu_pool import CpuPool, next_token

            self.token = next_token()
            self.pool = CpuPool(
                _parse_and_tag if self.embedder is None else _parse_and_tag_for_embedding,
                initializer=register_topics,
                initargs=(self.token, topic_specs(self.topics)),
                preload=["feedtui.sources.parse.route", "feedtui.topics.tagging"],
            )
        return self.pool

    def start(self, *, fork: bool = False) -> None:
        """Prepare the pool in the background, for answers expected to have
        bodies; with `fork`, its workers too (see CpuPool.start), and then
        the embedder's (which load the model first: after the parsers, whom
        the first answers wait for)."""
        self._pool().start(fork=fork, then=self.embedder.start if fork and self.embedder is not None else None)

    async def parse(self, data: bytes, url: str, content_type: str = "", *, now: datetime | None = None, base: str = ""):
        """(feed, tags, texts): see topics.tagging.parse_and_tag (the papers'
        vectors and words come through the embedder)."""
        return self._handed_on(await self._pool().run(len(data), self.token, data, url, content_type, now, base))

    async def parse_packed(self, data: bytes, url: str, content_type: str = "", *, now: datetime | None = None, base: str = ""):
        """(feed without its papers, PackedPapers): see core/packed.py. Only when `pack`."""
        assert self.pack
        return self._handed_on(await self._pool().run(len(data), self.token, data, url, content_type, now, base, True))

    def _handed_on(self, parsed: tuple) -> tuple:
        """The parse's result, its last item (the texts to embed) handed to the embedder."""
        if self.embedder is None:
            return parsed
        *parsed, wanted = parsed
        self.embedder.submit(wanted)
        return tuple(parsed)

    async def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            # A preparation still under way in a thread registers the topics
            # when it ends: they are forgotten after it, and the loop never
            # waits for it (the thread runs on even if this is cancelled).
            await asyncio.to_thread(self.pool.after_preparing, forget_topics, self.token)


async def fetch_sources(
    plans: Sequence[PlannedSource],
    *,
    settings: Settings,
    fetch_state: FetchState,
    now: datetime,
    topics: Sequence[TopicEntry] = (),
    on_source: ProgressCallback | None = None,
    on_page: ProgressCallback | None = None,
    on_activity: ActivityCallback | None = None,
    admit: Callable[[], Awaitable[None]] | None = None,
    embedder: Embedder | None = None,
    pack: bool = False,
) -> list[SourceOutcome]:
    """Fetch every plan concurrently (each once `admit`, if given, lets it
    begin: a caller storing what comes holds sources back while it is
    behind); `on_source` is called with each source's
    outcome as it ends, `on_page` (if given) with each page of an API query as
    it comes (see `SourceOutcome.page`), and `on_activity` (if given) with how
    far an API query has paged and with the waits worth telling. With an
    `embedder`, the papers parsed are handed to it (the caller awaits and
    closes it); with `pack`, a feed's papers come packed (`SourceOutcome.packed`)."""
    parser = Parser(topics, embedder=embedder, pack=pack)
    teller = ActivityTeller(on_activity) if on_activity is not None else None
    on_wait = teller.waited if teller is not None else None
    async with Fetcher(settings.fetch, settings.arxiv, shared_pace=fetch_state.arxiv_pace(), on_wait=on_wait) as fetcher:

        async def run(plan: PlannedSource) -> SourceOutcome:
            if admit is not None:
                await admit()
            try:
                outcome = await _fetch_one(fetcher, parser, plan, settings, fetch_state, now, on_page, teller)
            except Exception as error:  # one bad source never stops the others
                outcome = SourceOutcome(
                    plan,
                    SourceReport(
                        url=plan.url, label=plan.label, ok=False, error=f"unexpected error: {error!r}", topics=plan.topics
                    ),
                )
            _hide_passwords_in(outcome.report)
            if teller is not None:
                teller.ended(plan.label)
            if on_source:
                on_source(outcome)
            return outcome

        # The pool prepares (imports, compiled topics: CPU work, in a thread)
        # PREPARE_AFTER_S after the requests begin, by when a refresh's
        # requests are usually out and the loop waits for answers: begun with
        # them, it held the interpreter while they were being sent, and the
        # requests went out several times slower. A body that comes
        # sooner prepares the pool itself, and its parse waits for that.
        preparing = None
        bodies = sum(1 for plan in plans if _expects_body(plan, settings, fetch_state))
        if bodies:
            fork = bodies >= FORK_EARLY_BODIES
            preparing = asyncio.get_running_loop().call_later(PREPARE_AFTER_S, partial(parser.start, fork=fork))
        try:
            return list(await asyncio.gather(*(run(plan) for plan in plans)))
        finally:
            if preparing is not None:
                preparing.cancel()
            await parser.close()


def _hide_passwords_in(report: SourceReport) -> None:
    """A report is for people to read: no password of a feed URL in it."""
    report.url = hide_passwords(report.url)
    report.label = hide_passwords(report.label)
    report.error = hide_passwords(report.error)
    report.warning = hide_passwords(report.warning)
    report.reading_notes = tuple(map(hide_passwords, report.reading_notes))


def _first_page(plan: PlannedSource, settings: Settings) -> str:
    """The URL of an API query's first page: the one its validators belong to."""
    return build_query_url(settings.arxiv.api_url, plan.query, 0, settings.arxiv.page_size)


def _expects_body(plan: PlannedSource, settings: Settings, fetch_state: FetchState) -> bool:
    """Whether the answer will most likely be a body to parse: a request with
    nothing to make it conditional (never answered, or no validators sent)."""
    if plan.kind == "ids":
        return True
    if plan.kind == "api":
        url = _first_page(plan, settings)
    elif plan.kind in ("rss", "feed"):
        url = plan.url
    else:  # the one-result count of new papers: parsed in a thread, no pool
        return False
    return fetch_state.validators(url).empty


async def _fetch_one(
    fetcher: Fetcher,
    parser: Parser,
    plan: PlannedSource,
    settings: Settings,
    fetch_state: FetchState,
    now: datetime,
    on_page: ProgressCallback | None = None,
    teller: ActivityTeller | None = None,
) -> SourceOutcome:
    report = SourceReport(url=plan.url, label=plan.label, ok=True, topics=plan.topics)
    outcome = SourceOutcome(plan, report)
    if plan.kind == "api":
        first_page = _first_page(plan, settings)

        async def parse_page(data: bytes, url: str):
            feed, tags, texts = await parser.parse(data, url, now=now)
            outcome.tags.update(tags)
            outcome.texts.update(texts)
            return feed

        def hand_over(papers: list[Paper]) -> None:
            assert on_page is not None
            if plan.fetched_for:
                for paper in papers:
                    paper.fetched_for = (plan.fetched_for,)
            tags = {p.id: outcome.tags[p.id] for p in papers if p.id in outcome.tags}
            texts = {p.id: outcome.texts[p.id] for p in papers if p.id in outcome.texts}
            on_page(SourceOutcome(plan, report, papers, tags=tags, texts=texts, page=True))

        # A combined request answers several topics: give it each one's share.
        cap = min(settings.arxiv.max_results * max(1, len(plan.topics)), MAX_RESULTS_PER_REQUEST)
        arxiv = settings.arxiv.replaced(max_results=cap)
        report.url = first_page
        result = await fetch_query(
            fetcher,
            arxiv,
            plan.query,
            since=plan.since or now - timedelta(weeks=settings.window_weeks),
            parse=parse_page,
            validators=fetch_state.validators(first_page),
            on_page=hand_over if on_page else None,
            on_read=partial(teller.paged, plan.label) if teller is not None else None,
        )
        outcome.pages_handed_over = on_page is not None
        report.requests = result.requests
        report.not_modified = result.not_modified
        if result.error:
            # A page that could not be saved said so in the report it shares
            # with the query: that cause comes first.
            report.ok = False
            report.error = f"{report.error}; then {result.error}" if report.error else result.error
        else:
            outcome.validators[first_page] = result.validators
        papers = result.papers
        if not result.error and len(papers) >= cap:
            report.warning = (
                f"stopped at {cap:,} results (arxiv.max_results); older papers of the window were not fetched"
            )
        if plan.fetched_for:
            for paper in papers:
                paper.fetched_for = (plan.fetched_for,)
        outcome.papers = papers
        report.papers = len(papers)
        report.reading_notes = tuple(dict.fromkeys(result.warnings))  # pages may repeat one
        return outcome
    if plan.kind == "ids":
        return await _fetch_ids(fetcher, parser, outcome, settings, now)
    if plan.kind == "total":
        url = build_query_url(settings.arxiv.api_url, plan.query, 0, 1)
        report.url = url
        fetched = await fetcher.get(url)
        report.requests = fetched.attempts or 1
        if not fetched.ok:
            report.ok, report.error = False, fetched.error
            return outcome
        try:
            parsed = (await parser.parse(fetched.body, url))[0]
        except FeedError as error:
            report.ok, report.error = False, str(error)
            return outcome
        outcome.total = parsed.total_results
        return outcome
    # "rss" and "feed": one conditional GET.
    validators = fetch_state.validators(plan.url)
    fetched = await fetcher.get(plan.url, validators)
    report.status = fetched.status
    report.requests = fetched.attempts or 1
    if not fetched.ok:
        report.ok, report.error = False, fetched.error
        return outcome
    if fetched.not_modified:
        report.not_modified = True
        outcome.validators[plan.url] = fetched.validators
        return outcome
    try:
        if parser.pack:
            parsed, outcome.packed = await parser.parse_packed(
                fetched.body, plan.url, fetched.content_type, now=now, base=fetched.final_url
            )
        else:
            parsed, outcome.tags, outcome.texts = await parser.parse(
                fetched.body, plan.url, fetched.content_type, now=now, base=fetched.final_url
            )
    except FeedError as error:
        report.ok, report.error = False, str(error)
        return outcome
    outcome.papers = parsed.papers
    outcome.validators[plan.url] = fetched.validators
    report.papers = outcome.packed.count if outcome.packed is not None else len(parsed.papers)
    report.reading_notes = tuple(parsed.warnings)
    return outcome


async def _fetch_ids(fetcher: Fetcher, parser: Parser, outcome: SourceOutcome, settings: Settings, now: datetime) -> SourceOutcome:
    """The arXiv records of `outcome.plan.ids`, one request through the paced
    lane; the ids arXiv does not return are named in a warning."""
    report = outcome.report
    url = report.url = build_id_list_url(settings.arxiv.api_url, outcome.plan.ids)
    fetched = await fetcher.get(url)
    report.status = fetched.status
    report.requests = fetched.attempts or 1
    if not fetched.ok:
        report.ok, report.error = False, fetched.error
        return outcome
    try:
        parsed, outcome.tags, outcome.texts = await parser.parse(fetched.body, url, now=now)
    except FeedError as error:
        report.ok, report.error = False, str(error)
        return outcome
    api_errors = [w for w in parsed.warnings if w.startswith(API_ERROR_PREFIX)]
    if api_errors:
        report.ok, report.error = False, api_errors[0]
        return outcome
    wanted = set(outcome.plan.ids)
    outcome.papers = [paper for paper in parsed.papers if paper.id in wanted]
    report.papers = len(outcome.papers)
    report.reading_notes = tuple(parsed.warnings)
    unanswered = sorted(wanted - {paper.id for paper in outcome.papers})
    if unanswered:
        shown = ", ".join(unanswered[:10]) + (", …" if len(unanswered) > 10 else "")
        report.warning = f"arXiv has no record of starred {shown}; feedtui unstar ID drops a star arXiv does not know"
    return outcome
