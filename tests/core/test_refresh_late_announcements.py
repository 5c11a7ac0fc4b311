"""arXiv lists a query's papers newest submission first and announces them
days after they were submitted: a refresh reads back far enough before its
last answer to find the papers announced since."""

from __future__ import annotations

from datetime import datetime, timedelta

from werkzeug import Response

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition

from tests.atom import Entry, api_feed


def open_engine(tmp_path, clock) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    config.settings.arxiv.min_interval = 0.01
    return Engine(config, tmp_path / "data", background_writes=False, clock=clock)


async def test_a_paper_announced_days_after_it_was_submitted_is_fetched(tmp_path, httpserver):
    """arXiv lists papers by submission and announces them later: a Friday
    afternoon's on Monday evening. A refresh on Monday morning cannot see them;
    the one on Tuesday must, although they are older than Monday's answer."""
    monday = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    friday_afternoon = "2026-11-20T19:30:00Z"
    seen_monday = Entry("2611.00001", title="A widget", summary="Widgets.", published="2026-11-19T10:00:00Z")
    announced_late = Entry("2611.00002", title="A late widget", summary="Widgets.", published=friday_afternoon)
    clock = [monday]
    # What the API lists on each day (the new-paper count's request gets it too).
    listed = {monday.date(): [seen_monday], (monday + timedelta(days=1)).date(): [announced_late, seen_monday]}
    httpserver.expect_request("/api/query").respond_with_handler(
        lambda request: Response(api_feed(listed[clock[0].date()]), content_type="application/atom+xml")
    )
    engine = open_engine(tmp_path, clock=lambda: clock[0])
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.follow("Widgets")
    engine.load_library()
    assert (await engine.refresh()).new_papers == 1
    clock[0] = monday + timedelta(days=1)
    tuesday = await engine.refresh()
    assert tuesday.ok and tuesday.new_papers == 1
    assert engine.library.unread_count("Widgets") == 2
    engine.close()
