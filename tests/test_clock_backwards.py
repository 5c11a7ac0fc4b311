"""A clock that jumps backwards (a dead RTC battery, a VM restored from a
snapshot, a manual fix): momentum and "fetched today" stay sane — no
negative counts, no crash, and a query is asked again rather than skipped."""

from __future__ import annotations

from datetime import datetime, timedelta

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition
from feedtui.core.fetch import answered_key, plan_refresh
from feedtui.store.fetch_state import new_papers_key

from tests.atom import Entry, api_feed
from tests.factories import make_paper

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)


def open_engine(tmp_path, clock=lambda: NOW) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.arxiv.min_interval = 0.01
    return Engine(config, tmp_path / "data", background_writes=False, clock=clock)


def engine_with_papers(tmp_path) -> Engine:
    engine = open_engine(tmp_path)
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    papers = [
        make_paper(f"2611.{n:05d}", abstract="A widget.", published=NOW - timedelta(days=n, hours=1))
        for n in range(0, 70, 3)
    ]
    engine.cache.store(papers, {}, NOW)
    engine.load_library()
    engine.retag(["Widgets"])
    engine.fetch_state.save(totals={new_papers_key(NOW): (1000, NOW.date())})
    return engine


def test_momentum_as_of_an_earlier_moment_counts_only_what_existed_then(tmp_path):
    engine = engine_with_papers(tmp_path)
    now = engine.momentum("Widgets")
    assert (now.last4, now.prev4) == (10, 9)
    for days_back in (1, 10, 30, 60, 200, 20_000):
        earlier = engine.momentum("Widgets", as_of=NOW - timedelta(days=days_back))
        assert earlier.last4 >= 0 and earlier.prev4 >= 0
        assert all(week.count >= 0 for week in earlier.weeks) and len(earlier.weeks) == 12
        assert earlier.share is None or 0 <= earlier.share <= 1
        assert earlier.last4 + earlier.prev4 <= now.last4 + now.prev4 + 24
    long_ago = engine.momentum("Widgets", as_of=NOW - timedelta(days=365))
    assert (long_ago.last4, long_ago.prev4, sum(w.count for w in long_ago.weeks)) == (0, 0, 0)
    assert long_ago.sentence.startswith("0 papers in the last four weeks, against 0")
    engine.close()


def test_an_engine_whose_clock_went_back_shows_sane_momenta(tmp_path):
    engine = engine_with_papers(tmp_path)
    engine.close()
    behind = open_engine(tmp_path, clock=lambda: NOW - timedelta(days=40))
    behind.load_library()
    for momentum in behind.momenta().values():
        assert momentum.last4 >= 0 and momentum.prev4 >= 0
        assert all(week.count >= 0 for week in momentum.weeks)
        assert momentum.share is None or 0 <= momentum.share <= 1
    behind.close()


def test_a_query_answered_in_the_future_is_asked_again(tmp_path):
    engine = open_engine(tmp_path)
    entry = engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.fetch_state.save(answered={answered_key(entry): NOW})
    plans, skipped = plan_refresh(
        [entry], settings=engine.settings, fetch_state=engine.fetch_state, now=NOW + timedelta(hours=1), force=False
    )
    assert [s.skipped for s in skipped] == ["already fetched today (arXiv publishes daily)"]
    assert plans == []
    for back in (timedelta(hours=1), timedelta(days=1), timedelta(days=400)):
        earlier = NOW - back
        # A new-paper total for this window, counted on a day that has not come yet.
        engine.fetch_state.save(totals={new_papers_key(earlier): (500, (NOW + timedelta(days=1)).date())})
        plans, skipped = plan_refresh(
            [entry], settings=engine.settings, fetch_state=engine.fetch_state, now=earlier, force=False
        )
        assert skipped == []
        api = [p for p in plans if p.kind == "api"]
        assert len(api) == 1
        # Asked back over the whole window, not from a "last answer" that has not happened yet.
        assert api[0].since == earlier - timedelta(weeks=engine.settings.window_weeks)
        # ... is not "today's" either: it is counted again.
        assert [p.kind for p in plans].count("total") == 1
    engine.close()


async def test_a_refresh_after_the_clock_went_back_asks_arxiv_again(tmp_path, httpserver):
    feed = api_feed([Entry("2611.00001", title="A widget", summary="Widgets.", published="2026-11-20T10:00:00Z")])
    httpserver.expect_request("/api/query").respond_with_data(feed, content_type="application/atom+xml")
    clock = [NOW]
    engine = open_engine(tmp_path, clock=lambda: clock[0])
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.follow("Widgets")
    engine.load_library()
    first = await engine.refresh()
    assert first.ok and first.new_papers == 1
    asked = len(httpserver.log)
    again = await engine.refresh()
    assert len(httpserver.log) == asked  # the same day: not asked again
    assert any(s.skipped for s in again.sources)
    clock[0] = NOW - timedelta(hours=5)
    behind = await engine.refresh()
    assert behind.ok
    assert len(httpserver.log) > asked  # asked again, not "already fetched today"
    assert not any(s.skipped for s in behind.sources)
    assert engine.library.unread_count("Widgets") == 1
    assert engine.momentum("Widgets").last4 == 1
    engine.close()
