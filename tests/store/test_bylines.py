"""Bylines (a card's authors and affiliations) found in a week's card index without parsing it whole."""

from __future__ import annotations

import orjson

from feedtui.store.bylines import Bylines, WeekBylines
from feedtui.store.cache import PaperCache
from feedtui.store.heads import SEARCHES_BEFORE_INDEX
from feedtui.store.lock import DataDirLock

from tests.factories import make_paper
from tests.proc_memory import resident_kb

# Names and affiliations that would fool a search for `"ID":[` in the bytes:
# quotes, brackets, backslashes, what looks like another paper's row, text
# beyond Latin-1 (rows longer than the first bytes decoded, too).
AWKWARD = {
    "2609.00001": (('Ada "Q" Quill', ('A ],"2609.00002":[1,2] lab',)),),
    "2609.00002": (("Ends in a backslash \\", ("Institut für Ünïcödé ✓ 数学 🙂",)),),
    'feed:x"y': (("Quote Id", ()),),
    "feed:é✓": tuple((f"Long Name {n} ✓" + "x" * 600, (f"Long Place {n} 数" + "y" * 900,)) for n in range(5)),
    "2609.00003": ((",\"2609.00004\":[", ("[", "]")),),
    "2609.00004": (("The Real One", ("Nowhere",)),),
}


def _cache(data_dir):
    return PaperCache(data_dir / "cache", DataDirLock(data_dir))


def test_every_paper_of_a_stored_week_has_its_cards_bylines_whatever_they_hold(data_dir):
    cache = _cache(data_dir)
    plain = {f"2609.{n:05d}": ((f"Author {n}", (f"Lab {n}",)), ("B. Other", ())) for n in range(10, 60)}
    papers = [make_paper(pid, authors=tuple(authors)) for pid, authors in (AWKWARD | plain).items()]
    cache.store(papers, known={})
    full = cache.load_index().rows
    (shard,) = cache.shards()
    bylines = Bylines(lambda week: cache.index_dir / f"{week}.json")
    assert len(full) > 2 * SEARCHES_BEFORE_INDEX  # both ways of finding a row are used
    for pid, row in full.items():
        assert bylines.get(shard, pid) == (row.authors, row.affiliations), pid
        assert row.authors  # every invented paper has authors
    assert bylines.get(shard, "2609.99999") == ("", "")
    assert bylines.get("1999-01-04", "2609.00001") == ("", "")  # no such week


def test_a_lean_load_leaves_the_bylines_out_and_only_them(data_dir):
    cache = _cache(data_dir)
    cache.store([make_paper(f"2609.{n:05d}") for n in range(20)], known={})
    full, lean = cache.load_index().rows, cache.load_index(lean=True).rows
    assert full.keys() == lean.keys()
    for pid, row in full.items():
        assert row.authors == "Ada Quill" and row.affiliations == "Institute of Nowhere"
        assert lean[pid] == row._replace(authors="", affiliations="")


def test_a_week_stored_again_is_read_again(data_dir):
    cache = _cache(data_dir)
    cache.store([make_paper("2609.00001", authors=(("First Writer", ()),))], known={})
    (shard,) = cache.shards()
    bylines = Bylines(lambda week: cache.index_dir / f"{week}.json")
    assert bylines.get(shard, "2609.00001") == ("First Writer", "")
    assert bylines.get(shard, "2609.00002") == ("", "")
    # Another process stores a paper there: the file is replaced, and read anew.
    _cache(data_dir).store([make_paper("2609.00002", authors=(("Second Writer", ("Elsewhere",)),))], known={})
    assert bylines.get(shard, "2609.00002") == ("Second Writer", "Elsewhere")
    assert bylines.get(shard, "2609.00001") == ("First Writer", "")


def test_rows_that_are_not_card_rows_give_no_bylines():
    for raw in (
        b"",
        b"not json",
        b'{"cards":{"a":[1,2,3]}}',
        b'{"cards":{"a":[1,1,1,false,"cs","T",7,"aff",[],1,"w"]}}',
        b'{"cards":{"a":[1,1,1,false,"cs","T","unterminated',
    ):
        assert WeekBylines(raw).bylines("a") == ("", ""), raw
    # Bytes that are not UTF-8 (feedtui never writes them: a file it did not
    # write is checked at start) are shown as such, not taken for no byline.
    raw = b'{"cards":{"a":[1,1,1,false,"cs","T","\xff\xfe","",[],1,"w"]}}'
    assert WeekBylines(raw).bylines("a") == ("\ufffd\ufffd", "")


def test_a_mapped_index_file_finds_every_row_and_keeps_no_page(tmp_path):
    cards = {f"p{n}": [1, 1, 1, False, "cs.DC", "Title " * 20, f"Author {n}", f"Lab {n} · Elsewhere", [], 1, "w"] for n in range(3_000)}
    path = tmp_path / "week.json"
    path.write_bytes(orjson.dumps({"cards": cards}))
    week = WeekBylines.of_file(path)
    for pid in [*reversed(list(cards)), *cards]:
        assert week.bylines(pid) == (cards[pid][6], cards[pid][7])
        # The pages read to find it are not kept in the process (the file is over 1 MB).
        assert resident_kb(path) == 0
    assert week.bylines("missing") == ("", "")
