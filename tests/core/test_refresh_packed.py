"""A refresh nobody watches land (the CLI's) has its feeds' papers packed
by their parse worker and spooled as they come (core/packed.py): it stores
exactly what a reader's refresh stores, and without room for the spool it
stores them from memory instead."""

from __future__ import annotations

import orjson

from feedtui.core import spool as spool_module
from feedtui.cpu_pool import POOL_MIN_BYTES
from feedtui.model import TopicDefinition
from tests.core.test_refresh_pool import serve
from tests.core.test_refresh_unchanged import ETAG, engine_at, feed

PAPERS = 400


def stored(data) -> dict[str, dict]:
    """Every stored paper's document (less when it was first seen) and card
    row (likewise), and the topics' tags."""
    cache = data / "cache"
    held: dict[str, dict] = {}
    for path in (cache / "papers").glob("*.json"):
        for pid, doc in orjson.loads(path.read_bytes())["papers"].items():
            held[f"doc {pid}"] = {k: v for k, v in doc.items() if k != "first_seen"}
    for path in (cache / "index").glob("*.json"):
        for pid, row in orjson.loads(path.read_bytes())["cards"].items():
            held[f"card {pid}"] = row[:9] + row[10:]
    for name, entry in orjson.loads((cache / "tags.json").read_bytes())["topics"].items():
        held[f"tags {name}"] = sorted(entry["ids"])
    return held


def count_packed_spills(monkeypatch) -> list[int]:
    spills = [0]
    real = spool_module.Spool.spill_packed

    def spill_packed(self, outcome):
        spills[0] += 1
        real(self, outcome)

    monkeypatch.setattr(spool_module.Spool, "spill_packed", spill_packed)
    return spills


async def test_a_refresh_nobody_watches_stores_what_a_readers_refresh_stores(tmp_path, httpserver, monkeypatch):
    body = feed(PAPERS)
    assert len(body) >= POOL_MIN_BYTES  # parsed (and packed) by the workers
    url = serve(httpserver, body, ETAG)
    spills = count_packed_spills(monkeypatch)
    results = {}
    for name, on_landed in (("cli", None), ("reader", lambda: None)):
        engine = engine_at(tmp_path / name)
        engine.add_topic("Packed", TopicDefinition(feeds=(url,)))
        engine.follow("Packed")
        report = await engine.refresh(on_landed=on_landed)
        assert report.new_papers == PAPERS and [s.papers for s in report.sources] == [PAPERS]
        engine.close()
        results[name] = stored(tmp_path / name)
        assert spills[0] == 1, "only the refresh nobody watches packs"
    assert results["cli"] == results["reader"]
    kinds = [key.split()[0] for key in results["cli"]]
    assert kinds.count("doc") == kinds.count("card") == len(results["cli"]["tags Packed"]) == PAPERS
    assert not any((tmp_path / "cli" / "spool").iterdir()), "the spool is cleared"


async def test_packed_papers_without_room_in_the_spool_are_stored_from_memory(tmp_path, httpserver, monkeypatch):
    url = serve(httpserver, feed(PAPERS), ETAG)
    spills = count_packed_spills(monkeypatch)
    data = tmp_path / "data"
    engine = engine_at(data)
    engine.add_topic("Packed", TopicDefinition(feeds=(url,)))
    engine.follow("Packed")
    (data / spool_module.SPOOL_DIR).write_text("a file where the spool's folder goes")
    report = await engine.refresh()
    assert spills[0] == 1
    assert report.ok and report.new_papers == PAPERS
    engine.close()
    held = stored(data)
    assert len([key for key in held if key.startswith("doc ")]) == PAPERS
    assert len(held["tags Packed"]) == PAPERS
