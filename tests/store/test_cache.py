from __future__ import annotations

import os

import pytest

from feedtui.store.cache import PaperCache
from feedtui.store.codec import ABSTRACT_HEAD_CHARS
from feedtui.store.lock import DataDirLock
from feedtui.store.shapes import paper_document_problem

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
    assert rows["2609.00002"].shard == "2026-09-28"
    assert rows["2609.00002"].title == "Second"
    papers = cache.get_papers({"2609.00002": "2026-09-28"})
    assert papers["2609.00002"].published.isoformat() == "2026-10-04T23:59:59+00:00"


def test_a_card_head_cut_from_a_long_abstract_ends_after_a_word_with_an_ellipsis(data_dir):
    words = " ".join(f"word{n:03d}" for n in range(120))  # 959 characters
    short = "A short abstract that fits."
    cache = open_cache(data_dir)
    cache.store(
        [make_paper("2609.00001", abstract=words), make_paper("2609.00002", abstract=short)],
        known={},
    )
    shard = cache.shards()[0]
    head = cache.head(shard, "2609.00001")
    assert head.endswith("…") and len(head) <= ABSTRACT_HEAD_CHARS
    assert words.startswith(head[:-1]) and words[len(head) - 1] == " "  # whole words only
    assert cache.head(shard, "2609.00002") == short


