"""The starter catalogue: the topics feedtui ships with.

The topics live in `catalogue.toml` inside this package: read beside this
module when the package is files on disk (a wheel, a source checkout), else
with importlib.resources (a zip), whose import and zip support a start
does not otherwise need.
`load_catalogue()` parses and checks the file once per process; a broken entry
raises `CatalogueError` naming the topic (or its position when it has no name).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from feedtui.model import Topic, TopicDefinition

CATALOGUE_RESOURCE = "catalogue.toml"

_KNOWN_KEYS = frozenset({"name", "description", "query", "categories", "feeds"})


class CatalogueError(ValueError):
    """The catalogue file is malformed; the message names the topic at fault."""


def load_catalogue() -> list[Topic]:
    """Every catalogue topic (origin "catalogue"), in file order.

    Parsed once per process; each call returns a new list of the same frozen
    topics, so callers may sort or filter it freely.
    """
    return list(_load_cached())


@cache
def _load_cached() -> tuple[Topic, ...]:
    return tuple(parse_catalogue(_catalogue_text(), source=CATALOGUE_RESOURCE))


def _catalogue_text() -> str:
    try:
        return Path(__file__).with_name(CATALOGUE_RESOURCE).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # the package is not files on disk
        from importlib import resources

        return (resources.files(__package__) / CATALOGUE_RESOURCE).read_text(encoding="utf-8")


def parse_catalogue(text: str, source: str = "catalogue") -> list[Topic]:
    """Parse catalogue TOML (`[[topic]]` tables) into topics, checking every entry.

    Each topic needs a non-empty `name` unique across the file, a `description`,
    and a definition: a `query`, `categories` or `feeds` (any mix).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(f"{source}: not valid TOML: {error}") from error
    entries = data.get("topic")
    if not isinstance(entries, list) or not entries:
        raise CatalogueError(f"{source}: no [[topic]] entries")
    topics: list[Topic] = []
    seen: set[str] = set()
    for position, entry in enumerate(entries, start=1):
        topic = _topic_from_entry(entry, position, source)
        if topic.name.casefold() in seen:
            raise CatalogueError(f"{source}: topic {topic.name!r} is defined more than once")
        seen.add(topic.name.casefold())
        topics.append(topic)
    return topics


def _topic_from_entry(entry: object, position: int, source: str) -> Topic:
    where = f"{source}: topic #{position}"
    if not isinstance(entry, dict):
        raise CatalogueError(f"{where} is not a table")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CatalogueError(f"{where} has no name")
    name = name.strip()
    where = f"{source}: topic {name!r}"
    unknown = sorted(set(entry) - _KNOWN_KEYS)
    if unknown:
        raise CatalogueError(f"{where} has unknown keys: {', '.join(unknown)}")
    description = entry.get("description", "")
    if not isinstance(description, str) or not description.strip():
        raise CatalogueError(f"{where} has no description")
    query = entry.get("query", "")
    if not isinstance(query, str):
        raise CatalogueError(f"{where}: query must be a string")
    categories = _string_list(entry.get("categories", []), f"{where}: categories")
    feeds = _string_list(entry.get("feeds", []), f"{where}: feeds")
    definition = TopicDefinition(query=query.strip(), categories=categories, feeds=feeds)
    if definition.is_empty:
        raise CatalogueError(f"{where} has no definition (a query, categories or feeds)")
    return Topic(name=name, definition=definition, description=description.strip(), origin="catalogue")


def _string_list(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise CatalogueError(f"{what} must be a list of non-empty strings")
    return tuple(item.strip() for item in value)
