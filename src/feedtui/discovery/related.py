"""Related papers: how close another paper is to one, from four kinds of evidence."""

from __future__ import annotations

from collections.abc import Mapping

# Shares of the score. With the model, meaning leads; without it, words do.
WITH_MEANING = {"meaning": 0.5, "words": 0.2, "authors": 0.2, "categories": 0.1}
WORDS_ONLY = {"meaning": 0.0, "words": 0.6, "authors": 0.25, "categories": 0.15}


def relatedness(
    *,
    meaning: float,
    words: float,
    shared_authors: int,
    categories: tuple[set[str], set[str]],
    semantic: bool,
) -> float:
    """meaning: cosine of the two papers' vectors; words: the other's BM25
    score for this paper's title over the best such score (0–1);
    shared_authors: how many authors they share; categories: both papers'."""
    shares: Mapping[str, float] = WITH_MEANING if semantic else WORDS_ONLY
    mine, theirs = categories
    overlap = len(mine & theirs) / len(mine | theirs) if mine and theirs else 0.0
    return (
        shares["meaning"] * max(meaning, 0.0)
        + shares["words"] * words
        + shares["authors"] * min(shared_authors, 2) / 2
        + shares["categories"] * overlap
    )
