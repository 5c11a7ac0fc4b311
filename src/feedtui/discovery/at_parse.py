"""The papers' vectors and word index, computed beside a refresh's parsing.

A refresh parses each feed in a worker process (core/fetch.Parser), and the
parse worker hands over, with the papers, the texts they are embedded and
indexed by (`embedding_texts`). Another pool's workers embed and index
those (`embed_and_index`) at a lower priority (core/embedding.py), in the
time the parsers and the store leave free of the cores: most of a refresh
waits for the network, and a fast one ends with storing, on one core. Both
are of the texts and authors the paper had as parsed; the refresh keeps
them only for a paper stored with those very ones (`embedded_crc`,
`word_parts.texts_crc`, noted as it is stored), so a paper merged with
another source's copy is embedded and indexed again from what was stored."""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from feedtui.discovery.embed import embedded_text, text_crc
from feedtui.model import Paper


class ParsedVector(NamedTuple):
    """A paper's vector as computed beside its parser: int8 codes and their
    scale, its authors' keys (see discovery/authors.py), and the CRC-32 of
    the text embedded and the authors' names (`embedded_crc`)."""

    crc: int
    scale: float
    codes: bytes
    authors: list[str]


_ONE_AT_A_TIME = threading.Lock()

# The model of this process, loaded once; False: it cannot be, and nothing
# is embedded.
_model = None


def paper_text(paper: Paper) -> str:
    return embedded_text(paper.readable_title, paper.readable_abstract)


def embedded_crc(text: str, names: Sequence[str]) -> int:
    """What identifies the text a vector is of and the authors kept with it."""
    return text_crc("\x1f".join((text, *names)))


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


def embedding_texts(papers: Sequence[Paper]) -> bytes | None:
    """What `embed_and_index` needs of these papers (the last of each id: a
    feed naming one twice is stored as one), pickled here, in the parse
    worker, to be handed on as it is; None for no papers."""
    distinct = list({paper.id: paper for paper in papers}.values())
    if not distinct:
        return None
    ids = [paper.id for paper in distinct]
    titles = [paper.readable_title for paper in distinct]
    abstracts = [paper.readable_abstract for paper in distinct]
    names = [[a.name for a in paper.authors] for paper in distinct]
    return pickle.dumps((ids, titles, names, abstracts), protocol=5)


def prepare_embedding() -> None:
    """Load the model and what indexing words needs (for workers forked after)."""
    import feedtui.discovery.word_parts  # noqa: F401 (numpy and the search module)
    from feedtui.discovery.stem import stem

    stem("made")  # the stemmer
    load_model()


def embed_and_index(texts: bytes) -> tuple[dict[str, ParsedVector], Any]:
    """Each paper's ParsedVector by id, and the papers' word index (a WordPart)."""
    from feedtui.discovery.word_parts import words_of_texts

    ids, titles, names, abstracts = pickle.loads(texts)
    # One at a time: small feeds are done in threads of the refreshing
    # process, and the model's and the word index's tables of what they met
    # are the process's own.
    with _ONE_AT_A_TIME:
        words = words_of_texts(ids, [(title, " ".join(each), abstract) for title, each, abstract in zip(titles, names, abstracts)])
        return embed_texts(ids, titles, names, abstracts), words


def embed_papers(papers: Sequence[Paper]) -> dict[str, ParsedVector]:
    """`embed_texts` of these papers."""
    return embed_texts(
        [p.id for p in papers], [p.readable_title for p in papers], [[a.name for a in p.authors] for p in papers], [p.readable_abstract for p in papers]
    )


def embed_texts(ids: Sequence[str], titles: Sequence[str], names: Sequence[Sequence[str]], abstracts: Sequence[str]) -> dict[str, ParsedVector]:
    """Each paper's vector ({} without the model: computed later, or never)."""
    if not ids:
        return {}
    model = load_model()
    if model is False:
        return {}
    from feedtui.discovery.authors import author_key
    from feedtui.discovery.vectors import quantize

    texts = list(map(embedded_text, titles, abstracts))
    scales, codes = quantize(model.embed(texts))
    return {
        paper_id: ParsedVector(embedded_crc(text, each), float(scale), row.tobytes(), list(map(author_key, each)))
        for paper_id, text, each, scale, row in zip(ids, texts, names, scales.tolist(), codes)
    }


class StoredNote(NamedTuple):
    """What is kept of a paper as it is stored, to take its vector and words
    when they come: the CRCs of its texts, and what the vectors file keeps."""

    version: int
    embedded_crc: int
    texts_crc: int
    categories: list[str]


class KeptVectors:
    """Vectors a refresh computed for papers it stored, kept until they are
    written with the others (Engine.compute_vectors): codes in one buffer,
    not an object per paper. And where each stored paper's words are in the
    word indexes made beside the parsers (WordPart, position, version). And,
    until those come, a note of each paper stored (`note`, `take`)."""

    def __init__(self) -> None:
        self.words: dict[str, tuple[Any, int, int]] = {}
        self.ids: list[str] = []
        self.versions: list[int] = []
        self.scales: list[float] = []
        self.codes = bytearray()
        self.authors: list[list[str]] = []
        self.categories: list[list[str]] = []
        self.notes: dict[str, StoredNote] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def note(self, papers: Iterable[Paper]) -> None:
        """Note papers just stored (a later copy's note replaces an earlier one's)."""
        from feedtui.discovery.word_parts import texts_crc

        notes = self.notes
        for paper in papers:
            notes[paper.id] = StoredNote(
                paper.version,
                embedded_crc(paper_text(paper), [a.name for a in paper.authors]),
                texts_crc(paper),
                list(paper.categories),
            )

    def take(self, computed: Iterable[tuple[dict[str, ParsedVector], Any]]) -> None:
        """Keep the vectors and words computed beside the parsers for each
        noted paper whose texts are the ones embedded and indexed (the others
        are done again later); the notes are let go of."""
        notes, self.notes = self.notes, {}
        for vectors, part in computed:
            for paper_id, vector in vectors.items():
                note = notes.get(paper_id)
                if note is not None and vector.crc == note.embedded_crc:
                    self.ids.append(paper_id)
                    self.versions.append(note.version)
                    self.scales.append(vector.scale)
                    self.codes += vector.codes
                    self.authors.append(vector.authors)
                    self.categories.append(note.categories)
            if part is None:
                continue
            for position, (paper_id, crc) in enumerate(zip(part.ids, part.crcs)):
                note = notes.get(paper_id)
                if note is not None and crc == note.texts_crc:
                    self.words[paper_id] = (part, position, note.version)
