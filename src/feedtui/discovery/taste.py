"""For you's model of the user's taste, over the papers' vectors.

A candidate scores its cosine with the closest liked paper (starred or
"more like this"; a paper merely opened counts at READ_WEIGHT), plus a
little of its cosine with the liked papers' weighted centroid, minus part
of its cosine with the closest "less like this" paper. The closest liked
paper, not the centroid, leads: stars in two themes make a centroid between
them that is close to neither, while each candidate is near one of them.
"""

from __future__ import annotations

import numpy as np

READ_WEIGHT = 0.3
CENTROID_WEIGHT = 0.3
DISLIKE_WEIGHT = 0.5


def taste_scores(
    candidates: np.ndarray, liked: np.ndarray, weights: np.ndarray, disliked: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(score of each candidate, index in `liked` of the closest fully
    liked paper, weight 1) for unit row vectors."""
    sims = candidates @ liked.T
    weighted = sims * weights[None, :]
    scores = weighted.max(axis=1)
    centroid = (liked * weights[:, None]).sum(axis=0)
    norm = float(np.linalg.norm(centroid))
    if norm > 0:
        scores = scores + CENTROID_WEIGHT * (candidates @ (centroid / norm))
    if len(disliked):
        scores = scores - DISLIKE_WEIGHT * np.maximum((candidates @ disliked.T).max(axis=1), 0)
    full = np.where(weights[None, :] >= 1, sims, -np.inf)
    return scores, full.argmax(axis=1)
