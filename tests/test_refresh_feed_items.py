"""Items of web feeds through a whole refresh: their links, and edits to them."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.config import Config
from feedtui.engine import Engine
from feedtui.model import TopicDefinition, utcnow


def engine_at(data) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    return Engine(config, data, background_writes=False)


def rss(items: str) -> bytes:
    return f"<?xml version='1.0'?><rss version='2.0'><channel><title>Invented</title>{items}</channel></rss>".encode()


async def test_relative_links_are_resolved_against_the_url_the_feed_moved_to(tmp_path, httpserver):
    when = format_datetime(utcnow() - timedelta(days=1))
    body = rss(
        f"""<item><title>From the root</title><guid>urn:invented:rel-1</guid><link>/p/rel1</link><pubDate>{when}</pubDate></item>
        <item><title>Beside the feed</title><guid>urn:invented:rel-2</guid><link>posts/rel2.html</link><pubDate>{when}</pubDate></item>"""
    )
    httpserver.expect_request("/old-feed").respond_with_response(Response(status=301, headers={"Location": "/blog/feed.xml"}))
    httpserver.expect_request("/blog/feed.xml").respond_with_data(body, content_type="application/rss+xml")
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Lab blog", TopicDefinition(feeds=(httpserver.url_for("/old-feed"),)))
    engine.follow("Lab blog")
    assert (await engine.refresh()).new_papers == 2
    links = {p.title: p.abs_url for p in engine.papers(engine.topic_positions("Lab blog"))}
    engine.close()
    assert links == {
        "From the root": httpserver.url_for("/p/rel1"),
        "Beside the feed": httpserver.url_for("/blog/posts/rel2.html"),
    }


def dated_items(titles: list[str], abstract: str) -> bytes:
    when = format_datetime(utcnow().replace(microsecond=0) - timedelta(days=2))
    return rss(
        "".join(
            f"""<item><title>{title}</title><guid>urn:invented:edited-{n}</guid>
            <link>https://blog.example.org/edited-{n}</link><description>{abstract}</description>
            <pubDate>{when}</pubDate></item>"""
            for n, title in enumerate(titles)
        )
    )


async def test_an_item_edited_under_the_same_guid_and_date_is_updated(tmp_path, httpserver):
    """Blogs and journals correct titles and abstracts without a new date: the
    stored text was kept for ever, even by refresh --force."""
    served = {"body": dated_items(["Sparse attention", "Kept as it was"], "First text.")}
    httpserver.expect_request("/feed.xml").respond_with_handler(
        lambda request: Response(served["body"], content_type="application/rss+xml")
    )
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Blog", TopicDefinition(feeds=(httpserver.url_for("/feed.xml"),)))
    assert (await engine.refresh(["Blog"])).new_papers == 2
    served["body"] = dated_items(["Sparse attention, corrected", "Kept as it was"], "First text.")
    report = await engine.refresh(["Blog"], force=True)
    assert (report.new_papers, report.updated_papers) == (0, 1)
    served["body"] = dated_items(["Sparse attention, corrected", "Kept as it was"], "Second text.")
    report = await engine.refresh(["Blog"], force=True)
    assert (report.new_papers, report.updated_papers) == (0, 2)
    engine.close()

    reopened = engine_at(tmp_path / "data")
    papers = reopened.papers(reopened.topic_positions("Blog"))
    assert sorted((p.title, p.abstract) for p in papers) == [
        ("Kept as it was", "Second text."),
        ("Sparse attention, corrected", "Second text."),
    ]
    reopened.close()


async def test_an_unchanged_dated_item_fetched_in_full_again_is_not_updated_or_rewritten(tmp_path, httpserver):
    httpserver.expect_request("/feed.xml").respond_with_data(
        dated_items(["One", "Two", "Three"], "Text."), content_type="application/rss+xml"
    )
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Blog", TopicDefinition(feeds=(httpserver.url_for("/feed.xml"),)))
    assert (await engine.refresh(["Blog"])).new_papers == 3
    cache = tmp_path / "data" / "cache"
    written = {path: path.stat().st_mtime_ns for path in cache.rglob("*") if path.is_file()}
    for _ in range(2):
        report = await engine.refresh(["Blog"], force=True)
        assert (report.new_papers, report.updated_papers) == (0, 0)
    engine.close()
    assert {path: path.stat().st_mtime_ns for path in written} == written
