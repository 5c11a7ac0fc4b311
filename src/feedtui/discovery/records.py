"""What discovery answers with: named records, importable without numpy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Hit(NamedTuple):
    """A paper in a ranked answer."""

    paper_id: str
    score: float
    sentences: tuple[str, ...] = ()  # Ask: quoted answer sentences from this paper
    why: str = ""  # For you: 'like: <title>' or 'matches topic <name>'


class Quote(NamedTuple):
    """A sentence of a paper's abstract, verbatim, that answers a question."""

    paper_id: str
    sentence: str


@dataclass(frozen=True, slots=True)
class Answer:
    """Ask's answer: the ranked papers and the sentences that best answer."""

    question: str
    hits: list[Hit]  # best first
    quotes: list[Quote]  # the few (<=3) sentences that best answer, best first
    terms: tuple[str, ...]  # the question's words, for highlighting
    semantic: bool  # False: lexical only (model missing or damaged, no vectors)
    note: str = ""  # one line to show when semantic is False (why)


@dataclass(frozen=True, slots=True)
class ForYou:
    """Unread recent papers ranked by the user's taste, each saying why."""

    hits: list[Hit]
    fallback: bool  # True: no stars or feedback yet, ranked by followed topics' queries
    note: str = ""
