"""The topics a user sees: the catalogue, their config file and their own.

Later sources win by name, case aside (`topics.names`): a user topic (added
with `feedtui topic add` or the TUI) overrides a config topic, which overrides
the catalogue topic of the same name. Catalogue topics the user removed stay hidden. A topic whose query does
not parse is kept (so it can be fixed) with its error, and tags nothing.
"""

from __future__ import annotations

import hashlib

from feedtui.model import Topic, TopicDefinition
from feedtui.slot_record import SlotRecord
from feedtui.topics.names import name_key, same_name
from feedtui.topics.query import Query, QueryError, category_query, combine_all, combine_any, parse_query

# How many of the topics an ambiguous name begins are named; the others are counted.
AMBIGUOUS_LISTED = 6

# The version of local matching (the query's evaluation, `topics.tagging`'s
# gates): bump it when matching changes meaning, so that every topic's
# signature changes and stored tags are recomputed.
MATCHER_VERSION = "1"

# The config's `hide` query, tagged as a topic is under this name, which no
# topic can have (a name is cleaned of control characters): its papers are
# left out of every topic (core/library.py).
HIDE_TOPIC = "\x00hide"


class CompiledTopic(SlotRecord):
    """A topic's parsed query (a plain slotted class: the registry is imported
    on the way to the reader's first paint, see slot_record.py)."""

    __slots__ = ("query", "error", "api_query")

    def __init__(
        self,
        query: Query | None,
        error: str = "",
        # What the arXiv API is asked to fetch the topic's arXiv papers: its
        # categories (as `cat:` terms) AND its query. None for a topic of feeds
        # without categories, and for a topic with an error.
        api_query: Query | None = None,
    ) -> None:
        self.query = query
        self.error = error
        self.api_query = api_query


class TopicEntry:
    """A topic and its compiled query.

    The query is parsed the first time it is asked for: a command or a start
    that never looks at most topics' queries (a refresh that gets 304s, the
    reader until something is tagged) does not pay for parsing all of them."""

    __slots__ = ("topic", "_compiled")

    def __init__(self, topic: Topic, compiled: CompiledTopic | None = None) -> None:
        self.topic = topic
        self._compiled = compiled

    def __repr__(self) -> str:
        return f"TopicEntry({self.topic!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TopicEntry) and other.topic == self.topic

    def __hash__(self) -> int:
        return hash(self.topic)

    @property
    def compiled(self) -> CompiledTopic:
        compiled = self._compiled
        if compiled is None:  # two threads may both compile: same result
            compiled = self._compiled = _compile(self.topic)
        return compiled

    @property
    def query(self) -> Query | None:
        return self.compiled.query

    @property
    def error(self) -> str:
        """Why the query does not compile, or "". A catalogue topic's is
        always "" and known without parsing: the catalogue ships with feedtui
        and is tested to compile (tests/topics/test_catalogue.py)."""
        if self._compiled is None and self.topic.origin == "catalogue":
            return ""
        return self.compiled.error

    @property
    def api_query(self) -> Query | None:
        return self.compiled.api_query

    @property
    def name(self) -> str:
        return self.topic.name

    @property
    def signature(self) -> str:
        return definition_signature(self.topic.definition)

    @property
    def fetch_key(self) -> str:
        """How a paper records that the API returned it for this topic's own
        query (`Paper.fetched_for`): the name and a digest of the query sent,
        so a changed query no longer claims what the old one fetched."""
        if self.api_query is None:
            return ""
        digest = hashlib.blake2b(self.api_query.to_api().encode(), digest_size=6).hexdigest()
        return f"{self.name}@{digest}"


def user_topic(name: str, document: dict) -> Topic:
    """A topic of the user's, from its document in state.json."""
    return Topic(name, TopicDefinition.from_dict(document), str(document.get("description", "")), origin="user")


