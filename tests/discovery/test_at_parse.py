"""Vectors and words computed beside a refresh's parsing are kept only for
papers stored with the very texts and authors they were computed from."""

from __future__ import annotations

import numpy as np

from feedtui.discovery.at_parse import KeptVectors, embed_and_index, embed_papers, embedding_texts
from tests.factories import make_paper

PARSED = [
    make_paper("2611.00001", title="Sparse attention on GPUs", authors=(("Zoë  Ng", ()), ("Ada Quill", ()))),
    make_paper("2611.00002", title="Gang scheduling of training jobs", version=2),
    make_paper("2611.00003", title="Offloading layers to the edge"),
]


def test_what_the_workers_compute_is_what_embedding_the_papers_gives():
    vectors, words = embed_and_index(embedding_texts([*PARSED, PARSED[0]]))  # a paper named twice is once
    assert sorted(vectors) == sorted(p.id for p in PARSED) and words.ids == [p.id for p in PARSED]
    direct = embed_papers(PARSED)
    for paper in PARSED:
        assert vectors[paper.id] == direct[paper.id]
    assert vectors["2611.00001"].authors == ["zoe ng", "ada quill"]


def test_only_papers_stored_as_embedded_are_kept():
    computed = embed_and_index(embedding_texts(PARSED))
    kept = KeptVectors()
    stored = [
        PARSED[0],
        make_paper("2611.00002", title="Gang scheduling of training jobs", version=3, authors=(("Other Person", ()),)),
        make_paper("2611.00003", title="Offloading layers to the edge, revised"),
    ]
    kept.note(stored)
    kept.take([computed])
    assert kept.ids == ["2611.00001"]  # the others were stored with other authors, another title
    assert kept.versions == [1] and kept.authors == [["zoe ng", "ada quill"]] and kept.categories == [["cs.DC"]]
    assert np.frombuffer(bytes(kept.codes), dtype=np.int8).tolist() == np.frombuffer(computed[0]["2611.00001"].codes, dtype=np.int8).tolist()
    assert sorted(kept.words) == ["2611.00001"]  # the words of the other two were of other texts too
    assert kept.notes == {}  # let go of once taken
