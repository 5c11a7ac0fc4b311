"""The demo's dates follow the clock: whatever the weekday and hour, the
current week has papers and none lies in the future."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from feedtui.config import Config
from feedtui.core.engine import open_engine
from feedtui.demo import demo_epoch
from feedtui.demo.seed import DEMO_FOLLOWS, demo_papers, monday_of, seed_marker, week_shift

# A week long after the data's epoch, from Monday just after midnight UTC to Sunday night.
MOMENTS = [
    datetime(2026, 11, 30, 0, 1, tzinfo=UTC),
    datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
    datetime(2026, 12, 2, 0, 0, 30, tzinfo=UTC),
    datetime(2026, 12, 3, 13, 0, tzinfo=UTC),
    datetime(2026, 12, 4, 17, 59, tzinfo=UTC),
    datetime(2026, 12, 5, 6, 0, tzinfo=UTC),
    datetime(2026, 12, 6, 23, 59, tzinfo=UTC),
    datetime(2027, 3, 8, 0, 0, 5, tzinfo=UTC),
]


@pytest.mark.parametrize("now", MOMENTS, ids=lambda moment: moment.strftime("%a-%H%M"))
def test_the_current_week_has_papers_and_none_is_in_the_future(now):
    papers = demo_papers(now)
    this_week = [p for p in papers if monday_of(now) <= p.published <= now]
    assert len(this_week) >= 20
    assert max(max(p.published, p.updated) for p in papers) <= now
    assert all(p.published <= p.updated for p in papers)


@pytest.mark.parametrize("now", MOMENTS, ids=lambda moment: moment.strftime("%a-%H%M"))
def test_every_followed_topics_chart_ends_with_papers_this_week(tmp_path, now):
    config = Config()
    config.settings.auto_refresh = False
    engine = open_engine(config, tmp_path / "data", demo=True, clock=lambda: now)
    try:
        momenta = engine.momenta(list(DEMO_FOLLOWS))
        assert {name: m.weeks[-1].start for name, m in momenta.items()} == dict.fromkeys(
            DEMO_FOLLOWS, monday_of(now).date()
        )
        assert sum(m.weeks[-1].count for m in momenta.values()) > 0
        assert [name for name, m in momenta.items() if m.weeks[-1].count == 0] == []
    finally:
        engine.close()


def test_weeks_are_counted_monday_to_monday_not_in_seven_days_from_the_epoch():
    thursday = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)  # six days after a Friday epoch
    assert demo_epoch().weekday() == 4
    assert week_shift(thursday) == timedelta(weeks=1)
    assert week_shift(datetime(2026, 11, 30, 0, 1, tzinfo=UTC)) == timedelta(weeks=1)
    assert week_shift(datetime(2026, 11, 29, 23, 59, tzinfo=UTC)) == timedelta(0)


def test_the_newest_week_keeps_its_order_and_spreads_out_as_the_week_passes():
    monday = demo_papers(datetime(2026, 11, 30, 0, 1, tzinfo=UTC))
    friday = demo_papers(datetime(2026, 12, 4, 20, 0, tzinfo=UTC))
    start = datetime(2026, 11, 30, tzinfo=UTC)
    order = lambda papers: [p.id for p in sorted(papers, key=lambda p: (p.published, p.id)) if p.published >= start]
    assert order(monday) == order(friday)
    assert {p.published.weekday() for p in friday if p.published >= start} >= {0, 2, 3}


def test_the_seed_is_renewed_each_day_while_the_newest_week_is_squeezed():
    assert seed_marker(datetime(2026, 11, 30, 0, 1, tzinfo=UTC)) != seed_marker(datetime(2026, 12, 1, 0, 1, tzinfo=UTC))
    assert seed_marker(datetime(2026, 12, 5, 1, 0, tzinfo=UTC)) == seed_marker(datetime(2026, 12, 6, 23, 0, tzinfo=UTC))


def test_a_reopened_demo_moves_to_the_new_day(tmp_path):
    config = Config()
    config.settings.auto_refresh = False
    monday = datetime(2026, 11, 30, 0, 1, tzinfo=UTC)
    tuesday = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
    engine = open_engine(config, tmp_path / "data", demo=True, clock=lambda: monday)
    engine.close()
    engine = open_engine(config, tmp_path / "data", demo=True, clock=lambda: tuesday)
    try:
        momentum = engine.momentum(DEMO_FOLLOWS[0])
        assert momentum.weeks[-1].start == monday.date()
        assert momentum.weeks[-1].count > 0
        assert engine.pref("demo_seed") == seed_marker(tuesday)
    finally:
        engine.close()
