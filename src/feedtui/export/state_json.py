"""The user's whole state as one JSON document, and merging such a document back.

Format 1 (the tables are the state store's own documents, keyed by topic
name, paper id or preference key):

    {"feedtui": "0.1.0", "format": 1, "exported": "2026-10-04T12:00:00Z",
     "follows":       {"Edge Inference": {"since": "2026-09-01T08:00:00+00:00"}},
     "read":          {"2609.01234": {"at": "2026-09-30T21:14:05+00:00"}},
     "starred":       {"2609.01240": {"at": "…"}},
     "topics":        {"Lab blog": {"feeds": ["https://…"], "query": "…", "description": "…", "updated": "…"}},
     "hidden_topics": {"Quantum Error Correction": {"at": "…"}},
     "prefs":         {"theme": {"value": "textual-light"}},
     "feedback":      {"2609.01250": {"value": 1, "at": "…"}}}

Left out: preferences that describe this machine's cache rather than the
user (`machine_pref`: when the cache was last refreshed, topic by topic),
and what lives elsewhere — the paper cache (refetched)
and topics from the config file (copy `config.toml` along).

Import merges and never removes or overwrites: an item already here is kept
as it is (a topic or preference that differs is reported as a conflict),
anything new is added, except that a catalogue topic followed here is not
hidden (that would take it from the reader). Invalid items are skipped and reported, as the CLI
would refuse them (a topic whose query does not parse, a paper key that is
neither an arXiv id nor a feed item's, a time that is not one, a hidden topic
the catalogue does not have); a document that is not a feedtui export, or
comes from a newer format, is refused whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from feedtui import __version__
from feedtui.core.state_tables import (
    FEEDBACK,
    FOLLOWS,
    HIDDEN_TOPICS,
    PREFS,
    READ,
    RENAMED_FROM,
    STARRED,
    TABLES,
    TOPICS,
    is_iso_time,
    machine_pref,
)
from feedtui.core.topics import check_definition
from feedtui.model import TopicDefinition, split_arxiv_id, utcnow
from feedtui.sources.parse.ids import WEB_PREFIX
from feedtui.text.sanitize import clean_line, strip_controls
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.names import name_key, name_problem
from feedtui.topics.query import QueryError

if TYPE_CHECKING:
    from feedtui.core.engine import Engine

FORMAT = 1


# The time each table's documents carry (a read mark's `at`, a follow's `since`):
# nothing reads it back, so one that is missing is let be, but not one that is wrong.
_TIME_FIELDS = {FOLLOWS: "since", READ: "at", STARRED: "at", HIDDEN_TOPICS: "at", FEEDBACK: "at"}
_WEB_KEY = re.compile(re.escape(WEB_PREFIX) + "[0-9a-f]+")  # what sources.parse.ids.web_key makes


_WORDS = {
    FOLLOWS: "follows",
    READ: "read marks",
    STARRED: "stars",
    TOPICS: "your topics",
    HIDDEN_TOPICS: "hidden catalogue topics",
    PREFS: "preferences",
    FEEDBACK: "more/less like this",
}


class Tables(Protocol):
    """What an import merges into: the state store itself, or the engine's
    user state (see import_state)."""

    def export(self) -> dict[str, dict[str, dict]]: ...

    def is_following(self, topic: str) -> bool: ...

    def replace_all(self, tables: dict[str, dict[str, dict]]) -> None: ...


class StateImportError(ValueError):
    """A document that cannot be imported at all; nothing was changed."""


@dataclass(slots=True)
class ImportSummary:
    added: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TABLES})
    already_here: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TABLES})
    conflicts: list[str] = field(default_factory=list)
    # What this machine keeps although the import would change it (not an error).
    kept: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    topics_added: list[str] = field(default_factory=list)

    @property
    def total_added(self) -> int:
        return sum(self.added.values())

    def lines(self) -> list[str]:
        """One line per table, then conflicts, skipped items and notes."""
        out = [
            f"{_WORDS[t]}: {self.added[t]} added, {self.already_here[t]} already here" for t in TABLES
        ]
        out += [f"kept this machine's {c}" for c in self.conflicts]
        out += [f"kept {k}" for k in self.kept]
        out += [f"skipped {s}" for s in self.skipped]
        out += self.notes
        return out


def export_store(store: Tables, *, now: datetime | None = None) -> dict[str, Any]:
    return export_tables(store.export(), now=now)


def export_tables(tables: dict[str, dict[str, dict]], *, now: datetime | None = None) -> dict[str, Any]:
    """The export document of the state file's tables."""
    document: dict[str, Any] = {
        "feedtui": __version__,
        "format": FORMAT,
        "exported": (now or utcnow()).isoformat(timespec="seconds").replace("+00:00", "Z"),
    }
    for table in TABLES:
        docs = tables.get(table, {})
        if table == PREFS:
            docs = {key: doc for key, doc in docs.items() if not machine_pref(key)}
        elif table == TOPICS:  # a note for the feedtuis open at the rename, not the user's
            docs = {key: {k: v for k, v in doc.items() if k != RENAMED_FROM} for key, doc in docs.items()}
        document[table] = {key: docs[key] for key in sorted(docs)}
    return document


