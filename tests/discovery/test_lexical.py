"""The whole cache's word ranking with numpy ranks as feedtui.search does."""

from __future__ import annotations

import pytest

from feedtui.discovery.lexical import CompactIndex, top_bm25
from feedtui.search import SearchIndex

from tests.factories import make_paper

WORDS = "sparse attention kernels graph scheduler offload edge energy pipeline parallel cache".split()


def papers():
    return [
        make_paper(
            f"2609.{i:05d}",
            title=" ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(3)),
            abstract=" ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(i % 9 + 2)),
        )
        for i in range(60)
    ]


@pytest.mark.parametrize("question", ["sparse attention", "scheduling", "edge energy offload", "nothing here", "graph"])
def test_numpy_rankings_agree_with_the_search_index(question):
    every = papers()
    whole = SearchIndex.build(every)
    parts = SearchIndex.merged([SearchIndex.build(every[:25]), SearchIndex.build(every[25:])])
    expected = whole.rank(question, 20)
    compact = CompactIndex(parts)
    for ranked in (top_bm25(parts, question, 20), compact.rank(question, 20)):
        assert [pid for pid, _ in ranked] == [pid for pid, _ in expected]
        assert all(abs(a - b) < 1e-4 * a for (_, a), (_, b) in zip(expected, ranked))
    assert len(compact.rank(question)) == len(whole.rank(question))
