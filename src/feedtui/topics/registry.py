"""The topics a user sees: the catalogue, their config file and their own.

Later sources win by name: a user topic (added with `feedtui topic add` or the
TUI) overrides a config topic, which overrides the catalogue topic of the same
name. Catalogue topics the user removed stay hidden. A topic whose query does
not parse is kept (so it can be fixed) with its error, and tags nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from feedtui.model import Topic, TopicDefinition
from feedtui.topics.query import Query, QueryError, parse_query


@dataclass(frozen=True, slots=True)
class TopicEntry:
    topic: Topic
    query: Query | None
    error: str = ""

    @property
    def name(self) -> str:
        return self.topic.name

    @property
    def signature(self) -> str:
        return definition_signature(self.topic.definition)


def definition_signature(definition: TopicDefinition) -> str:
    """Changes whenever what the topic matches could change."""
    from feedtui.topics.tagging import MATCHER_VERSION

    text = "\x1f".join(
        [MATCHER_VERSION, definition.query, " ".join(definition.categories), " ".join(definition.feeds)]
    )
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def compile_topic(topic: Topic) -> TopicEntry:
    if not topic.definition.query:
        return TopicEntry(topic, None)
    try:
        return TopicEntry(topic, parse_query(topic.definition.query))
    except QueryError as error:
        return TopicEntry(topic, None, f"topic '{topic.name}': {error}")


class TopicRegistry:
    def __init__(
        self,
        catalogue: list[Topic],
        config_topics: list[Topic],
        user_topics: dict[str, dict],
        hidden: set[str],
    ) -> None:
        merged: dict[str, Topic] = {}
        for topic in catalogue:
            if topic.name not in hidden:
                merged[topic.name] = topic
        for topic in config_topics:
            merged[topic.name] = topic
        for name, doc in user_topics.items():
            merged[name] = Topic(
                name, TopicDefinition.from_dict(doc), str(doc.get("description", "")), origin="user"
            )
        self.entries: dict[str, TopicEntry] = {name: compile_topic(t) for name, t in merged.items()}
        self.catalogue_names = {t.name for t in catalogue}

    def __contains__(self, name: str) -> bool:
        return name in self.entries

    def __iter__(self):
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def names(self) -> list[str]:
        return list(self.entries)

    def get(self, name: str) -> TopicEntry | None:
        return self.entries.get(name)

    def resolve(self, name: str) -> TopicEntry:
        """The topic called `name`, forgiving case and unambiguous prefixes."""
        if name in self.entries:
            return self.entries[name]
        folded = name.casefold().strip()
        exact = [e for n, e in self.entries.items() if n.casefold() == folded]
        if len(exact) == 1:
            return exact[0]
        prefixed = [e for n, e in self.entries.items() if n.casefold().startswith(folded)]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            options = ", ".join(sorted(e.name for e in prefixed)[:6])
            raise KeyError(f"'{name}' matches several topics: {options}")
        raise KeyError(f"no topic called '{name}' (feedtui topics lists them)")

    def problems(self) -> list[str]:
        return [e.error for e in self.entries.values() if e.error]
