"""Abstract heads found in a week's heads file without parsing it whole."""

from __future__ import annotations

import orjson

from feedtui.store.cache import PaperCache
from feedtui.store.heads import SEARCHES_BEFORE_INDEX, WeekHeads
from feedtui.store.lock import DataDirLock

from tests.factories import make_paper
from tests.proc_memory import resident_kb

# Ids and abstracts that would fool a search for `"ID":"` in the bytes: quotes,
# backslashes, what looks like another paper's entry, text beyond Latin-1.
AWKWARD = {
    "2609.00001": 'A quoted "2609.00002":"fake" inside, and a backslash \\ here.',
    "2609.00002": "Ends in a backslash \\",
    'feed:x"y': "The id has a quote.",
    "feed:a\\b": "The id has a backslash.",
    "feed:é✓": "Ünïcödé ✓ 数学 and an emoji 🙂.",
    "2609.00003": ',"2609.00004":"not this one',
    "2609.00004": "The real one.",
}


def test_every_head_of_a_stored_week_is_found_whatever_it_holds(data_dir):
    cache = PaperCache(data_dir / "cache", DataDirLock(data_dir))
    plain = {f"2609.{n:05d}": f"Abstract number {n}, with a comma, and more." for n in range(10, 60)}
    abstracts = AWKWARD | plain
    cache.store([make_paper(pid, abstract=text) for pid, text in abstracts.items()], known={})
    (shard,) = cache.shards()
    # More lookups than SEARCHES_BEFORE_INDEX: both ways of finding a head are used.
    assert len(abstracts) > 2 * SEARCHES_BEFORE_INDEX
    for pid, text in abstracts.items():
        assert cache.head(shard, pid) == text, pid
    assert cache.head(shard, "2609.99999") == ""
    assert cache.head("1999-01-04", "2609.00001") == ""  # no such week


def test_heads_match_the_parsed_file_in_any_order_and_twice():
    heads = {f"p{n}": f'{n},"p{n + 1}":"a trap \\" {n}' for n in range(100)} | AWKWARD
    raw = orjson.dumps({"heads": heads})
    week = WeekHeads(raw)
    for pid in reversed(list(heads)):
        assert week.get(pid) == heads[pid]
    for pid in heads:
        assert week.get(pid) == heads[pid]
    assert week.get("p100") == week.get("missing") == ""


def test_a_file_that_is_not_json_gives_no_heads():
    for raw in (b"", b"not json", b'{"heads":{"a":"\xff\xfe"}}', b'{"heads":{"a":"unterminated'):
        assert WeekHeads(raw).get("a") == ""


def test_a_mapped_heads_file_finds_every_head_and_keeps_no_page(tmp_path):
    heads = {f"p{n}": f"Head number {n}, " + "words " * 80 for n in range(2_000)} | AWKWARD
    path = tmp_path / "week.json"
    path.write_bytes(orjson.dumps({"heads": heads}))
    week = WeekHeads.of_file(path)
    for pid in [*reversed(list(heads)), *heads]:
        assert week.get(pid) == heads[pid]
        # The pages read to find it are not kept in the process (the file is over 1 MB).
        assert resident_kb(path) == 0
    assert week.get("missing") == ""
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert WeekHeads.of_file(empty).get("p1") == ""
