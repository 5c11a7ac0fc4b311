"""Extractive answers: the sentences of the top papers' abstracts that best
answer a question, quoted verbatim (never generated)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from feedtui.discovery.records import Quote
from feedtui.search import index_terms, query_terms

# A sentence ends at . ! or ? followed by space and a capital, a digit or an
# opening bracket; "e.g. the" and "et al. show" do not end one.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[(\[A-Z0-9])")
_NOT_AN_END = re.compile(r"(?:\b(?:e\.g|i\.e|et al|cf|Fig|Eq|vs|resp|approx)\.|\b[A-Z]\.)$")
MAX_QUOTES = 3
# Sentences shorter than this say too little to quote; longer ones are kept whole.
MIN_SENTENCE_CHARS = 25


def sentences(abstract: str) -> list[str]:
    """The abstract's sentences, each verbatim (whitespace inside kept as is)."""
    pieces = _SENTENCE_END.split(abstract.strip())
    out: list[str] = []
    for piece in pieces:
        if out and _NOT_AN_END.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    found = [s.strip() for s in out if s.strip()]
    # A head cut short ends in "…": its last sentence is not whole, and is not quoted.
    if found and found[-1].endswith("…"):
        found.pop()
    return found


def best_quotes(
    question: str,
    papers: Sequence[tuple[str, str]],
    *,
    semantic: Callable[[list[str]], list[float]] | None = None,
    limit: int = MAX_QUOTES,
) -> list[Quote]:
    """Up to `limit` sentences of these (paper id, abstract) pairs, given best
    paper first, that best answer `question`: the question's words they hold
    (rarer words count more), their meaning's closeness to the question's
    when `semantic` scores sentences, and a little their paper's rank. A
    sentence with none of the question's words and no closeness is never quoted;
    at most two come from one paper, and a sentence two papers share (a
    boilerplate opening, a paper's other version) is quoted once."""
    terms = set(query_terms(question))
    candidates: list[tuple[str, str, int]] = []
    for rank, (paper_id, abstract) in enumerate(papers):
        for sentence in sentences(abstract):
            if len(sentence) >= MIN_SENTENCE_CHARS:
                candidates.append((paper_id, sentence, rank))
    if not candidates or not terms:
        return []
    found = [set(index_terms(sentence)[0]) & terms for _, sentence, _ in candidates]
    # A word in every candidate tells them apart less than a rare one.
    weight = {t: math.log(1 + len(candidates) / (1 + sum(t in f for f in found))) for t in terms}
    top = sum(weight.values()) or 1.0
    closeness = semantic([sentence for _, sentence, _ in candidates]) if semantic else None
    scored = []
    for i, (paper_id, sentence, rank) in enumerate(candidates):
        lexical = sum(weight[t] for t in found[i]) / top
        close = max(0.0, closeness[i]) if closeness is not None else 0.0
        if lexical == 0 and close < 0.5:
            continue
        score = (lexical + close if closeness is not None else lexical) / (1 + 0.15 * rank)
        scored.append((score, i, paper_id, sentence))
    scored.sort(key=lambda item: (-item[0], item[1]))
    quotes: list[Quote] = []
    per_paper: dict[str, int] = {}
    quoted: set[str] = set()
    for _, _, paper_id, sentence in scored:
        said = " ".join(sentence.split()).casefold()
        if per_paper.get(paper_id, 0) >= 2 or said in quoted:
            continue
        quoted.add(said)
        per_paper[paper_id] = per_paper.get(paper_id, 0) + 1
        quotes.append(Quote(paper_id, sentence))
        if len(quotes) >= limit:
            break
    return quotes
