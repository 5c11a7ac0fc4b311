from __future__ import annotations

from feedtui.store.cache import PaperCache
from feedtui.store.codec import C_PUBLISHED, C_SHARD, C_TITLE, C_VERSION
from feedtui.store.lock import DataDirLock

from tests.factories import make_paper


def open_cache(data_dir) -> PaperCache:
    return PaperCache(data_dir / "cache", DataDirLock(data_dir))


def test_store_then_load_index_and_papers(data_dir):
    cache = open_cache(data_dir)
    outcome = cache.store(
        [
            make_paper("2609.00001", published="2026-09-28T00:00:00"),
            make_paper("2609.00002", published="2026-10-04T23:59:59", title="Second"),
            make_paper("2610.00003", published="2026-10-05T00:00:00"),
        ],
        known={},
    )
    assert sorted(outcome.new) == ["2609.00001", "2609.00002", "2610.00003"]
    assert cache.shards() == ["2026-09-28", "2026-10-05"]
    rows = open_cache(data_dir).load_index().rows
    assert rows["2609.00002"][C_SHARD] == "2026-09-28"
    assert rows["2609.00002"][C_TITLE] == "Second"
    papers = cache.get_papers({"2609.00002": "2026-09-28"})
    assert papers["2609.00002"].published.isoformat() == "2026-10-04T23:59:59+00:00"


def test_new_version_updates_the_paper_and_keeps_first_seen(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", version=1)], known={})
    known = cache.load_index().rows
    outcome = cache.store(
        [make_paper("2609.00001", version=2, title="Revised", updated="2026-10-10T00:00:00")], known=known
    )
    assert outcome.updated == ["2609.00001"] and outcome.new == []
    rows = cache.load_index().rows
    assert rows["2609.00001"][C_VERSION] == 2 and rows["2609.00001"][C_TITLE] == "Revised"
    # The same version again changes nothing.
    again = cache.store([make_paper("2609.00001", version=1)], known=rows)
    assert again.new == [] and again.updated == []
    assert cache.load_index().rows["2609.00001"][C_VERSION] == 2


def test_an_earlier_exact_date_moves_the_paper_to_its_week(data_dir):
    cache = open_cache(data_dir)
    estimated = make_paper("2609.00001", version=2, published="2026-09-01T00:00:00", date_estimated=True)
    cache.store([estimated], known={})
    exact = make_paper("2609.00001", version=2, published="2026-09-15T12:00:00")
    cache.store([exact], known=cache.load_index().rows)
    rows = cache.load_index().rows
    assert len(rows) == 1
    assert rows["2609.00001"][C_SHARD] == "2026-09-14"
    assert "2609.00001" not in cache.read_shard_documents("2026-08-31")


def test_two_writers_with_stale_views_merge(data_dir):
    first = open_cache(data_dir)
    second = open_cache(data_dir)
    first.store([make_paper("2609.00001")], known={})
    # The second process never loaded the index: it still merges into the same week.
    second.store([make_paper("2609.00002")], known={})
    second.store([make_paper("2609.00001", version=2)], known={})
    rows = open_cache(data_dir).load_index().rows
    assert sorted(rows) == ["2609.00001", "2609.00002"]
    assert rows["2609.00001"][C_VERSION] == 2


def test_damaged_index_is_rebuilt_from_papers(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001"), make_paper("2609.00002")], known={})
    (data_dir / "cache/index/2026-09-28.json").write_text("{ not json")
    load = open_cache(data_dir).load_index()
    assert sorted(load.rows) == ["2609.00001", "2609.00002"]
    assert "rebuilt" in load.problems[0]


def test_damaged_papers_shard_is_set_aside_and_reported(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001")], known={})
    cache.store([make_paper("2610.00001", published="2026-10-20T00:00:00")], known={})
    (data_dir / "cache/papers/2026-09-28.json").write_bytes(b"\x00garbage")
    (data_dir / "cache/index/2026-09-28.json").write_bytes(b"\x00garbage")
    reopened = open_cache(data_dir)
    load = reopened.load_index()
    assert list(load.rows) == ["2610.00001"]
    assert "set aside" in load.problems[0]
    assert reopened.lost_papers
    assert list((data_dir / "cache/papers").glob("2026-09-28.json.damaged-*"))


def test_published_is_epoch_seconds_in_rows(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", published="2026-09-28T00:00:00")], known={})
    assert cache.load_index().rows["2609.00001"][C_PUBLISHED] == 1790553600
