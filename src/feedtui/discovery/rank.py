"""Fusing Ask's two rankings: BM25 over the words, cosine over the meaning.

Reciprocal-rank fusion: a paper scores 1/(K + rank) in each ranking it is
in, the semantic ranking's share weighted by SEMANTIC_WEIGHT. Ranks, not
scores, are added, because a BM25 score and a cosine are on scales that
nothing relates; a paper high in both comes first, and a paper only one
ranking finds (a paraphrase BM25 misses) can still come high.
"""

from __future__ import annotations

from collections.abc import Sequence

# Measured on the bench's labelled corpus (2,208 papers, 120 questions): 30 and
# an equal weight gave the best MRR@10 and nDCG@10 of the K and weights tried.
K = 30
SEMANTIC_WEIGHT = 1.0
# How many of the semantic ranking's best take part in the fusion.
SEMANTIC_DEPTH = 200


def fuse(
    lexical: Sequence[tuple[str, float]],
    semantic: Sequence[tuple[str, float]],
    *,
    k: int = K,
    weight: float = SEMANTIC_WEIGHT,
) -> list[tuple[str, float]]:
    """(paper id, fused score) best first, from two rankings best first."""
    scores: dict[str, float] = {}
    for rank, (paper_id, _) in enumerate(lexical, 1):
        scores[paper_id] = 1 / (k + rank)
    for rank, (paper_id, _) in enumerate(semantic, 1):
        scores[paper_id] = scores.get(paper_id, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
