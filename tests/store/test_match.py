"""The cache's match files: kept beside every papers file it writes, trusted
only while they describe the papers file as it is, and never the cause of a
wrong tag."""

from __future__ import annotations

import errno
import os

import orjson
import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import Topic, TopicDefinition
from feedtui.store.cache import PaperCache, _OpenWeeks, read_documents
from feedtui.store.files import WriteFailedError
from feedtui.store.lock import DataDirLock
from feedtui.store.match import match_path, papers_stamp, read_match_rows, write_match_rows
from feedtui.topics.registry import compile_topic
from feedtui.topics.tagging import MATCH_ROWS_VERSION, MatchRows, build_matchers, tag_documents, tag_shard_files
from tests.factories import make_paper

WEEK = "2026-09-28"


def killed(*args, **kwargs):
    """Stands in for a kill -9 at the point it is patched in."""
    raise KeyboardInterrupt


def no_space(path) -> WriteFailedError:
    return WriteFailedError(path, OSError(errno.ENOSPC, "No space left on device"))


def open_cache(data_dir) -> PaperCache:
    return PaperCache(data_dir / "cache", DataDirLock(data_dir), MatchRows())


def expected_rows(cache: PaperCache, shard: str) -> dict[str, list]:
    """The rows made afresh from the week's documents."""
    return {pid: MatchRows().of_document(pid, doc) for pid, doc in cache.read_shard_documents(shard).items()}


def current_rows(cache: PaperCache, shard: str) -> dict[str, list] | None:
    return read_match_rows(cache.papers_dir / f"{shard}.json", MATCH_ROWS_VERSION)


def week_papers(*ids_titles, published="2026-09-29T00:00:00"):
    return [make_paper(pid, title=title, published=published) for pid, title in ids_titles]


