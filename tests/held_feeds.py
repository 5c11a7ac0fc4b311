"""Two feeds on a threaded loopback server: one answered at once, the other
held until the test lets it go (or 10 s pass). A refresh of both is a long
refresh with something to show before its end. Likewise a paged arXiv API
query whose last page is held: the pages before it are something to show."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from feedtui.model import utcnow
from tests.atom import Entry, api_feed


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


@dataclass
class HeldApi:
    url: str
    release: threading.Event = field(default_factory=threading.Event)
    asked: threading.Event = field(default_factory=threading.Event)
    starts: list[int] = field(default_factory=list)
    # The HTTP status the held pages are answered with.
    held_status: int = 200
    # Requests answered 429 (see retry_after).
    throttled: int = 0


@contextmanager
def held_api(count: int, held_start: int, arrivals: int = 0, *, retry_after: str = "") -> Iterator[HeldApi]:
    """An arXiv API serving `count` invented papers, an hour apart from now
    back, newest first; the page from `held_start` on waits for `release`.
    `arrivals` papers are submitted meanwhile: from `held_start` on, every
    paper has moved down that many places (the newcomers wait for the next refresh).
    With `retry_after`, the first request is answered 429 with that Retry-After."""
    now = utcnow()
    entries = [
        Entry(id=f"2611.{20000 + n:05d}", title=f"Invented paged study {n}", published=stamp(now - timedelta(hours=n + 1)))
        for n in range(count)
    ]
    server = HTTPServer(threaded=True)
    server.start()
    api = HeldApi(server.url_for("/api/query"))

    def page(request: Request) -> Response:
        if retry_after and not api.throttled:
            api.throttled += 1
            return Response(status=429, headers={"Retry-After": retry_after})
        start, size = int(request.args["start"]), int(request.args["max_results"])
        api.starts.append(start)
        moved = 0
        if start >= held_start:
            api.asked.set()
            api.release.wait(10)
            moved = arrivals
        body = api_feed(entries[start - moved : start - moved + size], total=count + moved, start=start)
        status = api.held_status if start >= held_start else 200
        return Response(body, status=status, content_type="application/atom+xml")

    server.expect_request("/api/query").respond_with_handler(page)
    try:
        yield api
    finally:
        api.release.set()
        server.clear()
        server.stop()


def stamp(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


SRC = Path(__file__).resolve().parents[1] / "src"


def paged_config(directory: Path, api_url: str) -> Path:
    """A config file whose one topic, "Paged", is an arXiv query read 10 papers a page from `api_url`."""
    config = directory / "config.toml"
    config.write_text(
        f'[arxiv]\napi_url = "{api_url}"\nmin_interval = 0.01\npage_size = 10\n\n'
        '[[topic]]\nname = "Paged"\nquery = "ti:paged"\n'
    )
    return config


def paged_refresh_process(directory: Path, api_url: str) -> tuple[list[str], dict[str, str], Path]:
    """`feedtui refresh Paged` (see paged_config) as a process of its own on
    this checkout's code: (argv, environment, data directory)."""
    data = directory / "data"
    config = paged_config(directory, api_url)
    argv = [sys.executable, "-m", "feedtui", "--data-dir", str(data), "--config", str(config), "refresh", "Paged"]
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}, "PYTHONPATH": str(SRC)}
    return argv, env, data


def generated_feeds(folder: Path, feeds: int, entries: int, seed: int, weeks: int) -> Path:
    """bench/feeds.py's feeds (feed-000.xml …), dated up to today, written to `folder`."""
    from bench.feeds import FeedSetSpec, feed_file_name, render_feed

    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    spec = FeedSetSpec(feeds, entries, seed, now, weeks=weeks)
    for index in range(feeds):
        (folder / feed_file_name(index)).write_bytes(render_feed(spec, index))
    return folder
