"""A refresh leaves every week it wrote with a current match file, whose rows
are what the stored documents give, reusing the parse workers' normalised
texts for papers stored exactly as parsed; a topic added afterwards is then
tagged from those rows as it would be from the documents."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from werkzeug import Response

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition, utcnow
from feedtui.store.cache import PaperCache
from feedtui.store.match import read_match_rows
from feedtui.topics.tagging import MATCH_ROWS_VERSION, MatchRows, build_matchers, tag_documents

WORDS = "sparse router lattice kernel scheduler tidal widget gloam marrow skein".split()


def rss(prefix: str, count: int, shared: int = 0) -> bytes:
    """`count` items (about 600 bytes each: with 200, over the size that goes
    to the worker processes), the first `shared` with ids another feed also has."""
    now = utcnow()
    items = []
    for n in range(count):
        guid = f"https://papers.example.org/shared/{n}" if n < shared else f"https://papers.example.org/{prefix}/{n}"
        words = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(60))
        items.append(
            f"""<item><title>{prefix.title()} {WORDS[n % len(WORDS)]} &amp; Ünïcode {n}</title><guid>{guid}</guid>
            <link>{guid}</link><description>An invented abstract: {words}.</description>
            <pubDate>{format_datetime(now - timedelta(days=n % 40 + 1))}</pubDate></item>"""
        )
    channel = f"<channel><title>Invented {prefix}</title>{''.join(items)}</channel>"
    return f"<?xml version='1.0'?><rss version='2.0'>{channel}</rss>".encode()


def serve(httpserver, path: str, body: bytes) -> str:
    httpserver.expect_request(path).respond_with_handler(
        lambda request: Response(body, headers={"Content-Type": "application/rss+xml"})
    )
    return httpserver.url_for(path)


async def test_a_refresh_writes_current_match_files_from_the_workers_texts(tmp_path, httpserver, monkeypatch):
    urls = [serve(httpserver, f"/{name}.xml", rss(name, 200, shared=3)) for name in ("alpha", "beta")]
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data", background_writes=False)
    engine.add_topic("Both feeds", TopicDefinition(feeds=tuple(urls)))
    engine.follow("Both feeds")

    # Per stored paper: were its texts the ones the parse worker sent?
    from_workers: dict[str, bool] = {}
    original_store = PaperCache.store

    def store(self, papers, known, now=None, **kwargs):
        prepared = dict(kwargs["match_rows"].prepared)
        outcome = original_store(self, papers, known, now, **kwargs)
        for pid, paper in outcome.papers.items():
            from_workers[pid] = pid in prepared and prepared[pid][0] is paper
        assert kwargs["match_rows"].prepared == {}, "each let go of once used"
        return outcome

    monkeypatch.setattr(PaperCache, "store", store)
    report = await engine.refresh()
    assert report.new_papers == 397

    cache = engine.cache
    weeks = cache.shards()
    assert len(weeks) >= 5
    documents: dict[str, dict] = {}
    for week in weeks:
        week_documents = cache.read_shard_documents(week)
        rows = read_match_rows(cache.papers_dir / f"{week}.json", MATCH_ROWS_VERSION)
        assert rows == {pid: MatchRows().of_document(pid, doc) for pid, doc in week_documents.items()}, week
        documents.update(week_documents)
    assert len(documents) == 397

    # The texts of the 394 papers only one feed had came from the parse
    # workers; the 3 in both feeds were merged, so normalised again.
    assert len(from_workers) == 397
    assert sum(from_workers.values()) == 394

    engine.state.put_topic("Lattice kernels", {"query": "ti:lattice OR ti:kernel"})
    engine.reload_topics()
    found = engine.compute_tags(["Lattice kernels"])
    from_documents = tag_documents(documents.items(), build_matchers([engine.registry.entries["Lattice kernels"]]))
    assert found == from_documents
    assert 50 < len(found["Lattice kernels"]) < 397
    engine.close()
