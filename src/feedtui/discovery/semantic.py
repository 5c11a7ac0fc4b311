"""The model and the vectors together: what Ask, Related and For you ask of
the meaning of texts. Imports numpy; imported only when discovery is used."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from feedtui.discovery.embed import Model
from feedtui.discovery.vectors import Vectors


class Semantic:
    def __init__(self, model: Model, vectors: Vectors) -> None:
        self.model = model
        self.vectors = vectors

    def embed_one(self, text: str) -> np.ndarray:
        return self.model.embed([text], few=True)[0]

    def closest(self, query: np.ndarray, allowed: Iterable[str] | None = None, depth: int = 200) -> list[tuple[str, float]]:
        """(paper id, cosine) of the `depth` stored papers closest to `query`,
        only among `allowed` when given; best first."""
        sims = self.vectors.similarities(query)
        ids = self.vectors.ids
        if allowed is not None:
            pos = self.vectors.pos
            rows = np.fromiter((i for i in map(pos.get, allowed) if i is not None), dtype=np.int64)
            if not len(rows):
                return []
            sub = sims[rows]
            top = rows[_top(sub, depth)]
        else:
            top = _top(sims, depth)
        return [(ids[i], float(sims[i])) for i in top]

    def ask(self, question: str, allowed: Iterable[str] | None, depth: int) -> list[tuple[str, float]]:
        return self.closest(self.embed_one(question), allowed, depth)

    def sentence_closeness(self, question: str) -> "callable":
        """A scorer of sentences by their cosine with the question (for quotes)."""
        query = self.embed_one(question)

        def score(sentences: list[str]) -> list[float]:
            return [float(v) for v in self.model.embed(sentences, few=True) @ query]

        return score

    def matrix(self, paper_ids: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """The ids that have vectors and their vectors as float32 rows."""
        pos = self.vectors.pos
        have = [pid for pid in paper_ids if pid in pos]
        rows = np.fromiter((pos[pid] for pid in have), dtype=np.int64, count=len(have))
        return have, self.vectors.codes[rows].astype(np.float32) * self.vectors.scales[rows, None]


def _top(scores: np.ndarray, depth: int) -> np.ndarray:
    """Indices of the `depth` largest scores, largest first."""
    if len(scores) > depth:
        part = np.argpartition(-scores, depth)[:depth]
    else:
        part = np.arange(len(scores))
    return part[np.argsort(-scores[part], kind="stable")]
