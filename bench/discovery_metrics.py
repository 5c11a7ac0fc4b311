"""Ranking quality: MRR@k, nDCG@k and precision@k over lists of paper ids.

Relevance is graded (0 = not relevant): for Ask, the paper a question was
written about is 2 and the other papers of its theme 1; MRR counts the first
paper of the highest grade only (the answer), nDCG every grade.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def reciprocal_rank(ranking: Sequence[str], answers: set[str] | frozenset[str], k: int = 10) -> float:
    """1 / the rank of the first answer within the top k, else 0."""
    for rank, paper_id in enumerate(ranking[:k], start=1):
        if paper_id in answers:
            return 1.0 / rank
    return 0.0


def dcg(grades: Sequence[float]) -> float:
    """Discounted cumulative gain with the exponential gain 2^rel - 1."""
    return sum((2.0**grade - 1.0) / math.log2(rank + 1) for rank, grade in enumerate(grades, start=1))


def ndcg(ranking: Sequence[str], relevance: Mapping[str, float], k: int = 10) -> float:
    """DCG of the top k over the DCG of the best possible top k (0 if nothing is relevant)."""
    ideal = dcg(sorted((g for g in relevance.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        return 0.0
    return dcg([relevance.get(paper_id, 0) for paper_id in ranking[:k]]) / ideal


def precision(ranking: Sequence[str], relevant: set[str] | frozenset[str], k: int) -> float:
    """The share of the top k that is relevant; a list shorter than k counts its gaps as misses."""
    return sum(1 for paper_id in ranking[:k] if paper_id in relevant) / k


def hit(ranking: Sequence[str], answers: set[str] | frozenset[str], k: int) -> float:
    """1 if an answer is within the top k, else 0."""
    return 1.0 if any(paper_id in answers for paper_id in ranking[:k]) else 0.0


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