def test_new_version_updates_the_paper_and_keeps_first_seen(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", version=1)], known={})
    known = cache.load_index().rows
    outcome = cache.store(
        [make_paper("2609.00001", version=2, title="Revised", updated="2026-10-10T00:00:00")], known=known
    )
    assert outcome.updated == ["2609.00001"] and outcome.new == []
    rows = cache.load_index().rows
    assert rows["2609.00001"].version == 2 and rows["2609.00001"].title == "Revised"
    # The same version again changes nothing.
    again = cache.store([make_paper("2609.00001", version=1)], known=rows)
    assert again.new == [] and again.updated == []
    assert cache.load_index().rows["2609.00001"].version == 2


def test_an_earlier_exact_date_moves_the_paper_to_its_week(data_dir):
    cache = open_cache(data_dir)
    estimated = make_paper("2609.00001", version=2, published="2026-09-01T00:00:00", date_estimated=True)
    cache.store([estimated], known={})
    exact = make_paper("2609.00001", version=2, published="2026-09-15T12:00:00")
    cache.store([exact], known=cache.load_index().rows)
    rows = cache.load_index().rows
    assert len(rows) == 1
    assert rows["2609.00001"].shard == "2026-09-14"
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
    assert rows["2609.00001"].version == 2


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


def test_paper_weeks_are_each_papers_week_checked_as_the_index_is(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001"), make_paper("2609.00002")], known={})
    cache.store([make_paper("2610.00001", published="2026-10-20T00:00:00")], known={})
    (data_dir / "cache/index/2026-09-28.json").write_text("{ not json")
    weeks, problems = open_cache(data_dir).paper_weeks()
    assert weeks == {"2609.00001": "2026-09-28", "2609.00002": "2026-09-28", "2610.00001": "2026-10-19"}
    assert "rebuilt" in problems[0]


def test_a_store_by_paper_weeks_merges_with_the_stored_paper(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", title="First")], known={})
    weeks, _ = cache.paper_weeks()
    revised = make_paper("2609.00001", title="First, revised", version=2, updated="2026-10-01T10:00:00")
    outcome = cache.store([revised], known={}, weeks=weeks)
    assert outcome.updated == ["2609.00001"] and outcome.new == []
    rows = open_cache(data_dir).load_index().rows
    assert list(rows) == ["2609.00001"] and rows["2609.00001"].title == "First, revised"


def test_published_is_epoch_seconds_in_rows(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", published="2026-09-28T00:00:00")], known={})
    assert cache.load_index().rows["2609.00001"].published == 1790553600


def test_documents_then_tags_then_cards(data_dir):
    """The order that makes a kill at any moment safe: when the caller saves
    its tags, the papers are on disk and their cards are not yet."""
    cache = open_cache(data_dir)
    seen = {}

    def before_index(outcome):
        seen["papers"] = set(outcome.papers)
        seen["documents"] = set(cache.read_shard_documents("2026-09-28"))
        seen["cards"] = set(open_cache(data_dir).load_index().rows)

    cache.store([make_paper("2609.00001"), make_paper("2609.00002")], known={}, before_index=before_index)
    assert seen == {"papers": {"2609.00001", "2609.00002"}, "documents": {"2609.00001", "2609.00002"}, "cards": set()}
    assert set(open_cache(data_dir).load_index().rows) == {"2609.00001", "2609.00002"}


def test_a_moving_paper_leaves_its_old_week_after_its_card_moved(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", published="2026-09-01T00:00:00", date_estimated=True)], known={})
    seen = {}

    def before_index(outcome):
        seen["old week"] = "2609.00001" in cache.read_shard_documents("2026-08-31")
        seen["new week"] = "2609.00001" in cache.read_shard_documents("2026-09-14")
        seen["card"] = open_cache(data_dir).load_index().rows["2609.00001"].shard

    exact = make_paper("2609.00001", published="2026-09-15T12:00:00")
    cache.store([exact], known=cache.load_index().rows, before_index=before_index)
    assert seen == {"old week": True, "new week": True, "card": "2026-08-31"}
    assert "2609.00001" not in cache.read_shard_documents("2026-08-31")
    assert open_cache(data_dir).load_index().rows["2609.00001"].shard == "2026-09-14"


def test_a_failing_tag_save_writes_no_card(data_dir):
    cache = open_cache(data_dir)

    def before_index(outcome):
        raise OSError("the tags could not be saved")

    with pytest.raises(OSError, match="tags could not be saved"):
        cache.store([make_paper("2609.00001")], known={}, before_index=before_index)
    assert open_cache(data_dir).load_index().rows == {}
    # The next store treats the paper as new, so its tags get another chance.
    assert cache.store([make_paper("2609.00001")], known={}).new == ["2609.00001"]


def _week_files(data_dir) -> set[str]:
    cache_dir = data_dir / "cache"
    return {f"{kind}/{path.name}" for kind in ("papers", "heads") for path in (cache_dir / kind).glob("*.json")}


def test_a_store_that_fails_before_its_cards_leaves_no_week_it_created(data_dir):
    """With the disk full, each failed refresh left new week files that no
    card pointed at, taking the room the next refresh and the read marks needed."""
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001", published="2026-09-28T10:00:00")], known={})
    before = _week_files(data_dir)
    assert before == {"papers/2026-09-28.json", "heads/2026-09-28.json"}
    index_dir = data_dir / "cache" / "index"
    kept = index_dir.with_name("index-kept")

    def index_goes(outcome):
        """Once the papers are written: a file where the index folder was, so no card can be written."""
        index_dir.rename(kept)
        index_dir.write_text("not a folder")

    papers = [
        make_paper("2609.00002", published="2026-09-29T10:00:00"),  # a week there is
        make_paper("2610.00003", published="2026-10-06T10:00:00"),  # new weeks
        make_paper("2610.00004", published="2026-10-13T10:00:00"),
    ]
    with pytest.raises(OSError):  # the index file cannot be read or written
        cache.store(papers, known=cache.load_index().rows, before_index=index_goes)
    assert _week_files(data_dir) == before
    assert "2609.00001" in cache.read_shard_documents("2026-09-28")
    index_dir.unlink()
    kept.rename(index_dir)
    again = open_cache(data_dir)
    assert sorted(again.store(papers, known=again.load_index().rows).new) == ["2609.00002", "2610.00003", "2610.00004"]
    assert set(open_cache(data_dir).load_index().rows) == {"2609.00001", "2609.00002", "2610.00003", "2610.00004"}


def test_a_failing_tag_save_leaves_no_week_it_created(data_dir):
    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001")], known={})
    before = _week_files(data_dir)

    def before_index(outcome):
        raise OSError("the tags could not be saved")

    with pytest.raises(OSError):
        cache.store([make_paper("2610.00002", published="2026-10-06T10:00:00")], known={}, before_index=before_index)
    assert _week_files(data_dir) == before
    assert cache.store([make_paper("2610.00002", published="2026-10-06T10:00:00")], known={}).new == ["2610.00002"]


def test_files_feedtui_wrote_are_not_checked_again_at_start(data_dir, monkeypatch):
    import feedtui.store.cache as cache_module

    cache = open_cache(data_dir)
    cache.store([make_paper("2609.00001")], known={})
    checked = []
    real = cache_module.papers_shape
    monkeypatch.setattr(cache_module, "papers_shape", lambda data: checked.append(1) or real(data))
    open_cache(data_dir).load_index()
    assert checked == []
    # Changed by something else: checked once, then trusted again.
    path = data_dir / "cache/papers/2026-09-28.json"
    path.write_bytes(path.read_bytes() + b"\n")
    open_cache(data_dir).load_index()
    open_cache(data_dir).load_index()
    assert checked == [1]


def test_a_copy_that_keeps_times_is_trusted_and_one_that_does_not_is_checked(data_dir, tmp_path, monkeypatch):
    import shutil

    import feedtui.store.cache as cache_module

    open_cache(data_dir).store([make_paper("2609.00001")], known={})
    checked = []
    real = cache_module.papers_shape
    monkeypatch.setattr(cache_module, "papers_shape", lambda data: checked.append(1) or real(data))

    kept = tmp_path / "kept"
    shutil.copytree(data_dir, kept)  # new inodes, same sizes and mtimes (`cp -a`, `rsync -a`)
    assert "2609.00001" in open_cache(kept).load_index().rows
    assert checked == []

    plain = tmp_path / "plain"
    shutil.copytree(data_dir, plain, copy_function=shutil.copyfile)
    for path in (plain / "cache/papers").iterdir():  # times not kept, as plain `cp` does
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert "2609.00001" in open_cache(plain).load_index().rows
    assert checked == [1]


def test_authors_past_the_limit_are_counted_and_other_papers_are_stored_as_before(data_dir):
    """`authors_omitted` is written only when some were: an ordinary paper's
    document has the keys it always had, and one written before the field
    existed (so without it) reads as none omitted."""
    collaboration = make_paper(
        "2609.00001", authors=(("Ada Quill", ()), ("Bo Lantern", ()), ("Cy Marsh", ()), ("Di Rook", ())), authors_omitted=298
    )
    cache = open_cache(data_dir)
    cache.store([collaboration, make_paper("2609.00002")], known={})
    documents = cache.read_shard_documents("2026-09-28")
    assert documents["2609.00001"]["authors_omitted"] == 298
    assert sorted(documents["2609.00002"]) == sorted(
        "version title abstract title_display abstract_display published updated authors primary_category "
        "categories comment journal_ref doi abs_url pdf_url announce_type date_estimated sources fetched_for "
        "secondhand first_seen".split()
    )
    reopened = open_cache(data_dir)
    assert reopened.load_index().rows["2609.00001"].authors == "Ada Quill, Bo Lantern, Cy Marsh +299"
    papers = reopened.get_papers({"2609.00001": "2026-09-28", "2609.00002": "2026-09-28"})
    assert (papers["2609.00001"].authors_omitted, papers["2609.00002"].authors_omitted) == (298, 0)


def test_a_count_of_authors_omitted_that_is_not_a_number_is_damage():
    assert paper_document_problem({"published": "2026-09-28T10:00:00Z", "authors_omitted": 3}) == ""
    assert paper_document_problem({"published": "2026-09-28T10:00:00Z", "authors_omitted": "3"}) == (
        "authors_omitted has the wrong type"
    )
