"""The whole cache's word index stored on disk: mapped by Ask, the same
ranking as the index built in memory, rebuilt when stale or damaged."""

from __future__ import annotations

import socket

from feedtui.core.discovery_store import _compact
from feedtui.discovery.word_store import MappedIndex
from tests.core.test_discovery import NOW, engine, papers  # noqa: F401 (the fixture)
from tests.factories import make_paper
from tests.proc_memory import resident_kb

QUESTIONS = ("serverless inference scheduler", "sparse attention", "offload energy", "GPU clusters jobs", "zebra")


def words_folder(engine):
    return engine.data_dir / "cache" / "words"


def test_computing_vectors_stores_the_word_index_and_ask_maps_it(engine):
    engine.compute_vectors()
    assert (words_folder(engine) / "words.json").exists()
    engine.release_discovery()
    engine.ask("attention")
    assert isinstance(engine._held_discovery.index[1], MappedIndex)
    assert engine.store_word_index() is False  # current: not built again


def test_the_stored_index_ranks_as_the_index_built_in_memory(engine):
    engine.store_word_index()
    engine.release_discovery()
    mapped = engine._whole_index()
    assert isinstance(mapped, MappedIndex)
    built = _compact(engine.search_index(engine._shown_positions()))
    for question in QUESTIONS:
        for depth in (1, 3, None):
            assert mapped.rank(question, depth) == built.rank(question, depth)
    assert mapped.rank("scheduler", None)


def test_a_refresh_that_adds_papers_makes_the_stored_index_stale(engine):
    engine.store_word_index()
    engine.cache.store([make_paper("2611.00009", title="Offload planners", published="2026-11-26T10:00:00")], {}, NOW)
    engine.load_library()
    engine.release_discovery()
    assert engine.ask("planners").hits[0].paper_id == "2611.00009"
    engine.release_discovery()
    assert engine.store_word_index() is False  # the first Ask stored the new one
    assert engine.ask("planners").hits[0].paper_id == "2611.00009"


def test_a_damaged_stored_index_is_built_again_never_a_crash(engine):
    expected = [h.paper_id for h in engine.ask("gang scheduling of training jobs", mode="lexical").hits]
    folder = words_folder(engine)
    generation = next(p for p in folder.iterdir() if p.is_dir())
    for name, damage in (
        ("papers.npy", b"\x93NUMPY garbage"),
        ("words.json", b"{not json"),
        ("starts.npy", None),
    ):
        path = (folder if name == "words.json" else generation) / name
        if damage is None:
            path.unlink()
        else:
            path.write_bytes(damage)
        engine.release_discovery()
        assert [h.paper_id for h in engine.ask("gang scheduling of training jobs", mode="lexical").hits] == expected
        generation = next(p for p in folder.iterdir() if p.is_dir())


def test_postings_naming_papers_past_the_end_are_caught_at_ranking(engine):
    import numpy as np

    expected = [h.paper_id for h in engine.ask("scheduling", mode="lexical").hits]
    folder = words_folder(engine)
    generation = next(p for p in folder.iterdir() if p.is_dir())
    papers_file = generation / "papers.npy"
    wrong = np.load(papers_file) + 1000
    np.save(papers_file, wrong)
    engine.release_discovery()
    assert [h.paper_id for h in engine.ask("scheduling", mode="lexical").hits] == expected
    assert not (generation / "papers.npy").exists() or not np.array_equal(np.load(generation / "papers.npy"), wrong)


def test_loading_the_stored_index_opens_no_socket(engine, monkeypatch):
    engine.store_word_index()
    engine.release_discovery()

    def refuse(*args, **kwargs):
        raise AssertionError("the word index tried the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    assert engine.ask("attention", mode="lexical").hits
    assert isinstance(engine._held_discovery.index[1], MappedIndex)


def test_a_question_leaves_no_postings_pages_in_memory(tmp_path):
    import mmap

    from feedtui.discovery import word_store
    from feedtui.discovery.lexical import CompactIndex
    from feedtui.discovery.word_parts import join, part_of_index
    from feedtui.search import SearchIndex

    every = [make_paper(f"2609.{i:05d}", title=f"sparse attention kernels {i % 7}", abstract="attention everywhere") for i in range(12_000)]
    index = SearchIndex.build(every)
    built = CompactIndex(index)
    part = part_of_index(index)
    word_store.save(join([(part, range(len(part.ids)))]), [1] * len(every), tmp_path, "s")
    mapped = word_store.load(tmp_path, "s")
    assert isinstance(mapped, MappedIndex)
    files = sorted(tmp_path.glob("g*/*.npy"))
    for _ in range(2):  # pages dropped the first time are read again the second
        assert mapped.rank("sparse attention", 5) == built.rank("sparse attention", 5)
        resident = {path.name: resident_kb(path) for path in files}
        if None in resident.values() or not hasattr(mmap.mmap, "madvise"):
            continue
        # Twelve thousand papers per word: 48 kB of postings read, none kept;
        # nor the pages of the terms searched, the papers' lengths and ids.
        assert set(resident.values()) == {0}, resident
