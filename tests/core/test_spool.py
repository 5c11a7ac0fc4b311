"""The refresh's spool: papers spilled to disk, or packed by their parse
worker and spooled as they were, come back a week at a time, equal to what
was spooled, with the tags and texts computed beside their parser (and
their vectors) and the outcome they came from."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from feedtui.core.fetch import PlannedSource, SourceOutcome
from feedtui.core.packed import pack_papers
from feedtui.core.spool import SPOOL_DIR, Spool
from feedtui.model import SourceReport
from tests.factories import make_paper


def outcome(label: str, papers) -> SourceOutcome:
    plan = PlannedSource("feed", label, url=f"http://127.0.0.1/{label}")
    return SourceOutcome(plan, SourceReport(url=plan.url, label=label, ok=True), list(papers))


def test_spilled_papers_come_back_a_week_at_a_time(tmp_path):
    first = outcome("a", [
        make_paper("2609.00001", published="2026-09-29T10:00:00", sources=("feed a",), fetched_for=("t",)),
        make_paper("2609.00002", published="2026-09-21T10:00:00"),
    ])
    first.tags = {"2609.00001": ("Topic A",)}
    first.texts = {"2609.00001": ("title words", "abstract words")}
    second = outcome("b", [make_paper(f"2609.1{n:04d}", published="2026-09-30T08:00:00") for n in range(8)])
    expected = {p.id: p for p in (*first.papers, *second.papers)}
    spool = Spool(tmp_path)
    spool.spill([first])
    spool.spill([second])
    assert first.papers == [] and first.tags == {} and second.papers == []
    assert len(spool) == 10

    seen = []
    last_week = (0, 0)
    for part in spool.parts(3):
        ids = [p.id for _, papers in part for p in papers]
        # At most twice the size asked for: a week is split only when larger.
        assert 0 < len(ids) <= 6
        weeks = sorted(p.published.date().isocalendar()[:2] for _, papers in part for p in papers)
        assert weeks[0] >= last_week, "weeks come in date order"
        last_week = weeks[-1]
        for source, papers in part:
            for paper in papers:
                assert paper == expected[paper.id]
                assert source is (first if paper.id.startswith("2609.0000") else second)
            if source is first and any(p.id == "2609.00001" for p in papers):
                assert source.tags == {"2609.00001": ("Topic A",)}
                assert source.texts == {"2609.00001": ("title words", "abstract words")}
        seen.extend(ids)
    # The earlier week first; every paper once.
    assert seen[0] == "2609.00002"
    assert sorted(seen) == sorted(expected)
    spool.close()
    assert list((tmp_path / SPOOL_DIR).iterdir()) == []
    assert spool.outcomes == [] and len(spool) == 0


def test_a_spool_left_by_an_ended_process_is_removed(tmp_path):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / SPOOL_DIR / f"{ended.stdout.strip()}-abc"
    left.mkdir(parents=True)
    (left / "2026-09-28.jsonl").write_bytes(b"[0]\n")
    live = tmp_path / SPOOL_DIR / f"{os.getppid()}-def"
    live.mkdir()
    spool = Spool(tmp_path)
    spool.spill([outcome("a", [make_paper()])])
    assert not left.exists()
    assert live.exists(), "another live process's spool is left alone"
    spool.close()


def fails_midway(spool: Spool, suffix: str, spill, failing) -> None:
    """`spill(failing)` of two papers, the first to the week already spooled
    (its file ending in `suffix`), the second to a week whose file cannot be
    opened (a folder in its place): it must fail, and cut off what it wrote."""
    week_file = next(spool.directory.glob(f"*{suffix}"))
    length = week_file.stat().st_size
    (spool.directory / f"2026-10-05{suffix}").mkdir()
    with pytest.raises(OSError):
        spill(failing)
    assert week_file.stat().st_size == length, "what it wrote is cut off again"
    assert [p.id for part in spool.parts(10) for _, papers in part for p in papers] == ["2609.00001"]


FAILING_MIDWAY = (("2609.00002", "2026-09-22T10:00:00"), ("2609.00003", "2026-10-06T10:00:00"))


def test_a_spill_that_fails_midway_spools_none_of_its_batch(tmp_path):
    spool = Spool(tmp_path)
    spool.spill([outcome("a", [make_paper("2609.00001", published="2026-09-21T10:00:00")])])
    failing = outcome("b", [make_paper(pid, published=at) for pid, at in FAILING_MIDWAY])
    fails_midway(spool, ".jsonl", lambda batch: spool.spill([batch]), failing)
    assert [p.id for p in failing.papers] == ["2609.00002", "2609.00003"], "its papers stay with it"
    assert len(spool) == 1
    spool.close()


def packed_outcome(label: str, papers, tags=None, texts=None) -> SourceOutcome:
    """A feed's outcome as a packing parse worker hands it over (core/packed.py)."""
    made = outcome(label, [])
    made.packed = pack_papers(list(papers), tags or {}, texts or {})
    return made


def test_packed_papers_come_back_a_week_at_a_time_with_the_spilled_ones(tmp_path):
    spilled = outcome("a", [make_paper("2609.00001", published="2026-09-29T10:00:00")])
    packed_papers = [
        make_paper("2609.00002", published="2026-09-30T10:00:00", sources=("feed b",)),
        make_paper("2609.00003", published="2026-09-21T10:00:00"),
        make_paper("2609.00004", published="2026-10-07T10:00:00"),
    ]
    packed = packed_outcome(
        "b", packed_papers, tags={"2609.00002": ("Topic B",)}, texts={"2609.00002": ("title", "abstract")}
    )
    expected = {p.id: p for p in (*spilled.papers, *packed_papers)}
    spool = Spool(tmp_path)
    spool.spill([spilled])
    spool.spill_packed(packed)
    assert packed.packed is None, "let go of once spooled"
    assert len(spool) == 4

    seen = []
    for part in spool.parts(1):
        # One week a part: the week of the 28th holds a spilled and a packed paper.
        weeks = {p.published.date().isocalendar()[:2] for _, papers in part for p in papers}
        assert len(weeks) == 1
        for source, papers in part:
            for paper in papers:
                assert paper == expected[paper.id]
                assert source is (spilled if paper.id == "2609.00001" else packed)
                seen.append(paper.id)
            if source is packed and any(p.id == "2609.00002" for p in papers):
                assert source.tags == {"2609.00002": ("Topic B",)}
                assert source.texts == {"2609.00002": ("title", "abstract")}
    assert seen[0] == "2609.00003" and seen[-1] == "2609.00004"
    assert sorted(seen) == sorted(expected)
    spool.close()
    assert list((tmp_path / SPOOL_DIR).iterdir()) == []


def test_a_packed_spill_that_fails_spools_none_of_its_papers(tmp_path):
    spool = Spool(tmp_path)
    spool.spill_packed(packed_outcome("a", [make_paper("2609.00001", published="2026-09-21T10:00:00")]))
    failing = packed_outcome("b", [make_paper(pid, published=at) for pid, at in FAILING_MIDWAY])
    fails_midway(spool, ".packed", spool.spill_packed, failing)
    assert failing.packed is not None and failing.packed.count == 2, "its papers stay with it"
    assert [paper.id for _, paper, *_ in failing.packed.unpacked()] == ["2609.00002", "2609.00003"]
    assert len(spool) == 1 and len(spool.outcomes) == 1
    spool.close()