def age(path, seconds: int = 60) -> None:
    """Set a file's times back, as for a papers file written a while ago."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - seconds * 1_000_000_000))


def same_times(path, like: os.stat_result) -> None:
    """Give a file the times of an earlier one: two writes within one tick of
    a coarse file-system clock."""
    os.utime(path, ns=(like.st_atime_ns, like.st_mtime_ns))


def test_a_store_writes_the_rows_of_every_paper_of_the_week(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Sparse routers"), ("2609.00002", "Dense routers")), known={})
    cache.store(week_papers(("2609.00003", "Pipelined schedulers")), known=cache.load_index().rows)
    rows = current_rows(cache, WEEK)
    assert rows is not None and set(rows) == {"2609.00001", "2609.00002", "2609.00003"}
    assert rows == expected_rows(cache, WEEK)
    assert rows["2609.00003"][0] == " pipelined schedulers "


def test_an_updated_paper_gets_its_new_texts(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "First title")), known={})
    revised = make_paper("2609.00001", version=2, title="Second title", published="2026-09-29T00:00:00")
    cache.store([revised], known=cache.load_index().rows)
    assert current_rows(cache, WEEK)["2609.00001"][0] == " second title "


def test_a_paper_that_moves_week_moves_its_row(data_dir):
    cache = open_cache(data_dir)
    estimated = make_paper("2609.00001", published="2026-09-01T00:00:00", date_estimated=True)
    cache.store([estimated, *week_papers(("2609.00002", "Stays"), published="2026-09-02T00:00:00")], known={})
    cache.store([make_paper("2609.00001", published="2026-09-29T12:00:00")], known=cache.load_index().rows)
    assert set(current_rows(cache, "2026-08-31")) == {"2609.00002"}
    assert set(current_rows(cache, WEEK)) == {"2609.00001"}


def test_removed_papers_leave_the_match_file(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One"), ("2609.00002", "Two")), known={})
    assert cache.remove({"2609.00001": WEEK}) == 1
    assert set(current_rows(cache, WEEK)) == {"2609.00002"}


def test_a_papers_file_rewritten_without_its_match_file_makes_it_stale(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    data = orjson.loads(papers_path.read_bytes())
    data["papers"]["2609.00001"]["title"] = "Changed by hand, one more character"
    papers_path.write_bytes(orjson.dumps(data))
    assert current_rows(cache, WEEK) is None


def test_a_match_file_from_another_row_version_or_damaged_is_not_used(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    assert read_match_rows(papers_path, "another version") is None
    match_path(papers_path).write_bytes(b'{"match": {"2609.00001": [')
    assert current_rows(cache, WEEK) is None


def test_a_stale_match_file_is_rebuilt_by_the_next_store_of_its_week(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    write_match_rows(papers_path, {"2609.00001": ["", " wrong ", "", "", "", [], [], []]}, [1, 2], MATCH_ROWS_VERSION)
    cache.store(week_papers(("2609.00002", "Two")), known=cache.load_index().rows)
    assert current_rows(cache, WEEK) == expected_rows(cache, WEEK)
    assert set(current_rows(cache, WEEK)) == {"2609.00001", "2609.00002"}


def test_a_cache_without_a_row_maker_removes_the_match_files_it_outdates(data_dir):
    open_cache(data_dir).store(week_papers(("2609.00001", "One")), known={})
    plain = PaperCache(data_dir / "cache", DataDirLock(data_dir))
    plain.store(week_papers(("2609.00002", "Two")), known=plain.load_index().rows)
    assert not match_path(plain.papers_dir / f"{WEEK}.json").exists()


def test_a_match_file_that_cannot_be_written_is_removed_and_the_store_succeeds(data_dir, monkeypatch):
    from feedtui.store import cache as cache_module

    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})

    def full_disk(*args, **kwargs):
        raise no_space(match_path(cache.papers_dir / f"{WEEK}.json"))

    monkeypatch.setattr(cache_module, "write_match_rows", full_disk)
    outcome = cache.store(week_papers(("2609.00002", "Two")), known=cache.load_index().rows)
    assert outcome.new == ["2609.00002"]
    assert not match_path(cache.papers_dir / f"{WEEK}.json").exists()


def test_rows_of_updated_papers_with_sources_fetched_for_and_only_a_primary_category(data_dir):
    cache = open_cache(data_dir)
    first = make_paper(
        "2609.00001", title="Sparse routers", published="2026-09-29T00:00:00", sources=("https://a.example/feed",)
    )
    lone = make_paper("2609.00002", categories=(), published="2026-09-29T00:00:00", fetched_for=("Lattice@0123456789ab",))
    lone.primary_category = "hep-lat"
    cache.store([first, lone], known={})
    again = make_paper(
        "2609.00001", version=2, title="Sparse routers, revised", published="2026-09-29T00:00:00",
        sources=("https://b.example/feed",), fetched_for=("Routers@0123456789ab",),
    )
    cache.store([again], known=cache.load_index().rows)
    rows = current_rows(cache, WEEK)
    assert rows == expected_rows(cache, WEEK)
    assert rows["2609.00001"][0] == " sparse routers  revised "
    assert sorted(rows["2609.00001"][6]) == ["https://a.example/feed", "https://b.example/feed"]
    assert rows["2609.00001"][7] == ["Routers@0123456789ab"]
    assert rows["2609.00002"][5:] == [["hep-lat"], [], ["Lattice@0123456789ab"]]


def test_a_papers_file_of_the_same_size_or_the_same_mtime_is_another_file(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Routers")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    written = papers_path.stat()
    papers_path.write_bytes(papers_path.read_bytes().replace(b"Routers", b"Rooters"))
    assert papers_path.stat().st_size == written.st_size
    os.utime(papers_path, ns=(written.st_atime_ns, written.st_mtime_ns + 5_000_000_000))
    assert current_rows(cache, WEEK) is None
    papers_path.write_bytes(papers_path.read_bytes().replace(b"Rooters", b"Routers!"))
    same_times(papers_path, written)
    assert current_rows(cache, WEEK) is None


def test_a_kill_between_the_papers_and_the_match_file_leaves_no_match_file(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Sparse routers")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    written = papers_path.stat()

    monkeypatch.setattr(PaperCache, "_update_match", killed)
    revised = make_paper("2609.00001", version=2, title="Sparse kernels", published="2026-09-29T00:00:00")
    with pytest.raises(KeyboardInterrupt):
        cache.store([revised], known=cache.load_index().rows)
    # Same size, and within one tick of a coarse clock: the stamp alone could not tell.
    same_times(papers_path, written)
    assert papers_path.stat().st_size == written.st_size
    assert not match_path(papers_path).exists()


def test_a_store_that_fails_before_rewriting_the_papers_puts_the_match_file_back(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    before = match_path(papers_path).read_bytes()

    def full_disk(self, paths):
        raise no_space(papers_path)

    monkeypatch.setattr(_OpenWeeks, "flush", full_disk)
    with pytest.raises(WriteFailedError):
        cache.store(week_papers(("2609.00002", "Two")), known=cache.load_index().rows)
    assert match_path(papers_path).read_bytes() == before
    assert sorted(p.name for p in cache.match_dir.iterdir()) == [f"{WEEK}.json"]
    assert set(current_rows(cache, WEEK)) == {"2609.00001"}


def test_a_store_that_fails_after_rewriting_the_papers_leaves_only_their_match_file(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})

    def tags_fail(outcome):
        raise no_space(cache.directory / "tags.json")

    with pytest.raises(WriteFailedError):
        cache.store(week_papers(("2609.00002", "Two")), known=cache.load_index().rows, before_index=tags_fail)
    # The week was written before the tags failed: its match file is of the papers file as it is now.
    assert sorted(p.name for p in cache.match_dir.iterdir()) == [f"{WEEK}.json"]
    assert set(current_rows(cache, WEEK)) == set(read_documents(cache.papers_dir / f"{WEEK}.json"))


def test_a_successful_store_or_remove_leaves_nothing_aside(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One"), ("2609.00002", "Two")), known={})
    cache.store(week_papers(("2609.00003", "Three")), known=cache.load_index().rows)
    cache.remove({"2609.00001": WEEK})
    assert sorted(p.name for p in cache.match_dir.iterdir()) == [f"{WEEK}.json"]
    assert set(current_rows(cache, WEEK)) == {"2609.00002", "2609.00003"}


def test_a_match_file_left_aside_by_a_killed_store_is_never_put_back(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Sparse routers"), ("2609.00002", "Other")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    written = papers_path.stat()

    with monkeypatch.context() as patched:
        patched.setattr(PaperCache, "_update_match", killed)
        revised = make_paper("2609.00001", version=2, title="Sparse kernels", published="2026-09-29T00:00:00")
        with pytest.raises(KeyboardInterrupt):
            cache.store([revised], known=cache.load_index().rows)
    same_times(papers_path, written)
    # The next store fails before rewriting this week's papers: the match file
    # it finds aside (made from the papers before the kill) must not come back.
    earlier = make_paper("2609.00002", title="Other", published="2026-09-15T00:00:00")

    def tags_fail(outcome):
        raise no_space(cache.directory / "tags.json")

    with pytest.raises(WriteFailedError):
        cache.store([earlier], known=cache.load_index().rows, before_index=tags_fail)
    assert current_rows(cache, WEEK) is None
    assert not match_path(papers_path).exists()


def test_opening_the_cache_removes_match_files_left_aside(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})

    with monkeypatch.context() as patched:
        patched.setattr(PaperCache, "_update_match", killed)
        with pytest.raises(KeyboardInterrupt):
            cache.store(week_papers(("2609.00002", "Two")), known=cache.load_index().rows)
    assert [p.name for p in cache.match_dir.iterdir()] == [f"{WEEK}.json.aside"]
    open_cache(data_dir)
    assert list(cache.match_dir.iterdir()) == []


def test_a_store_interrupted_just_after_replacing_the_papers_does_not_put_the_old_match_back(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Sparse routers")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    written = papers_path.stat()
    known = cache.load_index().rows
    stamp = PaperCache._stamp

    def interrupted_after_replace(path):
        if path == papers_path:
            raise KeyboardInterrupt  # between os.replace and recording what was written
        return stamp(path)

    with monkeypatch.context() as patched:
        patched.setattr(PaperCache, "_stamp", staticmethod(interrupted_after_replace))
        revised = make_paper("2609.00001", version=2, title="Sparse kernels", published="2026-09-29T00:00:00")
        with pytest.raises(KeyboardInterrupt):
            cache.store([revised], known=known)
    same_times(papers_path, written)
    assert b"Sparse kernels" in papers_path.read_bytes()
    assert current_rows(cache, WEEK) is None


def test_a_damaged_papers_file_found_by_a_store_takes_its_match_rows_with_it(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "Sparse routers")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    written = papers_path.stat()
    papers_path.write_bytes(b"\0" * written.st_size)  # damaged in place: size and times kept
    same_times(papers_path, written)
    cache.store(week_papers(("2609.00002", "Schedulers")), known={})
    assert current_rows(cache, WEEK) == expected_rows(cache, WEEK)
    assert set(current_rows(cache, WEEK)) == {"2609.00002"}


def test_a_remove_that_fails_puts_the_match_file_back(data_dir, monkeypatch):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One"), ("2609.00002", "Two")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    before = match_path(papers_path).read_bytes()
    original_flush = _OpenWeeks.flush

    def papers_fail(self, paths):
        paths = list(paths)
        if papers_path in paths:
            raise no_space(papers_path)
        original_flush(self, paths)

    monkeypatch.setattr(_OpenWeeks, "flush", papers_fail)
    with pytest.raises(WriteFailedError):
        cache.remove({"2609.00001": WEEK})
    assert match_path(papers_path).read_bytes() == before
    assert set(current_rows(cache, WEEK)) == {"2609.00001", "2609.00002"}


def test_opening_a_cache_does_not_create_the_match_folder(data_dir):
    cache = open_cache(data_dir)
    assert cache.papers_dir.is_dir() and not cache.match_dir.exists()


def test_rows_of_the_wrong_width_are_not_current(data_dir):
    cache = open_cache(data_dir)
    cache.store(week_papers(("2609.00001", "One")), known={})
    papers_path = cache.papers_dir / f"{WEEK}.json"
    rows = current_rows(cache, WEEK)
    rows["2609.00001"] = rows["2609.00001"][:5]
    write_match_rows(papers_path, rows, papers_stamp(papers_path), MATCH_ROWS_VERSION)
    assert read_match_rows(papers_path, MATCH_ROWS_VERSION) is not None
    assert read_match_rows(papers_path, MATCH_ROWS_VERSION, width=MatchRows.width) is None


# -- retagging from match files -------------------------------------------------


@pytest.fixture
def retag_setup(data_dir):
    cache = open_cache(data_dir)
    cache.store(
        week_papers(("2609.00001", "Sparse routers"), ("2609.00002", "Dense routers"), ("2609.00003", "Schedulers")),
        known={},
    )
    topic = compile_topic(Topic("Routers", TopicDefinition(query="ti:router")))
    from feedtui.topics.tagging import forget_topics, register_topics, topic_specs

    register_topics(7001, topic_specs([topic]))
    yield cache, cache.papers_dir / f"{WEEK}.json"
    forget_topics(7001)


def test_retagging_reads_the_match_file_when_it_is_current(retag_setup):
    cache, papers_path = retag_setup
    rows = current_rows(cache, WEEK)
    # A row made up on purpose (with the right stamp) shows that the file is what is read.
    rows["2609.00003"][0] = " router "
    write_match_rows(papers_path, rows, papers_stamp(papers_path), MATCH_ROWS_VERSION)
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002", "2609.00003"]}


def test_retagging_ignores_a_stale_match_file_and_saves_a_current_one(retag_setup):
    cache, papers_path = retag_setup
    rows = current_rows(cache, WEEK)
    rows["2609.00003"][0] = " router "
    write_match_rows(papers_path, rows, [1, 2], MATCH_ROWS_VERSION)
    age(papers_path)
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002"]}
    assert current_rows(cache, WEEK) == expected_rows(cache, WEEK)


def test_retagging_without_a_match_file_gives_what_the_documents_give_and_saves_one(retag_setup):
    cache, papers_path = retag_setup
    match_path(papers_path).unlink()
    age(papers_path)
    documents = cache.read_shard_documents(WEEK)
    matchers = build_matchers([compile_topic(Topic("Routers", TopicDefinition(query="ti:router")))])
    from_documents = {name: sorted(ids) for name, ids in tag_documents(documents.items(), matchers).items()}
    assert tag_shard_files(7001, [str(papers_path)]) == from_documents == {"Routers": ["2609.00001", "2609.00002"]}
    assert current_rows(cache, WEEK) == expected_rows(cache, WEEK)


def test_retagging_when_the_match_file_cannot_be_saved_still_answers(retag_setup, monkeypatch):
    from feedtui.store import match as match_module

    _, papers_path = retag_setup
    match_path(papers_path).unlink()

    def read_only(*args, **kwargs):
        raise WriteFailedError(match_path(papers_path), OSError(30, "Read-only file system"))

    monkeypatch.setattr(match_module, "write_match_rows", read_only)
    age(papers_path)
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002"]}
    assert not match_path(papers_path).exists()


def test_rows_rebuilt_from_a_papers_file_written_moments_ago_are_not_saved(retag_setup):
    _, papers_path = retag_setup
    match_path(papers_path).unlink()
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002"]}
    assert not match_path(papers_path).exists()


def test_a_papers_file_replaced_while_a_retag_read_it_gets_no_match_file(retag_setup, monkeypatch):
    """The store lands between the retag's stamp and its save, with the same
    size and mtime: the rows read describe the old papers, so must not be saved."""
    from feedtui.store import cache as cache_module

    cache, papers_path = retag_setup
    match_path(papers_path).unlink()
    written = papers_path.stat()
    original_read = cache_module.read_documents

    def read_then_store(path):
        documents = original_read(path)
        revised = make_paper("2609.00003", version=2, title="Router, ok", published="2026-09-29T00:00:00")
        open_cache(papers_path.parents[2]).store([revised], known=cache.load_index().rows)
        same_times(papers_path, written)
        return documents

    monkeypatch.setattr(cache_module, "read_documents", read_then_store)
    tag_shard_files(7001, [str(papers_path)])
    assert papers_stamp(papers_path) == [written.st_size, written.st_mtime_ns]
    monkeypatch.setattr(cache_module, "read_documents", original_read)
    assert current_rows(cache, WEEK) is None
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002", "2609.00003"]}


def test_a_current_match_file_with_rows_edited_by_hand_falls_back_to_the_documents(retag_setup):
    cache, papers_path = retag_setup
    rows = current_rows(cache, WEEK)
    rows["2609.00003"][0] = 42
    write_match_rows(papers_path, rows, papers_stamp(papers_path), MATCH_ROWS_VERSION)
    assert tag_shard_files(7001, [str(papers_path)]) == {"Routers": ["2609.00001", "2609.00002"]}


def test_an_engine_retag_after_a_topic_is_added_reads_the_match_files(data_dir):
    engine = Engine(Config(), data_dir, background_writes=False)
    engine.cache.store(week_papers(("2609.00001", "Sparse routers"), ("2609.00002", "Schedulers")), known={})
    papers_path = engine.cache.papers_dir / f"{WEEK}.json"
    rows = current_rows(engine.cache, WEEK)
    rows["2609.00002"][0] = " routers "  # made up, to see which is read
    write_match_rows(papers_path, rows, papers_stamp(papers_path), MATCH_ROWS_VERSION)
    engine.state.put_topic("Routers", {"query": "ti:router"})
    engine.reload_topics()
    assert engine.compute_tags(["Routers"]) == {"Routers": {"2609.00001", "2609.00002"}}
    engine.close()
