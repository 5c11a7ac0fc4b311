"""One paper's document sought in its week file equals the file parsed whole."""

from __future__ import annotations

from datetime import datetime

from feedtui.model import UTC
from feedtui.store.cache import read_documents
from feedtui.store.seek import read_document
from tests.core.test_discovery import engine, papers  # noqa: F401 (the fixture)
from tests.factories import make_paper


def test_every_document_is_found_as_the_whole_file_has_it(engine):
    many = [
        make_paper(
            f"2611.{i:05d}",
            title=f"Paper {i} \\\"quoted\\\" ünïcode 2611.{i + 1:05d}\":{{",
            abstract=("Words about 2611.%05d\":{ in the text. " % (i + 1)) * (1 + i % 40) + "∑ 𝔼 日本",
            published="2026-11-25T10:00:00",
        )
        for i in range(10, 400)
    ]
    engine.cache.store(many, {}, datetime(2026, 11, 27, tzinfo=UTC))
    engine.load_library()
    shard = engine.library.rows[engine.library.pos["2611.00010"]].shard
    path = engine.cache.papers_file(shard)
    assert path.stat().st_size > 3 * (1 << 16)  # past several of its blocks
    whole = read_documents(path)
    assert len(whole) >= 390
    for paper_id, document in whole.items():
        assert read_document(path, paper_id) == document
    assert read_document(path, "2611.99999") is None
    assert read_document(path.with_name("missing.json"), "2611.00010") is None


def test_a_damaged_file_gives_none_never_a_crash(tmp_path):
    path = tmp_path / "week.json"
    path.write_bytes(b'{"papers":{"2611.00001":{"title": "cut off')
    assert read_document(path, "2611.00001") is None
    path.write_bytes(b'{"papers":{"2611.00001":{"a":1}, \xff\xfe')
    assert read_document(path, "2611.00001") == {"a": 1}
