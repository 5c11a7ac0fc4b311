"""Deciding what to fetch for a refresh, then fetching it.

Planning is pure: given the topics, what was fetched when, and the clock, it
lists the requests to make.

- Query topics are combined into as few arXiv API requests as the query
  length allows (`(q1) OR (q2) OR …`), each paged back only as far as needed:
  the whole window the first time, since the last answer (less two days of
  slack for late announcements) afterwards. A topic answered today is not
  asked again unless forced: arXiv publishes once a day.
- Category topics share one category-feed request (`cs.DC+cs.AR`), which
  carries the latest announcements. When a category topic has never been
  fetched, or not for more than a day and a half, the API fills the gap.
- Feed URLs are fetched every time, with conditional GET.

Fetching runs every planned source concurrently through one `Fetcher`
(which paces arXiv hosts, across processes and restarts through the data
directory's shared pace) and parses off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from feedtui.model import Paper, SourceReport
from feedtui.settings import Settings
from feedtui.sources.arxiv_api import build_query_url, category_feed_url, fetch_query
from feedtui.sources.base import FeedError, Validators
from feedtui.sources.http import Fetcher
from feedtui.sources.parse import parse_feed
from feedtui.store.fetch_state import FetchState, new_papers_key
from feedtui.topics.query import combine_any, parse_query
from feedtui.topics.registry import TopicEntry

SLACK = timedelta(days=2)
RSS_COVERS = timedelta(hours=36)


@dataclass(slots=True)
class PlannedSource:
    kind: str  # "api", "rss", "feed", "total"
    label: str
    url: str = ""
    query: str = ""
    topics: tuple[str, ...] = ()
    # Signature keys of the topics answered by this source, for "answered today".
    answers: tuple[str, ...] = ()
    since: datetime | None = None


@dataclass(slots=True)
class SourceOutcome:
    plan: PlannedSource
    report: SourceReport
    papers: list[Paper] = field(default_factory=list)
    validators: dict[str, Validators] = field(default_factory=dict)
    total: int | None = None


def answered_key(entry: TopicEntry) -> str:
    return f"topic:{entry.signature}"


def api_query_of(entry: TopicEntry) -> str:
    """The API search_query that fetches a topic (categories become cat: terms)."""
    definition = entry.topic.definition
    parts: list[str] = []
    if definition.categories:
        cats = " OR ".join(f"cat:{c if '.' in c or c.endswith('*') else c + '.*'}" for c in definition.categories)
        parts.append(f"({cats})" if len(definition.categories) > 1 else cats)
    if entry.query is not None:
        parts.append(f"({entry.query.to_api()})" if parts else entry.query.to_api())
    return " AND ".join(parts)


def plan_refresh(
    entries: Sequence[TopicEntry],
    *,
    settings: Settings,
    fetch_state: FetchState,
    now: datetime,
    force: bool,
) -> tuple[list[PlannedSource], list[SourceReport]]:
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
            skipped.append(SourceReport(url="", label=entry.name, ok=False, error=entry.error))
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
            rss_categories.update(dict.fromkeys(definition.categories))
            rss_topics.append(entry.name)
            if force or last is None or now - last > RSS_COVERS:
                api_topics.append((entry, since))
        elif not definition.feeds:
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
        plans.append(PlannedSource("feed", url, url=url, topics=tuple(names)))
    if any(p.kind in ("api", "rss") for p in plans):
        key = new_papers_key(now)
        if fetch_state.total(key, today) is None:
            plans.append(PlannedSource("total", "arXiv new-paper count", query=total_query(now), answers=(key,)))
    return plans, skipped


def _api_batches(topics: list[tuple[TopicEntry, datetime]], settings: Settings) -> list[PlannedSource]:
    """Greedy packing of topic queries into requests under the length limit."""
    batches: list[PlannedSource] = []
    current: list[tuple[TopicEntry, datetime, str]] = []

    def close() -> None:
        if not current:
            return
        queries = [q for _, _, q in current]
        combined = queries[0] if len(queries) == 1 else combine_any([parse_query(q) for q in queries]).to_api()
        names = tuple(e.name for e, _, _ in current)
        label = names[0] if len(names) == 1 else f"{len(names)} topics ({', '.join(names[:3])}{'…' if len(names) > 3 else ''})"
        batches.append(
            PlannedSource(
                "api",
                label,
                query=combined,
                topics=names,
                answers=tuple(answered_key(e) for e, _, _ in current),
                since=min(s for _, s, _ in current),
            )
        )
        current.clear()

    limit = settings.arxiv.max_query_length
    for entry, since, query in sorted(
        ((e, s, api_query_of(e)) for e, s in topics), key=lambda item: item[1]
    ):
        trial = [q for _, _, q in current] + [query]
        length = sum(len(q) + 6 for q in trial)
        if current and length > limit:
            close()
        current.append((entry, since, query))
    close()
    return batches


def total_query(now: datetime) -> str:
    start = now - timedelta(days=28)
    return f"submittedDate:[{start:%Y%m%d%H%M} TO {now:%Y%m%d%H%M}]"


ProgressCallback = Callable[[SourceOutcome], None]


async def fetch_sources(
    plans: Sequence[PlannedSource],
    *,
    settings: Settings,
    fetch_state: FetchState,
    now: datetime,
    on_source: ProgressCallback | None = None,
) -> list[SourceOutcome]:
    async with Fetcher(settings.fetch, settings.arxiv, shared_pace=fetch_state.arxiv_pace()) as fetcher:

        async def run(plan: PlannedSource) -> SourceOutcome:
            try:
                outcome = await _fetch_one(fetcher, plan, settings, fetch_state, now)
            except Exception as error:  # one bad source never stops the others
                outcome = SourceOutcome(
                    plan, SourceReport(url=plan.url, label=plan.label, ok=False, error=f"unexpected error: {error!r}")
                )
            if on_source:
                on_source(outcome)
            return outcome

        return list(await asyncio.gather(*(run(plan) for plan in plans)))


async def _fetch_one(
    fetcher: Fetcher, plan: PlannedSource, settings: Settings, fetch_state: FetchState, now: datetime
) -> SourceOutcome:
    report = SourceReport(url=plan.url, label=plan.label, ok=True)
    outcome = SourceOutcome(plan, report)
    if plan.kind == "api":
        first_page = build_query_url(settings.arxiv.api_url, plan.query, 0, settings.arxiv.page_size)
        result = await fetch_query(
            fetcher,
            settings.arxiv,
            plan.query,
            since=plan.since or now - timedelta(weeks=settings.window_weeks),
            parse=parse_feed,
            validators=fetch_state.validators(first_page),
        )
        report.url = first_page
        report.requests = result.requests
        report.not_modified = result.not_modified
        if result.error:
            report.ok, report.error = False, result.error
        else:
            outcome.validators[first_page] = result.validators
        papers = result.papers
        if len(plan.topics) == 1:
            for paper in papers:
                paper.fetched_for = (plan.topics[0],)
        outcome.papers = papers
        report.papers = len(papers)
        return outcome
    if plan.kind == "total":
        url = build_query_url(settings.arxiv.api_url, plan.query, 0, 1)
        report.url = url
        fetched = await fetcher.get(url)
        report.requests = fetched.attempts or 1
        if not fetched.ok:
            report.ok, report.error = False, fetched.error
            return outcome
        try:
            parsed = await _parse_in_thread(fetched.body, url)
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
        parsed = await _parse_in_thread(fetched.body, plan.url, fetched.content_type)
    except FeedError as error:
        report.ok, report.error = False, str(error)
        return outcome
    outcome.papers = parsed.papers
    outcome.validators[plan.url] = fetched.validators
    report.papers = len(parsed.papers)
    return outcome


async def _parse_in_thread(data: bytes, url: str, content_type: str = ""):
    return await asyncio.to_thread(parse_feed, data, url, content_type)