def export_state(engine: Engine, *, now: datetime | None = None) -> dict[str, Any]:
    """The engine's whole user state (see the module docstring for the format)."""
    return export_tables(engine.user_state(), now=now)


def merge_into_store(
    store: Tables, data: Any, *, source: str = "the import", topic_name_problem: Callable[[str], str] = name_problem
) -> ImportSummary:
    """Add what `data` holds and this store lacks; raises StateImportError for an
    unusable document. `topic_name_problem` says why a topic new to the store
    cannot be added under its name ("" when it can); two names of the import
    that differ only in case are one name, and the second is skipped. The
    follow of a topic skipped for its name is skipped with it: follows go by
    name, case aside, so it would follow the topic here that has the name."""
    _check_header(data, source)
    tables = {table: _table(data, table, source) for table in TABLES}
    current = store.export()
    summary = ImportSummary()
    additions: dict[str, dict[str, dict]] = {table: {} for table in TABLES}
    # The topics added so far by name_key: looking through them all for each
    # topic made importing N topics take N² time.
    topics_added: dict[str, str] = {}
    # name_key of a topic skipped for its name → (its line in summary.skipped, name, why).
    refused_names: dict[str, tuple[int, str, str]] = {}
    for table, incoming in tables.items():
        for raw_key, doc in incoming.items():
            if table == PREFS and machine_pref(raw_key):
                continue
            checked = _check_item(table, raw_key, doc)
            if isinstance(checked, str):
                summary.skipped.append(checked)
                continue
            key, doc = checked
            here = current[table].get(key, additions[table].get(key))
            if here is None and table == HIDDEN_TOPICS and store.is_following(key):
                summary.kept.append(f"'{key}': you follow it here, so the import does not hide it (feedtui topic rm '{key}' would)")
                continue
            if here is None and table == TOPICS:
                problem = topic_name_problem(key)
                other = topics_added.get(name_key(key), "")
                if problem or other:
                    why = problem or f"the import names a topic '{other}' already, the same but for case"
                    if problem:
                        refused_names.setdefault(name_key(key), (len(summary.skipped), key, why))
                    summary.skipped.append(f"topic '{key}': {why}")
                    continue
            if here is None:
                additions[table][key] = doc
                summary.added[table] += 1
                if table == TOPICS:
                    summary.topics_added.append(key)
                    topics_added.setdefault(name_key(key), key)
                continue
            summary.already_here[table] += 1
            conflict = _conflict(table, key, here, doc)
            if conflict:
                summary.conflicts.append(conflict)
    _skip_follows_of(refused_names, topics_added, additions[FOLLOWS], summary)
    store.replace_all(additions)
    return summary


def _skip_follows_of(
    refused_names: dict[str, tuple[int, str, str]], topics_added: dict[str, str], follows: dict[str, dict], summary: ImportSummary
) -> None:
    """Take back the follows of topics skipped for their names (`refused_names`:
    name_key → their line in summary.skipped, name and why), saying so on that line."""
    for name in list(follows):
        refused = refused_names.get(name_key(name))
        if refused and name_key(name) not in topics_added:
            line, topic, why = refused
            del follows[name]
            summary.added[FOLLOWS] -= 1
            summary.skipped[line] = f"topic '{topic}' and its follow: {why}"


class _EngineTables:
    """The engine's user state, as an import merges into it."""

    def __init__(self, engine: Engine) -> None:
        self.export = engine.user_state
        self.is_following = engine.is_following
        self.replace_all = engine.add_user_state


def import_state(engine: Engine, data: Any, *, source: str = "the import") -> ImportSummary:
    """Merge into the engine's state and bring its topics and unread counts up to date.

    Topics added here still need tagging (`engine.retag(summary.topics_added)`),
    which reads the whole cache; the caller decides when.
    """
    summary = merge_into_store(
        _EngineTables(engine), data, source=source, topic_name_problem=lambda name: engine.topic_name_problem(name, replace=True)
    )
    engine.take_state_change()
    shown = {name_key(name) for name in engine.topic_names()}
    not_shown = sorted(name for name in engine.follows() if name_key(name) not in shown)
    hidden = [name for name in not_shown if engine.hidden_catalogue_topic(name)]
    missing = [name for name in not_shown if name not in hidden]
    if hidden:
        summary.notes.append(
            "you follow catalogue topics that are hidden here: " + ", ".join(hidden)
            + f" (feedtui topic restore '{engine.hidden_catalogue_topic(hidden[0])}' shows one again)"
        )
    if missing:
        summary.notes.append(
            "you follow topics that do not exist here: " + ", ".join(missing)
            + " (topics from a config file need that config.toml copied too)"
        )
    return summary


