"""Filling the demo data directory from the bundled papers.

The bundled files are invented papers in the arXiv API's Atom format. They go
through the same parser as live responses; then every date is moved forward
by whole calendar weeks (Monday to Monday) so the data's newest week becomes
the current week and the momentum charts look as they would for a live
reader. Early in the week less of it has passed than the data's newest week
covers: that week's papers are then drawn closer to Monday, in order, so the
current week has papers on any day and at any hour, and no paper lies in the
future. When the week (or, early in the week, the day) changes, the demo cache
is rebuilt; the demo's read marks, stars and follows are kept (paper ids do
not change).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from feedtui.demo import demo_epoch, demo_files
from feedtui.model import Paper, utcnow
from feedtui.sources.parse.route import parse_feed

SEED_VERSION = 2
DEMO_FOLLOWS = (
    "Heterogeneous Computing",
    "LLM Inference",
    "Edge Inference",
    "KV-Cache Management",
    "Federated Learning",
)


def monday_of(moment: datetime) -> datetime:
    """00:00 UTC on the Monday of the week holding `moment`."""
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, moment.day, tzinfo=UTC) - timedelta(days=moment.weekday())


def week_shift(now: datetime) -> timedelta:
    """Whole calendar weeks from the demo epoch's week to the current week:
    the data's newest week becomes this week, whatever the weekday."""
    weeks = (monday_of(now) - monday_of(demo_epoch())).days // 7
    return timedelta(weeks=max(weeks, 0))


def squeeze(now: datetime) -> float:
    """How much of the data's newest week has passed in the current one (1.0
    from the weekday and hour of the demo epoch on): its papers' distances
    from Monday are scaled by this so none lies after `now`."""
    epoch = demo_epoch()
    covered = epoch - monday_of(epoch)
    passed = now - monday_of(now)
    if passed >= covered:
        return 1.0
    return passed / covered


def demo_papers(now: datetime) -> list[Paper]:
    shift = week_shift(now)
    factor = squeeze(now)
    newest_week = monday_of(demo_epoch())

    def moved(moment: datetime) -> datetime:
        if moment >= newest_week:
            moment = newest_week + (moment - newest_week) * factor
        return moment + shift

    papers: list[Paper] = []
    for resource in demo_files():
        parsed = parse_feed(resource.read_bytes(), f"demo:{resource.name}", now=demo_epoch())
        for paper in parsed.papers:
            papers.append(replace(paper, published=moved(paper.published), updated=moved(paper.updated), sources=()))
    return papers


def seed_marker(now: datetime) -> str:
    """Changes when the demo's dates would: each week, and each day while the
    newest week is drawn closer to Monday."""
    marker = f"{SEED_VERSION}:{week_shift(now).days}"
    if squeeze(now) < 1.0:
        marker += f":{now.astimezone(UTC).weekday()}"
    return marker


def ensure_demo_seeded(engine, now: datetime | None = None) -> bool:
    """Seed (or re-seed for a new week) the demo data directory. True if it wrote."""
    now = now or utcnow()
    marker = seed_marker(now)
    if engine.pref("demo_seed") == marker and engine.has_cached_papers():
        return False
    first_time = engine.pref("demo_seed") is None
    papers = demo_papers(now)
    engine.replace_cache(papers, now)
    if first_time:
        for name in DEMO_FOLLOWS:
            if engine.has_topic(name):
                engine.follow(name)
        # A reader who has been at it for a while: most older papers read, a few starred.
        rng = random.Random(7)
        cutoff = now - timedelta(days=10)
        older = [p.id for p in papers if p.published < cutoff]
        engine.mark_read([pid for pid in older if rng.random() < 0.7])
        engine.star(rng.sample(sorted(p.id for p in papers), k=min(6, len(papers))))
    engine.set_pref("demo_seed", marker)
    engine.flush()
    return True
