"""A feed's word part, made a chunk at a time, counts as the search index does."""

from __future__ import annotations

from collections import Counter

import pytest

from feedtui.discovery import word_parts
from feedtui.search import weighted_terms
from tests.factories import make_paper

PAPERS = [
    make_paper(
        "2611.00001",
        title="Sparse attention — GPU加速 of state-space models",
        abstract="We study multi-tenant off-loading of LLM's;  café naïve ‘quoted’ x_y 東京大学の研究 and   spaces\ttab\nnew lines.",
        authors=(("Jane O'Neil", ()), ("李 小明", ())),
    ),
    make_paper("2611.00002", title="_under_score a-b-c", abstract="'tis -lead trail- 12-34 α-β O(n²) ‖w‖₂ ≤ 3 ", authors=(("Ada Quill", ()),)),
    make_paper("2611.00003", title=" Leading space", abstract="Scheduling schedulers schedule; scheduling again. Scheduling!", authors=()),
    make_paper("2611.00004", title="", abstract="", authors=()),
]


def expected(paper) -> tuple[Counter, int]:
    terms, length = weighted_terms(*word_parts._texts(paper))
    return Counter(terms), length


def postings(part) -> dict[str, dict[str, int]]:
    terms = part.terms.split("\n") if part.terms else []
    found: dict[str, dict[str, int]] = {paper_id: {} for paper_id in part.ids}
    for term, paper, count in zip(part.term_of.tolist(), part.paper_of.tolist(), part.counts.tolist()):
        found[part.ids[paper]][terms[term]] = count
    return found


@pytest.mark.parametrize("kept", [1 << 15, 3])
def test_a_part_counts_each_papers_terms_and_length_as_the_index_does(monkeypatch, kept):
    monkeypatch.setattr(word_parts, "_CHUNKS_KEPT", kept)  # 3: the chunks kept are emptied again and again
    monkeypatch.setattr(word_parts, "_CHUNKS", word_parts._Chunks())
    for _ in range(2):  # chunks met, then chunks kept
        part = word_parts.words_of(PAPERS)
        found = postings(part)
        for position, paper in enumerate(PAPERS):
            counts, length = expected(paper)
            assert found[paper.id] == dict(counts)
            assert part.lengths[position] == length
    assert counts == Counter() and length == 0  # the empty paper
    assert expected(PAPERS[0])[0]["加速"] and expected(PAPERS[2])[0]["schedul"] == 5
