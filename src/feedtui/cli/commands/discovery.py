"""The discovery commands: `ask` (a question over the whole cache or one
topic), `related` (the papers most related to one) and `foryou` (unread
papers ranked by your taste). `--json` prints one list on stdout, rows as
`papers --json` gives them plus `score` (and `sentences` or `why`); notes
go to stderr."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from feedtui.cli.commands.papers import only_paper_ids
from feedtui.cli.listing import paper_json, print_json
from feedtui.cli.status import EXIT_OK, UsageError
from feedtui.discovery.records import Hit
from feedtui.model import shown_title
from feedtui.text.sanitize import clean_line


def cmd_ask(engine, args) -> int:
    from feedtui.search import has_words, query_terms

    _check_limit(args.limit)
    if not has_words(args.question) or not query_terms(args.question):
        raise UsageError("the question has no words to search for: ask with words")
    answer = engine.ask(args.question, topic=args.topic, limit=args.limit)
    if answer.note:
        _note(answer.note)
    if not args.json:
        for quote in answer.quotes:
            print(f"“{clean_line(quote.sentence, html_allowed=False)}” [{quote.paper_id}]")
        if answer.quotes:
            print()
    _show(engine, answer.hits, args.json, extra=lambda hit: {"sentences": list(hit.sentences)})
    return EXIT_OK


def cmd_related(engine, args) -> int:
    only_paper_ids([args.id])
    known, _ = engine.resolve_ids([args.id])
    if not known:
        raise UsageError(f"{args.id}: not in the cache (refresh first, or check the id)")
    _check_limit(args.limit)
    _show(engine, engine.related(known[0], limit=args.limit), args.json)
    return EXIT_OK


def cmd_foryou(engine, args) -> int:
    _check_limit(args.limit)
    result = engine.for_you(limit=args.limit)
    if result.note:
        _note(result.note)
    _show(engine, result.hits, args.json, extra=lambda hit: {"why": hit.why}, why=True)
    return EXIT_OK


def _check_limit(limit: int) -> None:
    if limit < 0:
        raise UsageError("--limit must be 0 or more")


def _note(text: str) -> None:
    print(f"feedtui: {text}", file=sys.stderr)


def _show(engine, hits: Sequence[Hit], as_json: bool, *, extra=None, why: bool = False) -> None:
    papers = engine.papers_by_id([hit.paper_id for hit in hits])
    library = engine.library
    shown = [(hit, papers[hit.paper_id]) for hit in hits if hit.paper_id in papers]
    if as_json:
        rows = []
        for hit, paper in shown:
            row = paper_json(engine, paper, library.tags_of(library.pos[paper.id]))
            row["score"] = hit.score
            if extra is not None:
                row.update(extra(hit))
            rows.append(row)
        print_json(rows)
        return
    width = max([16, *(len(paper.versioned_id) for _, paper in shown)])
    for hit, paper in shown:
        mark = " " if engine.is_read(paper.id) else "●"
        star = "★" if engine.is_starred(paper.id) else " "
        print(f"{mark}{star} {paper.versioned_id:<{width}} {paper.published:%Y-%m-%d} {hit.score:8.4f}  {shown_title(paper.readable_title)}")
        if why and hit.why:
            print(f"{'':{width + 4}}{clean_line(hit.why, html_allowed=False)}")
