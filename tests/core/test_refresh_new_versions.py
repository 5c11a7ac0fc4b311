"""A new version of a paper (2611.00001v2) is the same paper: the refresh that
brings it keeps its read mark and its star, in this process and after a restart."""

from __future__ import annotations

from datetime import datetime, timedelta

from werkzeug import Response

from feedtui.model import UTC, TopicDefinition

from tests.atom import Entry, api_feed
from tests.core.test_refresh_late_announcements import open_engine

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FIRST = [
    Entry("2611.00001", title="A widget", summary="Widgets.", published="2026-11-19T10:00:00Z"),
    Entry("2611.00002", title="A second widget", summary="More widgets.", published="2026-11-19T11:00:00Z"),
    Entry("2611.00003", title="A third widget", summary="Widgets again.", published="2026-11-20T11:00:00Z"),
]
REVISED = [
    Entry("2611.00001", title="A widget, revised", summary="Widgets, corrected.", published="2026-11-19T10:00:00Z",
          updated="2026-11-23T20:00:00Z", version=2),
    Entry("2611.00002", title="A second widget, revised", summary="More widgets, corrected.", published="2026-11-19T11:00:00Z",
          updated="2026-11-23T21:00:00Z", version=2),
    FIRST[2],
]


async def test_a_read_or_starred_paper_stays_so_when_its_new_version_comes(tmp_path, httpserver):
    clock = [MONDAY]
    listed = {MONDAY.date(): FIRST, (MONDAY + timedelta(days=1)).date(): REVISED}
    httpserver.expect_request("/api/query").respond_with_handler(
        lambda request: Response(api_feed(listed[clock[0].date()]), content_type="application/atom+xml")
    )
    engine = open_engine(tmp_path, lambda: clock[0])
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.follow("Widgets")
    engine.load_library()
    assert (await engine.refresh()).new_papers == 3
    engine.mark_read(["2611.00001"])
    engine.star(["2611.00002"])
    assert engine.library.unread_count("Widgets") == 2

    clock[0] = MONDAY + timedelta(days=1)
    tuesday = await engine.refresh()
    assert tuesday.ok and tuesday.new_papers == 0
    papers = {p.id: p for p in engine.papers(engine.topic_positions("Widgets"))}
    assert {pid: (p.version, p.title) for pid, p in papers.items()} == {
        "2611.00001": (2, "A widget, revised"),
        "2611.00002": (2, "A second widget, revised"),
        "2611.00003": (1, "A third widget"),
    }
    assert engine.state.is_read("2611.00001") and not engine.state.is_read("2611.00002")
    assert engine.state.is_starred("2611.00002") and not engine.state.is_starred("2611.00001")
    assert engine.library.unread_count("Widgets") == 2
    engine.close()

    again = open_engine(tmp_path, lambda: clock[0])
    again.load_library()
    assert again.state.is_read("2611.00001") and again.state.is_starred("2611.00002")
    assert again.library.unread_count("Widgets") == 2
    assert [p.version for p in again.papers(again.topic_positions("Widgets")) if p.id == "2611.00001"] == [2]
    again.close()
