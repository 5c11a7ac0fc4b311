"""What may name a topic: one rule for `feedtui topic add`, the OPML and JSON
imports, the app's topic form and the config file's [[topic]] tables, and
the one name lookup that forgives case (`same_name`).

A name is one line of plain text (control characters and runs of spaces are
cleaned away before this rule sees it), at most `MAX_TOPIC_NAME` characters,
unique but for case (the app and the CLI find topics forgiving case, so
"edge inference" beside "Edge Inference" could never be told apart), and not
the reading list's name, which the app's sidebar shows as a row of its own,
with or without its star (a followed topic's row starts with the same ★).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# The reading list's row in the sidebar (the app's "topic" of starred papers).
READING_LIST = "★ Starred"

# Longer names would not fit a sidebar or a header.
MAX_TOPIC_NAME = 120


def name_key(name: str) -> str:
    """Names with the same key are the same name: case and Unicode spelling aside."""
    return unicodedata.normalize("NFC", name).casefold()


def name_problem(name: str) -> str:
    """What is wrong with a cleaned name on its own ("" when nothing)."""
    if not name:
        return "a topic needs a name"
    if len(name) > MAX_TOPIC_NAME:
        return f"a topic name has at most {MAX_TOPIC_NAME} characters"
    if is_reading_list_name(name):
        return f"'{READING_LIST}' is the reading list's name; choose another name for a topic"
    return ""


def fit_name(name: str, suffix: str = "") -> str:
    """`name` followed by `suffix` (" (2)", " (feeds)"), with `name` cut short,
    ending in `…`, so that the whole is at most MAX_TOPIC_NAME characters: for
    names made from another reader's titles, which may be longer."""
    room = MAX_TOPIC_NAME - len(suffix)
    if len(name) > room:
        name = name[: room - 1].rstrip() + "…"
    return name + suffix


def is_reading_list_name(name: str) -> bool:
    """`★ Starred`, or `Starred` (case aside), which followed would read the same."""
    return name_key(name.lstrip("★").strip()) == name_key(READING_LIST.lstrip("★").strip())


def same_name(name: str, names: Iterable[str]) -> str:
    """The first of `names` that is `name` but for case ("" when none is)."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), "")
