"""The papers' vectors and word index, computed where their feed is parsed.

A refresh parses each feed in a worker process (core/fetch.Parser), beside
the topics' tags, while other feeds are still downloading: embedding and
indexing the papers there costs the refresh little wall time, where doing
it after the store meant reading every stored paper back from its week
file. Both are of the texts the paper had as parsed; the refresh keeps them
only for a paper stored with those very texts (`text_crc`,
`word_parts.texts_crc`), so a paper merged with another source's copy is
embedded and indexed again from what was stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from feedtui.discovery.embed import embedded_text, text_crc
from feedtui.model import Paper
from feedtui.topics.tagging import parse_and_tag


class ParsedVector(NamedTuple):
    """A paper's vector as its parser computed it: int8 codes and their scale,
    and the CRC-32 of the text embedded."""

    crc: int
    scale: float
    codes: bytes


# The model of this process, loaded once (by the parse pool's preparation,
# before its workers are forked); False: it cannot be, and nothing is embedded.
_model = None


def paper_text(paper: Paper) -> str:
    return embedded_text(paper.readable_title, paper.readable_abstract)


def load_model():
    """This process's model, loaded once (False: it cannot be)."""
    global _model
    if _model is None:
        from feedtui.discovery.embed import Model, ModelUnavailable

        try:
            _model = Model.load(few=False)
        except ModelUnavailable:
            _model = False
    return _model


def parse_tag_and_embed(token: int, data: bytes, url: str, content_type: str, now, base: str = ""):
    """`parse_and_tag`'s (feed, tags, texts), each paper's ParsedVector by
    id, and the papers' word index (a WordPart, None for no papers)."""
    from feedtui.discovery.word_parts import words_of

    feed, tags, texts = parse_and_tag(token, data, url, content_type, now, base)
    papers = _distinct(feed.papers)
    return feed, tags, texts, embed_papers(papers), words_of(papers) if papers else None


def _distinct(papers: Sequence[Paper]) -> list[Paper]:
    """The last of the papers of each id (a feed naming one twice is stored as one)."""
    return list({paper.id: paper for paper in papers}.values())


def embed_papers(papers: Sequence[Paper]) -> dict[str, ParsedVector]:
    """Each paper's vector ({} without the model: computed later, or never)."""
    if not papers:
        return {}
    model = load_model()
    if model is False:
        return {}
    from feedtui.discovery.vectors import quantize

    texts = [paper_text(p) for p in papers]
    scales, codes = quantize(model.embed(texts))
    return {
        paper.id: ParsedVector(text_crc(text), float(scale), row.tobytes())
        for paper, text, scale, row in zip(papers, texts, scales.tolist(), codes)
    }


class KeptVectors:
    """Vectors a refresh's parsers computed for papers it stored, kept until
    they are written with the others (Engine.compute_vectors): codes in one
    buffer, not an object per paper. And where each stored paper's words
    are in the parsers' word indexes (WordPart, position, version)."""

    def __init__(self) -> None:
        self.words: dict[str, tuple[Any, int, int]] = {}
        self.ids: list[str] = []
        self.versions: list[int] = []
        self.scales: list[float] = []
        self.codes = bytearray()
        self.authors: list[list[str]] = []
        self.categories: list[list[str]] = []

    def __len__(self) -> int:
        return len(self.ids)

    def keep(self, paper: Paper, vector: ParsedVector) -> None:
        from feedtui.discovery.authors import author_key

        self.ids.append(paper.id)
        self.versions.append(paper.version)
        self.scales.append(vector.scale)
        self.codes += vector.codes
        self.authors.append([author_key(a.name) for a in paper.authors])
        self.categories.append(list(paper.categories))


def keep_stored(kept: KeptVectors, papers: dict[str, Paper], parsed: dict[str, ParsedVector], parts: Sequence[Any]) -> None:
    """Keep the parsed vector and words of each stored paper whose texts are
    the ones embedded and indexed (the others are done again later)."""
    for paper_id, paper in papers.items():
        vector = parsed.get(paper_id)
        if vector is not None and vector.crc == text_crc(paper_text(paper)):
            kept.keep(paper, vector)
    if not parts:
        return
    from feedtui.discovery.word_parts import texts_crc

    where = {paper_id: (part, i) for part in parts for i, paper_id in enumerate(part.ids)}
    for paper_id, paper in papers.items():
        found = where.get(paper_id)
        if found is not None and found[0].crcs[found[1]] == texts_crc(paper):
            kept.words[paper_id] = (*found, paper.version)
