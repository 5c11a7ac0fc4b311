"""Items of web feeds through a whole refresh: their links, and edits to them."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.config import Config
from feedtui.core.engine import Engine
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


async def test_a_guid_in_a_second_feed_adds_that_feed_but_cannot_rewrite_the_post(tmp_path, httpserver):
    """The same guid in two feeds is one post; the feed it was first seen in
    keeps its title, text and link, whatever date the other claims."""
    first = format_datetime(utcnow() - timedelta(days=2))
    later = format_datetime(utcnow() - timedelta(hours=1))
    httpserver.expect_request("/a.xml").respond_with_data(
        rss(f"<item><title>Normal first post</title><guid>urn:invented:shared-1</guid><link>{httpserver.url_for('/post/1')}</link>"
            f"<description>Ours.</description><pubDate>{first}</pubDate></item>"),
        content_type="application/rss+xml",
    )
    httpserver.expect_request("/b.xml").respond_with_data(
        rss(f"<item><title>Replaced title</title><guid>urn:invented:shared-1</guid><link>http://elsewhere.invalid/x</link>"
            f"<description>Theirs.</description><pubDate>{later}</pubDate></item>"),
        content_type="application/rss+xml",
    )
    engine = engine_at(tmp_path / "data")
    engine.add_topic("A", TopicDefinition(feeds=(httpserver.url_for("/a.xml"),)))
    engine.add_topic("B", TopicDefinition(feeds=(httpserver.url_for("/b.xml"),)))
    engine.follow("A")
    assert (await engine.refresh()).new_papers == 1
    engine.follow("B")
    report = await engine.refresh(["B"])
    [in_a] = engine.papers(engine.topic_positions("A"))
    [in_b] = engine.papers(engine.topic_positions("B"))
    engine.close()
    assert report.ok and (report.new_papers, report.updated_papers) == (0, 1)  # a source added
    assert in_a.id == in_b.id
    assert (in_a.title, in_a.abstract, in_a.abs_url) == ("Normal first post", "Ours.", httpserver.url_for("/post/1"))


async def test_an_item_corrected_without_a_new_date_shows_the_correction(tmp_path, httpserver):
    when = format_datetime(utcnow() - timedelta(days=1))

    def item(title: str, text: str) -> bytes:
        return rss(f"<item><title>{title}</title><guid>urn:invented:fix-1</guid><description>{text}</description><pubDate>{when}</pubDate></item>")

    httpserver.expect_ordered_request("/f.xml").respond_with_data(item("Title with a tpyo", "Old."), content_type="application/rss+xml")
    httpserver.expect_ordered_request("/f.xml").respond_with_data(item("Title with a typo fixed", "New."), content_type="application/rss+xml")
    httpserver.expect_ordered_request("/f.xml").respond_with_data(item("Title with a typo fixed", "New."), content_type="application/rss+xml")
    engine = engine_at(tmp_path / "data")
    engine.add_topic("F", TopicDefinition(feeds=(httpserver.url_for("/f.xml"),)))
    engine.follow("F")
    assert (await engine.refresh()).new_papers == 1
    corrected = await engine.refresh(force=True)
    again = await engine.refresh(force=True)
    [paper] = engine.papers(engine.topic_positions("F"))
    engine.close()
    assert (corrected.new_papers, corrected.updated_papers) == (0, 1)
    assert (again.new_papers, again.updated_papers) == (0, 0)
    assert (paper.title, paper.abstract) == ("Title with a typo fixed", "New.")


async def test_an_entry_cut_off_in_a_broken_feed_is_replaced_once_the_feed_is_whole(tmp_path, httpserver):
    """Read leniently, a feed cut off midway gives its last entry without a date
    (so dated at the fetch) and with part of its title; the whole feed's entry,
    with its real earlier date, replaces it."""
    real = f"{utcnow() - timedelta(days=3):%Y-%m-%dT%H:%M:%SZ}"
    head = "<?xml version='1.0' encoding='utf-8'?><feed xmlns='http://www.w3.org/2005/Atom'><title>Invented</title>"
    whole = f"{head}<entry><id>urn:invented:cut-1</id><title>Broken then mended</title><updated>{real}</updated><summary>All of it.</summary></entry></feed>"
    httpserver.expect_ordered_request("/cut.xml").respond_with_data(f"{head}<entry><id>urn:invented:cut-1</id><title>Broken th", content_type="application/atom+xml")
    httpserver.expect_ordered_request("/cut.xml").respond_with_data(whole, content_type="application/atom+xml")
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Cut", TopicDefinition(feeds=(httpserver.url_for("/cut.xml"),)))
    engine.follow("Cut")
    assert (await engine.refresh()).new_papers == 1
    [partial] = engine.papers(engine.topic_positions("Cut"))
    mended = await engine.refresh(force=True)
    [paper] = engine.papers(engine.topic_positions("Cut"))
    engine.close()
    assert partial.date_estimated and partial.abstract == ""
    assert mended.updated_papers == 1
    assert (paper.title, paper.abstract, paper.date_estimated) == ("Broken then mended", "All of it.", False)
    assert paper.published.strftime("%Y-%m-%dT%H:%M:%SZ") == real
