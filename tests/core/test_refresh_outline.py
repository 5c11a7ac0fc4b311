"""A refresh whose library is not loaded (the command line's) stores through
the cache's outline (core/cache_outline.py) and leaves on disk exactly what
the same refresh with the library loaded leaves: papers fetched again merged
into their week, each paper once, each topic's tags exact."""

from __future__ import annotations

from datetime import datetime, timedelta

import orjson
from werkzeug import Response

from feedtui.model import UTC, TopicDefinition
from feedtui.store.codec import CardRow

from tests.atom import Entry, api_feed
from tests.core.test_refresh_late_announcements import open_engine

MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
FIRST = [
    Entry("2611.00001", title="A widget", summary="Widgets.", published="2026-11-19T10:00:00Z"),
    Entry("2611.00002", title="A gadget", summary="Gadgets.", published="2026-11-19T11:00:00Z"),
    Entry("2611.00003", title="A third widget", summary="Widgets again.", published="2026-11-20T11:00:00Z"),
]
LATER = [
    Entry("2611.00001", title="A widget, revised", summary="Widgets, corrected.", published="2026-11-19T10:00:00Z",
          updated="2026-11-23T20:00:00Z", version=2),
    FIRST[1],
    FIRST[2],
    Entry("2611.00004", title="A fourth widget", summary="Widgets once more.", published="2026-11-23T08:00:00Z"),
]


async def refreshed_twice(root, server, *, library_loaded: bool) -> dict:
    """The cache's files (papers, cards and tags) after two refreshes."""
    clock = [MONDAY]
    listed = {MONDAY.date(): FIRST, (MONDAY + timedelta(days=1)).date(): LATER}
    server.clear()
    server.expect_request("/api/query").respond_with_handler(
        lambda request: Response(api_feed(listed[clock[0].date()]), content_type="application/atom+xml")
    )
    engine = open_engine(root, lambda: clock[0])
    engine.settings.arxiv.api_url = server.url_for("/api/query")
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.add_topic("Gadgets", TopicDefinition(query="abs:gadget"))
    engine.follow("Widgets")
    engine.follow("Gadgets")
    if library_loaded:
        engine.load_library()
    assert (await engine.refresh()).new_papers == 3
    engine.close()

    clock[0] = MONDAY + timedelta(days=1)
    engine = open_engine(root, lambda: clock[0])
    engine.settings.arxiv.api_url = server.url_for("/api/query")
    if library_loaded:
        engine.load_library()
    report = await engine.refresh()
    assert report.ok and report.new_papers == 1 and report.updated_papers >= 1
    assert engine.library_loaded is library_loaded
    engine.close()
    cache = root / "data" / "cache"
    seen_at = CardRow._fields.index("first_seen")
    files = {}
    for folder, table in (("papers", "papers"), ("index", "cards")):
        for path in sorted((cache / folder).glob("*.json")):
            files[f"{folder}/{path.name}"] = {
                pid: {k: v for k, v in doc.items() if k != "first_seen"} if isinstance(doc, dict) else doc[:seen_at] + doc[seen_at + 1 :]
                for pid, doc in orjson.loads(path.read_bytes())[table].items()
            }
    tags = orjson.loads((cache / "tags.json").read_bytes())["topics"]
    files["tags"] = {name: doc["ids"] for name, doc in tags.items() if name in ("Widgets", "Gadgets")}
    return files


async def test_a_refresh_without_the_library_stores_what_one_with_it_does(tmp_path, httpserver):
    without = await refreshed_twice(tmp_path / "without", httpserver, library_loaded=False)
    with_library = await refreshed_twice(tmp_path / "with", httpserver, library_loaded=True)
    assert without == with_library
    assert without["tags"] == {"Widgets": ["2611.00001", "2611.00003", "2611.00004"], "Gadgets": ["2611.00002"]}
    weeks = {pid: name for name, docs in without.items() if name.startswith("papers/") for pid in docs}
    assert len(weeks) == 4
    assert sum(len(docs) for name, docs in without.items() if name.startswith("index/")) == 4


async def test_a_refresh_without_the_library_is_pruned_to_the_cache_limit(tmp_path, httpserver):
    httpserver.expect_request("/api/query").respond_with_handler(
        lambda request: Response(api_feed(LATER), content_type="application/atom+xml")
    )
    engine = open_engine(tmp_path, lambda: MONDAY)
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.settings.cache_limit = 3
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.follow("Widgets")
    assert (await engine.refresh()).new_papers == 4
    assert not engine.library_loaded
    assert engine.after_refresh() == 1
    assert not engine.library_loaded  # loaded only to prune: let go, read again when asked
    assert len(engine.library) == 3
    # Within the limit, nothing stale: the next refresh's upkeep loads nothing.
    engine.close()
    again = open_engine(tmp_path, lambda: MONDAY)
    again.settings.arxiv.api_url = httpserver.url_for("/api/query")
    again.settings.cache_limit = 10
    await again.refresh(force=True)
    assert again.after_refresh() == 0 and not again.library_loaded
    again.close()
