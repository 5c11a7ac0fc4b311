"""A refresh where every feed answers 304 saves what the sources said and
leaves the paper library unloaded (at 40,000 papers loading it costs more
than the whole refresh); a refresh that stores papers still prunes."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.cli import main
from feedtui.config import Config
from feedtui.engine import Engine
from feedtui.model import TopicDefinition, utcnow

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