def _check_header(data: Any, source: str) -> None:
    if not isinstance(data, dict) or "feedtui" not in data or "format" not in data:
        raise StateImportError(
            f'{source}: not a feedtui state export (it lacks the "feedtui" and "format" fields); '
            "make one with `feedtui export json`"
        )
    version = data["format"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise StateImportError(f"{source}: unknown export format {version!r}")
    if version > FORMAT:
        raise StateImportError(
            f"{source} was written by a newer feedtui ({clean_line(str(data['feedtui']))}, export format "
            f"{version}); this feedtui {__version__} reads format {FORMAT}: upgrade feedtui to import it"
        )


def _table(data: dict, table: str, source: str) -> dict:
    value = data.get(table, {})
    if not isinstance(value, dict):
        raise StateImportError(f'{source}: "{table}" should be an object of entries, not {type(value).__name__}')
    return value


def _check_item(table: str, raw_key: Any, doc: Any) -> tuple[str, dict] | str:
    """(key, document) ready to store, or why the item is skipped."""
    key = clean_line(raw_key, html_allowed=False) if isinstance(raw_key, str) else ""
    if not key:
        shown = clean_line(str(raw_key), html_allowed=False)[:80]
        return f"{_WORDS[table]}: an entry with an empty or invalid name ({shown!r})"
    if not isinstance(doc, dict):
        return f"{_WORDS[table]}: '{key}' is not an object"
    if table == TOPICS:
        topic = _topic_document(doc)
        return (key, topic) if isinstance(topic, dict) else f"topic '{key}': {topic}"
    if table == FEEDBACK and doc.get("value") not in (1, -1):
        return f"{_WORDS[table]}: '{key}' holds a value that is not 1 or -1"
    if table in (READ, STARRED, FEEDBACK):
        paper = _paper_key(key)
        if not paper:
            return f"{_WORDS[table]}: '{key}' is not an arXiv id or a feed item's id"
        key = paper
    if table == HIDDEN_TOPICS and key not in {topic.name for topic in load_catalogue()}:
        return f"{_WORDS[table]}: '{key}' is not a catalogue topic"
    time_field = _TIME_FIELDS.get(table, "")
    if time_field in doc and not is_iso_time(doc[time_field]):
        return f"{_WORDS[table]}: '{key}': {time_field!r} is not an ISO 8601 time ({_short(doc[time_field])})"
    try:
        # What the state file cannot hold (a number beyond 64 bits, say) is
        # refused here, rather than failing the whole save later.
        orjson.dumps(doc)
    except TypeError as error:
        return f"{_WORDS[table]}: '{key}' holds a value feedtui cannot store ({clean_line(str(error))})"
    return key, dict(doc)


def _topic_document(doc: dict) -> dict | str:
    """The topic as the store keeps it (text cleaned), or what is wrong with it."""
    query, categories, feeds = doc.get("query", ""), doc.get("categories", []), doc.get("feeds", [])
    description, updated = doc.get("description", ""), doc.get("updated")
    if not isinstance(query, str) or not isinstance(description, str):
        return "its query and description must be text"
    if not _strings(categories) or not _strings(feeds):
        return "its categories and feeds must be lists of text"
    definition = TopicDefinition(
        query=strip_controls(query).strip(),
        categories=tuple(clean_line(c, html_allowed=False) for c in categories),
        feeds=tuple(feeds),
    )
    if definition.is_empty:
        return "it has no query, categories or feeds"
    try:
        definition = check_definition(definition)
    except QueryError as error:
        return f"bad query: {error}"
    except ValueError as error:
        return str(error)
    topic = {**definition.to_dict(), "description": clean_line(description, html_allowed=False)}
    if isinstance(updated, str):
        topic["updated"] = updated
    return topic


def _paper_key(key: str) -> str:
    """The key a paper is stored under (an arXiv id without its version, as
    the CLI takes ids), or "" when `key` is not a paper's."""
    split = split_arxiv_id(key)
    if split:
        return split[0]
    return key if _WEB_KEY.fullmatch(key) else ""


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _conflict(table: str, key: str, here: dict, incoming: dict) -> str:
    if table == TOPICS:
        return _topic_conflict(key, here, incoming)
    if table == PREFS and here.get("value") != incoming.get("value"):
        return f"preference '{key}' = {_short(here.get('value'))}; the imported one is {_short(incoming.get('value'))}"
    return ""


def _topic_conflict(key: str, here: dict, incoming: dict) -> str:
    """What differs between the two versions of a topic, each side in words ("" when nothing)."""
    mine: list[str] = []
    theirs: list[str] = []
    definitions = TopicDefinition.from_dict(here), TopicDefinition.from_dict(incoming)
    if definitions[0] != definitions[1]:
        mine.append(definitions[0].describe())
        theirs.append(definitions[1].describe())
    descriptions = here.get("description", ""), incoming.get("description", "")
    if descriptions[0] != descriptions[1]:
        mine.append(_description(descriptions[0]))
        theirs.append(_description(descriptions[1]))
    if not mine:
        return ""
    return f"topic '{key}' ({'; '.join(mine)}); the imported one differs ({'; '.join(theirs)})"


def _description(text: str) -> str:
    return f"description {_short(text)}" if text else "no description"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"
