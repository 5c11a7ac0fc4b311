"""Items of web feeds through a whole refresh: their links, and edits to them."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.config import Config
from feedtui.engine import Engine
from feedtui.model import TopicDefinition, utcnow

from tests.arxiv_search import LoopbackArxiv
from tests.atom import Entry


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


async def test_posts_linking_arxivs_html_page_or_doi_are_that_paper(tmp_path, httpserver):
    """Links to arxiv.org/html/ID and to the DOI 10.48550/arXiv.ID made posts
    of their own beside the paper, with their own read marks and momentum."""
    now = utcnow()
    arxiv_id = f"{now:%y%m}.10002"
    submitted = f"{now - timedelta(hours=2):%Y-%m-%dT%H:%M:%SZ}"
    LoopbackArxiv([Entry(arxiv_id, title="Alpha nets", summary="A carrier.", published=submitted)]).install(httpserver)
    links = [
        f"https://arxiv.org/abs/{arxiv_id}",
        f"https://arxiv.org/html/{arxiv_id}v1",
        f"https://doi.org/10.48550/arXiv.{arxiv_id}",
        f"https://dx.doi.org/10.48550/ARXIV.{arxiv_id}",
        f"https://alphaxiv.org/abs/{arxiv_id}",
    ]
    when = format_datetime(now - timedelta(hours=1))
    items = "".join(
        f"<item><title>Post {n}</title><link>{link}</link><pubDate>{when}</pubDate></item>"
        for n, link in enumerate(links)
    )
    httpserver.expect_request("/links.xml").respond_with_data(rss(items), content_type="application/rss+xml")
    engine = engine_at(tmp_path / "data")
    engine.settings.arxiv.api_url = httpserver.url_for("/api/query")
    engine.settings.arxiv.min_interval = 0.0
    engine.add_topic("Links", TopicDefinition(feeds=(httpserver.url_for("/links.xml"),)))
    engine.add_topic("Carriers", TopicDefinition(query="abs:carrier"))
    engine.follow("Links")
    engine.follow("Carriers")
    assert (await engine.refresh()).ok
    papers = {p.id: p for p in engine.papers(engine.topic_positions("Links"))}
    momentum = engine.momentum("Links")
    engine.close()
    # One paper, arXiv's own record of it; the third party's page stays a post of its own.
    [mirror] = [p for i, p in papers.items() if i != arxiv_id]
    assert len(papers) == 2 and papers[arxiv_id].title == "Alpha nets"
    assert mirror.id.startswith("web:") and mirror.abs_url == links[-1]
    assert momentum.last4 == 2
