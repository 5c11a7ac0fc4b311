"""Two feeds on a threaded loopback server: one answered at once, the other
held until the test lets it go (or 10 s pass). A refresh of both is a long
refresh with something to show before its end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from email.utils import format_datetime

from pytest_httpserver import HTTPServer
from werkzeug import Response

from feedtui.model import utcnow


def rss(prefix: str, titles: list[str]) -> bytes:
    now = utcnow()
    items = "".join(
        f"""<item><title>{title}</title><guid>urn:invented:{prefix}-{n}</guid>
        <link>https://papers.example.org/{prefix}-{n}</link>
        <pubDate>{format_datetime(now - timedelta(hours=n + 1))}</pubDate></item>"""
        for n, title in enumerate(titles)
    )
    return f"<?xml version='1.0'?><rss version='2.0'><channel><title>Invented</title>{items}</channel></rss>".encode()


@dataclass
class HeldFeeds:
    prompt_url: str
    held_url: str
    release: threading.Event = field(default_factory=threading.Event)
    asked: threading.Event = field(default_factory=threading.Event)


@contextmanager
def held_feeds(prompt_titles: list[str], held_titles: list[str]) -> Iterator[HeldFeeds]:
    server = HTTPServer(threaded=True)
    server.start()
    feeds = HeldFeeds(server.url_for("/prompt.xml"), server.url_for("/held.xml"))
    prompt_body, held_body = rss("prompt", prompt_titles), rss("held", held_titles)

    def held(request):
        feeds.asked.set()
        feeds.release.wait(10)
        return Response(held_body, content_type="application/rss+xml")

    server.expect_request("/prompt.xml").respond_with_data(prompt_body, content_type="application/rss+xml")
    server.expect_request("/held.xml").respond_with_handler(held)
    try:
        yield feeds
    finally:
        feeds.release.set()
        server.clear()
        server.stop()
