"""The [[topic]] tables: each becomes a config topic, or is left out with
the reason why."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from feedtui.config.locate import Locator
from feedtui.config.result import Config, ConfigProblem
from feedtui.config.wording import did_you_mean, show_value
from feedtui.model import Topic, TopicDefinition
from feedtui.text.links import FeedUrlError, feed_url
from feedtui.text.sanitize import clean_line

TOPIC_KEYS = ("name", "description", "query", "categories", "feeds")


def apply_topics(config: Config, values: Any, where: Locator) -> None:
    path = config.path or Path("config.toml")
    if not isinstance(values, list):
        config.problems.append(ConfigProblem(path, where.header("topic"), "topics are written as [[topic]] tables (two brackets), one per topic"))
        return
    from feedtui.topics.names import same_name

    for number, entry in enumerate(values, start=1):
        topic, problems = _topic_from_table(number, entry)
        if topic is not None and (other := same_name(topic.name, (t.name for t in config.topics))):
            problems.append(("", f"topic '{topic.name}': topic '{other}' above has this name (case aside); left out"))
            topic = None
        found = [
            ConfigProblem(path, where.key(f"topic#{number}", key) if key else where.header(f"topic#{number}"), problem)
            for key, problem in problems
        ]
        config.problems.extend(found)
        if topic is not None:
            config.topics.append(topic)
        elif found and (name := _table_name(entry)):
            config.left_out.setdefault(name, found[-1])
        elif found:
            config.nameless_left_out += 1


def _table_name(entry: Any) -> str:
    """The name a [[topic]] table gives, cleaned ("" when it gives none)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return ""
    return clean_line(entry["name"], html_allowed=False)


_CATEGORY_SHAPE = re.compile(r"^[A-Za-z-]+(\.[A-Za-z-]+)?$")


def _topic_from_table(number: int, entry: Any) -> tuple[Topic | None, list[tuple[str, str]]]:
    """A [[topic]] table as a Topic, or None (left out) — with what was wrong,
    each problem as (the key it is about or "", the message)."""
    from feedtui.topics.query import QueryError, parse_query

    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        # `nam = "…"`: the misspelt key is named, as it is in a table with a name.
        misspelt = _unknown_topic_keys(f"topic #{number}", entry) if isinstance(entry, dict) else []
        return None, misspelt + [("", f'topic #{number} needs a name = "…"; it is left out')]
    from feedtui.topics.names import name_problem

    name = clean_line(entry["name"], html_allowed=False)
    if problem := name_problem(name):
        return None, [("name", f"topic #{number}: {problem}; it is left out")]
    problems = _unknown_topic_keys(f"topic '{name}'", entry)
    left_out = "; the topic is left out"
    for key in ("description", "query"):
        if not isinstance(entry.get(key, ""), str):
            return None, problems + [(key, f"topic '{name}': {key} must be a string in quotes{left_out}")]
    lists: dict[str, tuple[str, ...]] = {}
    for key, example in (("categories", '["cs.DC", "cs.AR"]'), ("feeds", '["https://example.org/feed.xml"]')):
        value = entry.get(key, [])
        if isinstance(value, str) and key == "feeds":
            # Not split as categories are: a URL may hold a comma.
            problems.append((key, f"topic '{name}': feeds is a list, like {example}; {show_value(value)} is read as its one feed"))
            items = [value]
        else:
            items = value.replace(",", " ").split() if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            return None, problems + [(key, f"topic '{name}': {key} must be a list of strings like {example}{left_out}")]
        checked: list[str] = []
        for item in items:
            why = f" (like {example})"
            if key == "feeds":
                try:
                    checked.append(feed_url(item))  # the check every way of adding a feed goes through
                    continue
                except FeedUrlError as error:
                    why = f": it {error.problem}"
            elif _CATEGORY_SHAPE.match(item.strip()):
                checked.append(item.strip())
                continue
            return None, problems + [(key, f"topic '{name}': {show_value(item)} is not valid in {key}{why}{left_out}")]
        lists[key] = tuple(checked)
    definition = TopicDefinition(query=entry.get("query", "").strip(), categories=lists["categories"], feeds=lists["feeds"])
    if definition.is_empty:
        return None, problems + [("", f"topic '{name}' needs a query, categories or feeds{left_out}")]
    if definition.query:
        try:
            parse_query(definition.query)
        except QueryError as error:
            # Kept, so that its name stays its own and the app shows the error
            # where the topic is; it tags nothing until the query is fixed.
            problems.append(("query", f"topic '{name}': bad query: {error}; the topic tags nothing until it is fixed"))
    return Topic(name, definition, entry.get("description", "").strip(), origin="config"), problems


def _unknown_topic_keys(topic: str, entry: dict) -> list[tuple[str, str]]:
    return [
        (key, f"{topic}: unknown key '{key}'{did_you_mean(key, TOPIC_KEYS)} (keys: {', '.join(TOPIC_KEYS)}); ignored")
        for key in entry
        if key not in TOPIC_KEYS
    ]
