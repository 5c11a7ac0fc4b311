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
