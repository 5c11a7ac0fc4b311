"""Filling the demo data directory from the bundled papers.

The bundled files are invented papers in the arXiv API's Atom format. They go
through the same parser as live responses; then every date is moved forward
by whole weeks so the newest papers fall in the current week and the momentum
charts look as they would for a live reader. When the week changes, the demo
cache is rebuilt with the new shift; the demo's read marks, stars and follows
are kept (paper ids do not change).
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta

from feedtui.demo import demo_epoch, demo_files
from feedtui.model import Paper, utcnow
from feedtui.sources.parse.route import parse_feed

SEED_VERSION = 1
DEMO_FOLLOWS = (
    "Heterogeneous Computing",
    "LLM Inference",
    "Edge Inference",
    "KV-Cache Management",
    "Federated Learning",
)


def week_shift(now: datetime) -> timedelta:
    """Whole weeks that bring the demo epoch into the current week."""
    epoch = demo_epoch()
    weeks = (now - epoch).days // 7
    return timedelta(weeks=max(weeks, 0))


def demo_papers(now: datetime) -> list[Paper]:
    shift = week_shift(now)
    papers: list[Paper] = []
    for resource in demo_files():
        parsed = parse_feed(resource.read_bytes(), f"demo:{resource.name}", now=demo_epoch())
        for paper in parsed.papers:
            papers.append(
                replace(paper, published=paper.published + shift, updated=paper.updated + shift, sources=())
            )
    return papers


def ensure_demo_seeded(engine, now: datetime | None = None) -> bool:
    """Seed (or re-seed for a new week) the demo data directory. True if it wrote."""
    now = now or utcnow()
    marker = f"{SEED_VERSION}:{week_shift(now).days}"
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
