"""Listings for people and scripts: JSON that any locale can print, and a paper as JSON."""

from __future__ import annotations

import json
import sys
from datetime import datetime

from feedtui.model import UTC
from feedtui.output import takes_any_character


def paper_json(engine, paper, tags) -> dict:
    from feedtui.text.links import safe_link

    return {
        "id": paper.id,
        "version": paper.version,
        "title": paper.readable_title,
        "abstract": paper.readable_abstract,
        "published": iso(paper.published),
        "updated": iso(paper.updated),
        "primary_category": paper.primary_category,
        "categories": list(paper.categories),
        "authors": [a.name for a in paper.authors],
        "authors_omitted": paper.authors_omitted,
        "affiliations": list(paper.affiliations),
        "tags": list(tags),
        "read": engine.is_read(paper.id),
        "starred": engine.is_starred(paper.id),
        "url": safe_link(paper.abs_url) or "",
        "pdf_url": safe_link(paper.pdf_url) or "",
        "doi": paper.doi,
        "journal_ref": paper.journal_ref,
        "comment": paper.comment,
        "date_estimated": paper.date_estimated,
    }


def json_text(value: object, *, ascii_only: bool = False) -> str:
    """JSON for people and scripts, indented. orjson writes it (a large
    listing's JSON in a fraction of the standard library's time); text it
    refuses (a lone surrogate, which no output encoding takes) goes through
    the standard library, escaped, as does all text when `ascii_only`."""
    import orjson

    if not ascii_only:
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:
            pass
    return json.dumps(value, indent=2)


def print_json(value: object) -> None:
    """JSON on stdout; in a locale that cannot write every character
    (ISO-8859-1, ASCII), with `\\u` escapes for all but ASCII: the same JSON."""
    print(json_text(value, ascii_only=not takes_any_character(sys.stdout)))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
