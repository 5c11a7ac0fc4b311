"""What a well-formed file of each kind holds.

A file can be valid JSON and still not be what feedtui wrote: edited by hand,
written by another program, or a copy from somewhere else. Each check below
returns "" when the parsed contents have the shape their reader relies on,
else a short description of the first thing that is wrong; the readers turn
that into a `DamagedFileError` (the file is kept aside, the user is told).
The checks look at types only where a wrong one would crash a reader or
reach the screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, get_origin, get_type_hints

from feedtui.store.codec import CardRow
from feedtui.text.sanitize import strip_controls

Data = Mapping[str, Mapping[str, Any]]

# Card rows as written to disk: a JSON array of CardRow's fields, each of
# the type CardRow declares for it.
CARD_ROW_TYPES = tuple(get_origin(kind) or kind for kind in get_type_hints(CardRow).values())
_SHARD_POSITION = CardRow._fields.index("shard")
_FETCHED_FOR_POSITION = CardRow._fields.index("fetched_for")

# Optional fields of a stored paper and their types (codec.paper_to_doc).
_PAPER_FIELDS: dict[str, type] = {
    "version": int,
    "title": str,
    "abstract": str,
    "title_display": str,
    "abstract_display": str,
    "updated": str,
    "authors": list,
    "authors_omitted": int,
    "primary_category": str,
    "categories": list,
    "comment": str,
    "journal_ref": str,
    "doi": str,
    "abs_url": str,
    "pdf_url": str,
    "announce_type": str,
    "date_estimated": bool,
    "sources": list,
    "fetched_for": list,
    "secondhand": bool,
    "first_seen": str,
}


def shown(key: object) -> str:
    """A key from a file, fit for a one-line message."""
    return repr(strip_controls(str(key))[:60])


def _strings(value: object) -> bool:
    return type(value) is list and set(map(type, value)) <= {str}


def _table(data: Data, name: str) -> Mapping[str, Any]:
    return data.get(name, {})


def _documents(data: Data, name: str) -> str:
    for key, doc in _table(data, name).items():
        if type(doc) is not dict:
            return f"{name} entry {shown(key)} is not an object"
    return ""


def state_shape(data: Data) -> str:
    """state.json: follows, read, starred, hidden topics, topics, prefs, feedback, meta."""
    for name in ("follows", "read", "starred", "hidden_topics", "prefs", "topics", "feedback", "meta"):
        problem = _documents(data, name)
        if problem:
            return problem
    for name, doc in _table(data, "topics").items():
        for key in ("query", "description"):
            if key in doc and type(doc[key]) is not str:
                return f"topic {shown(name)} has a {key} that is not text"
        for key in ("categories", "feeds"):
            if key in doc and not _strings(doc[key]):
                return f"topic {shown(name)} has {key} that are not a list of text"
    schema = _table(data, "meta").get("schema")
    if schema is not None and type(schema.get("version", 0)) is not int:
        return "the schema version is not a number"
    return ""


def fetch_state_shape(data: Data) -> str:
    """http.json: validators, answered queries, new-paper totals."""
    for name in ("validators", "answered", "totals"):
        problem = _documents(data, name)
        if problem:
            return problem
    for url, doc in _table(data, "validators").items():
        if not all(type(doc.get(k, "")) is str for k in ("etag", "last_modified")):
            return f"the validators of {shown(url)} are not text"
    for key, doc in _table(data, "answered").items():
        if type(doc.get("at")) is not str or not is_iso_time(doc["at"]):
            return f"the answered time of {shown(key)} is not a time"
    for key, doc in _table(data, "totals").items():
        if type(doc.get("total")) is not int or type(doc.get("day")) is not str:
            return f"the total {shown(key)} is not a count with its day"
    return ""


def tags_shape(data: Data) -> str:
    """cache/tags.json: per topic, a definition signature and paper ids."""
    problem = _documents(data, "topics")
    if problem:
        return problem
    for name, doc in _table(data, "topics").items():
        if type(doc.get("sig", "")) is not str or not _strings(doc.get("ids", [])):
            return f"the tags of topic {shown(name)} are not a list of paper ids"
    return ""


def index_shape(shard: str) -> Callable[[Data], str]:
    """cache/index/<week>.json: card rows of that week's papers."""

    def check(data: Data) -> str:
        for paper_id, row in _table(data, "cards").items():
            if type(row) is not list or tuple(map(type, row)) != CARD_ROW_TYPES:
                return f"the card of {shown(paper_id)} is not a card row"
            if row[_SHARD_POSITION] != shard or not _strings(row[_FETCHED_FOR_POSITION]):
                return f"the card of {shown(paper_id)} does not belong to the week of {shard}"
        return ""

    return check


def heads_shape(data: Data) -> str:
    """cache/heads/<week>.json: abstract heads by paper id."""
    for paper_id, head in _table(data, "heads").items():
        if type(head) is not str:
            return f"the abstract head of {shown(paper_id)} is not text"
    return ""


def papers_shape(data: Data) -> str:
    """cache/papers/<week>.json: full paper documents."""
    for paper_id, doc in _table(data, "papers").items():
        problem = paper_document_problem(doc)
        if problem:
            return f"paper {shown(paper_id)}: {problem}"
    return ""


def paper_document_problem(doc: object) -> str:
    if type(doc) is not dict:
        return "not an object"
    if type(doc.get("published")) is not str or not is_iso_time(doc["published"]):
        return "no valid first-version date"
    for key, kind in _PAPER_FIELDS.items():
        if key in doc and type(doc[key]) is not kind:
            return f"{key} has the wrong type"
    if "updated" in doc and not is_iso_time(doc["updated"]):
        return "updated is not a time"
    for key in ("categories", "sources", "fetched_for"):
        if key in doc and not _strings(doc[key]):
            return f"{key} are not a list of text"
    for author in doc.get("authors", ()):
        if type(author) is not list or len(author) != 2 or type(author[0]) is not str or not _strings(author[1]):
            return "an author is not a name with affiliations"
    return ""


def is_iso_time(value: object) -> bool:
    """An ISO 8601 time as feedtui writes them (`Z` for UTC allowed)."""
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True
