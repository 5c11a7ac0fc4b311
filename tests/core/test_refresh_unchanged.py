"""A refresh where every feed answers 304 saves what the sources said and
leaves the paper library unloaded (at 40,000 papers loading it costs more
than the whole refresh); a refresh that stores papers still prunes; an item
fetched again unchanged is not updated, even one without a date."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.cli import main
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition, utcnow
from tests.factories import make_paper

ETAG = '"invented-1"'


def feed(count: int) -> bytes:
    now = utcnow()
    items = "".join(
        f"""<item><title>Unchanged paper {n}</title><guid>urn:invented:unchanged-{n}</guid>
        <link>https://papers.example.org/unchanged-{n}</link>
        <pubDate>{format_datetime(now - timedelta(days=n + 1))}</pubDate></item>"""
        for n in range(count)
    )
    return f"<?xml version='1.0'?><rss version='2.0'><channel><title>Invented</title>{items}</channel></rss>".encode()


def serve(httpserver, count: int) -> str:
    body = feed(count)

    def answer(request):
        if request.headers.get("If-None-Match") == ETAG:
            return Response(status=304, headers={"ETag": ETAG})
        return Response(body, headers={"ETag": ETAG, "Content-Type": "application/rss+xml"})

    httpserver.expect_request("/feed.xml").respond_with_handler(answer)
    return httpserver.url_for("/feed.xml")


def engine_at(data) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    return Engine(config, data, background_writes=False)


async def test_all_304_saves_answers_without_loading_the_library(tmp_path, httpserver):
    url = serve(httpserver, 3)
    first = engine_at(tmp_path / "data")
    first.add_topic("Unchanged", TopicDefinition(feeds=(url,)))
    first.follow("Unchanged")
    assert (await first.refresh()).new_papers == 3
    first.close()

    second = engine_at(tmp_path / "data")
    report = await second.refresh()
    assert [(s.ok, s.not_modified) for s in report.sources] == [(True, True)]
    assert not second.library_loaded
    assert len(second.topic_positions("Unchanged")) == 3  # loads it now, whole
    second.close()

    third = engine_at(tmp_path / "data")
    assert (await third.refresh()).sources[0].not_modified  # the validators were kept
    third.close()
    assert [r.headers.get("If-None-Match") for r, _ in httpserver.log] == [None, ETAG, ETAG]


def test_finding_starred_papers_the_cache_lacks_loads_the_library_only_when_the_cache_or_stars_changed(tmp_path):
    """A refresh asks which starred arXiv papers the cache lacks (to fetch
    them by id); the answer is kept, so a refresh of 304s still loads nothing."""
    data = tmp_path / "data"

    def missing() -> tuple[list[str], bool]:
        engine = engine_at(data)
        try:
            return engine.starred_arxiv_not_cached(), engine.library_loaded
        finally:
            engine.close()

    first = engine_at(data)
    first.cache.store([make_paper("2611.00001")], {}, utcnow())
    first.state.star(["2611.00001", "2611.00002", "web:0123456789abcdef"])
    first.state.flush()
    first.close()
    assert missing() == (["2611.00002"], True)
    assert missing() == (["2611.00002"], False)
    unstarring = engine_at(data)
    unstarring.state.unstar(["2611.00002"])
    unstarring.state.flush()
    unstarring.close()
    assert missing() == ([], True)  # the stars changed
    assert missing() == ([], False)
    starring = engine_at(data)
    starring.state.star(["2611.00003"])
    starring.state.flush()
    starring.close()
    assert missing() == (["2611.00003"], True)
    storing = engine_at(data)
    storing.cache.store([make_paper("2611.00003")], {}, utcnow())
    storing.close()
    assert missing() == ([], True)  # the cache changed, the stars did not
    assert missing() == ([], False)


async def test_a_refresh_that_stores_papers_leaves_the_starred_check_up_to_date(tmp_path, httpserver):
    """Storing makes a new cache generation, which made the next refresh of
    304s load the library to look at the stars again."""
    url = serve(httpserver, 3)
    empty = "<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'><title>arXiv</title></feed>"
    httpserver.expect_request("/api/query").respond_with_data(empty, content_type="application/atom+xml")
    first = engine_at(tmp_path / "data")
    first.settings.arxiv.api_url = httpserver.url_for("/api/query")
    first.add_topic("Unchanged", TopicDefinition(feeds=(url,)))
    first.follow("Unchanged")
    first.state.star(["2611.00009"])  # not in any feed, and arXiv has no record of it
    assert (await first.refresh()).new_papers == 3
    first.close()

    second = engine_at(tmp_path / "data")
    second.settings.arxiv.api_url = httpserver.url_for("/api/query")
    report = await second.refresh()
    assert [(s.ok, s.not_modified) for s in report.sources if s.url == url] == [(True, True)]
    assert not second.library_loaded
    assert second.starred_arxiv_not_cached() == ["2611.00009"]
    second.close()


def test_the_cli_prunes_after_storing_papers(tmp_path, httpserver, capsys):
    url = serve(httpserver, 5)
    config = tmp_path / "config.toml"
    config.write_text("[general]\nauto_refresh = false\ncache_limit = 3\n")
    common = ["--data-dir", str(tmp_path / "data"), "--config", str(config)]
    assert main([*common, "topic", "add", "Unchanged", "--feed", url]) == 0
    assert main([*common, "follow", "Unchanged"]) == 0
    assert main([*common, "refresh"]) == 0
    assert "pruned the 2 oldest unstarred papers (cache_limit is 3)" in capsys.readouterr().err
    assert main([*common, "refresh"]) == 0  # all 304: nothing loaded, nothing to prune
    assert "pruned" not in capsys.readouterr().err
    engine = engine_at(tmp_path / "data")
    assert len(engine.topic_positions("Unchanged")) == 3
    engine.close()


UNDATED = b"""<?xml version='1.0'?><rss version='2.0'><channel><title>Invented</title>
<item><title>A post without a date</title><guid>urn:invented:undated-1</guid>
<link>https://blog.example.org/undated-1</link><description>Same text every time.</description></item>
</channel></rss>"""


async def test_an_item_without_a_date_keeps_its_first_seen_date_and_is_not_updated(tmp_path, httpserver):
    httpserver.expect_request("/undated.xml").respond_with_data(UNDATED, content_type="application/rss+xml")
    url = httpserver.url_for("/undated.xml")
    first_seen = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    engine = engine_at(tmp_path / "data")
    engine.add_topic("Undated", TopicDefinition(feeds=(url,)))
    assert (await engine.refresh(["Undated"], now=first_seen)).new_papers == 1
    for later in (first_seen + timedelta(hours=3), first_seen + timedelta(days=2)):
        report = await engine.refresh(["Undated"], force=True, now=later)
        assert (report.new_papers, report.updated_papers) == (0, 0)
    engine.close()

    reopened = engine_at(tmp_path / "data")
    (paper,) = reopened.papers(reopened.topic_positions("Undated"))
    assert (paper.published, paper.updated, paper.date_estimated) == (first_seen, first_seen, True)
    reopened.close()