def definition_signature(definition: TopicDefinition) -> str:
    """Changes whenever what the topic matches could change."""
    text = "\x1f".join(
        [MATCHER_VERSION, definition.query, " ".join(definition.categories), " ".join(definition.feeds)]
    )
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def compile_topic(topic: Topic) -> TopicEntry:
    """The topic's entry, its query compiled now."""
    return TopicEntry(topic, _compile(topic))


def _compile(topic: Topic) -> CompiledTopic:
    definition = topic.definition
    query: Query | None = None
    if definition.query:
        try:
            query = parse_query(definition.query)
        except QueryError as error:
            return CompiledTopic(None, f"topic '{topic.name}': {error}")
    if not definition.categories:
        # A bare query is fetched as it is; feeds with a query only narrow the feeds.
        return CompiledTopic(query, api_query=None if definition.feeds else query)
    try:
        in_categories = combine_any(category_query(c) for c in definition.categories)
    except ValueError as error:
        return CompiledTopic(None, f"topic '{topic.name}': {error}")
    api_query = in_categories if query is None else combine_all([in_categories, query])
    return CompiledTopic(query, api_query=api_query)


class TopicRegistry:
    def __init__(
        self,
        catalogue: list[Topic],
        config_topics: list[Topic],
        user_topics: dict[str, dict],
        hidden: set[str],
        hide: str = "",
    ) -> None:
        self.entries: dict[str, TopicEntry] = {}
        # The config's `hide` query as a topic to tag (None: nothing hidden).
        self.hide = TopicEntry(Topic(HIDE_TOPIC, TopicDefinition(query=hide), origin="config")) if hide else None
        self._names_by_key: dict[str, str] = {}
        for topic in catalogue:
            if topic.name not in hidden:
                self.put(topic)
        for topic in config_topics:
            self.put(topic)
        for name, doc in user_topics.items():
            self.put(user_topic(name, doc))
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

    def tagged(self) -> list[TopicEntry]:
        """What tagging evaluates: the hide query first (when there is one),
        then every topic. Only the tagging paths see the hide query; every
        list of topics leaves it out."""
        return [self.hide, *self.entries.values()] if self.hide is not None else list(self.entries.values())

    def tagged_entry(self, name: str) -> TopicEntry | None:
        """The topic, or the hide query, tagged under `name`."""
        if name == HIDE_TOPIC:
            return self.hide
        return self.entries.get(name)

    def same_name(self, name: str) -> str:
        """The topic's name that is `name` but for case ("" when none is)."""
        return self._names_by_key.get(name_key(name), "")

    def put(self, topic: Topic) -> None:
        """Add a topic, or replace the one of its name by name_key: the later
        spelling wins, in the earlier one's place (a config topic over the
        catalogue's, the user's over both, a topic added in a batch; see
        Engine.adding_topics)."""
        key = name_key(topic.name)
        old = self._names_by_key.get(key)
        if old is not None and old != topic.name:
            self.entries = {topic.name if name == old else name: entry for name, entry in self.entries.items()}
        self.entries[topic.name] = TopicEntry(topic)
        self._names_by_key[key] = topic.name

    def resolve(self, name: str) -> TopicEntry:
        """The topic called `name`, forgiving case and unambiguous prefixes."""
        if name in self.entries:
            return self.entries[name]
        same = same_name(name.strip(), self.entries)
        if same:
            return self.entries[same]
        folded = name.casefold().strip()
        prefixed = [e for n, e in self.entries.items() if n.casefold().startswith(folded)]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            names = sorted(e.name for e in prefixed)
            options = ", ".join(names[:AMBIGUOUS_LISTED])
            if len(names) > AMBIGUOUS_LISTED:
                options += f" and {len(names) - AMBIGUOUS_LISTED} more"
            raise KeyError(f"'{name}' matches several topics: {options}")
        raise KeyError(f"no topic called '{name}' (feedtui topics lists them)")

    def problems(self) -> list[str]:
        """The topics' errors, but for the config file's topics: reading the
        file reported those, with their lines."""
        return [e.error for e in self.entries.values() if e.topic.origin != "config" and e.error]
